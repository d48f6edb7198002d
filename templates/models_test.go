package templates

import "testing"

func TestSeverityClass(t *testing.T) {
	for in, want := range map[string]string{
		"error":                   "sev-error",
		"Warning":                 "sev-warning",
		`" onmouseover="alert(1)`: "sev-onmouseoveralert",
		"":                        "sev-",
		"fatal error<script>":     "sev-fatalerrorscript",
	} {
		if got := severityClass(in); got != want {
			t.Errorf("severityClass(%q) = %q, want %q", in, got, want)
		}
	}
}
