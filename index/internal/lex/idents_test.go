package lex

import "testing"

func TestQualifiedName(t *testing.T) {
	for _, tc := range []struct {
		in        string
		pkg, name string
		ok        bool
	}{
		{"zip.ErrChecksum", "zip", "ErrChecksum", true},
		{"*fs.PathError", "fs", "PathError", true},
		{"&url.Error{}", "url", "Error", true},
		{"json.SyntaxError{}", "json", "SyntaxError", true},
		{"unix.E2BIG", "unix", "E2BIG", true},
		{"main.go", "", "", false},
		{"nats.go.ErrTimeout", "", "", false},
		{"ErrTimeout", "", "", false},
	} {
		pkg, name, ok := QualifiedName(tc.in)
		if pkg != tc.pkg || name != tc.name || ok != tc.ok {
			t.Errorf("QualifiedName(%q) = %q, %q, %v; want %q, %q, %v", tc.in, pkg, name, ok, tc.pkg, tc.name, tc.ok)
		}
	}
}
