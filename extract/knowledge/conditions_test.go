package knowledge

import (
	"go/parser"
	"testing"
)

func TestNegate(t *testing.T) {
	for _, tt := range []struct{ cond, want string }{
		{"err != nil", "err == nil"},
		{"x == 2", "x != 2"},
		{"!ok", "ok"},
		{"ok", "!ok"},
		{"c.mqtt.rejectQoS2Pub", "!c.mqtt.rejectQoS2Pub"},
		{"IsValid(s)", "!IsValid(s)"},
		{"a > 0", "!(a > 0)"},
		{"a == 1 && b == 2", "!(a == 1 && b == 2)"},
		{"a == 1 || b != 2", "!(a == 1 || b != 2)"},
	} {
		e, err := parser.ParseExpr(tt.cond)
		if err != nil {
			t.Fatal(err)
		}
		if got := negate(tt.cond, e); got != tt.want {
			t.Errorf("negate(%q) = %q, want %q", tt.cond, got, tt.want)
		}
	}
}

func TestChunks(t *testing.T) {
	for _, tt := range []struct {
		format string
		want   []string
	}{
		{"sprocket: gear %d is out of range", []string{"sprocket: gear", "is out of range"}},
		{"stream {stream} not found", []string{"stream", "not found"}},
		{"100%% done: %w", []string{"100% done:"}},
		{"%v", nil},
	} {
		got := chunks(tt.format)
		if len(got) != len(tt.want) {
			t.Errorf("chunks(%q) = %q, want %q", tt.format, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("chunks(%q) = %q, want %q", tt.format, got, tt.want)
				break
			}
		}
	}
}
