package tables

import "testing"

// TestClassKeyLeavesOutPackageMain: a class naming a function of package
// main is not a key a lookup finds a record by, since every Go panic
// trace holds main.main.
func TestClassKeyLeavesOutPackageMain(t *testing.T) {
	for class, want := range map[string]string{
		"main.main": "", "main.run": "", "Main.Main": "",
		"server.ApiError": "server.apierror", "mainly.Func": "mainly.func", "": "",
	} {
		if got := classKey(class); got != want {
			t.Errorf("classKey(%q) = %q, want %q", class, got, want)
		}
	}
}
