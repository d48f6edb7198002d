package index

import (
	"slices"
	"testing"
)

func TestCodeNumbers(t *testing.T) {
	for q, want := range map[string][]string{
		"apiErr.ErrorCode == 20417":     {"20417"},
		"err_code 20529":                {"20529"},
		"vendor code 7731":              {"7731"},
		"claim job: db error 40021: x":  {"40021"},
		"[4411] worker 12345 restarted": nil,
		"retry 3 of 5":                  nil,
	} {
		if got := codeNumbers(understand(q).chunks); !slices.Equal(got, want) {
			t.Errorf("codeNumbers(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestIdentLike(t *testing.T) {
	for s, want := range map[string]bool{
		"JS_CONSUMER_OFFLINE": true, "BRK-3001": true, "cache.evict.failed": true, "SyntaxError": true,
		"isConsumerNameInUse": true, "internal": false, "ERROR": false, "ORDERS": false, "40021": false, "ab": false,
	} {
		if got := identLike(s); got != want {
			t.Errorf("identLike(%q) = %v, want %v", s, got, want)
		}
	}
}
