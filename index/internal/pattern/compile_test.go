package pattern

import (
	"regexp"
	"slices"
	"testing"
)

func TestCompilePattern(t *testing.T) {
	tests := []struct {
		pattern  string
		weight   int // 0: never evidence
		required []string
		match    []string
		noMatch  []string
	}{
		{
			pattern: "consumer is offline", weight: 17, required: []string{"consumer", "is", "offline"},
			match:   []string{"consumer is offline", "[ERR] Consumer IS offline: orders", "could not update: consumer is offline"},
			noMatch: []string{"consumer was offline", "subconsumer is offline"},
		},
		{
			pattern: "stream %s not found", weight: 14, required: []string{"stream", "not", "found"},
			match:   []string{`stream "ORDERS" not found`, "stream orders.> not found in account A"},
			noMatch: []string{"stream not found"},
		},
		{
			pattern: "message size %d exceeds max payload of %d bytes", weight: 35,
			match:   []string{"message size 2048 exceeds max payload of 1024 bytes"},
			noMatch: []string{"message size big exceeds max payload of 1024 bytes"},
		},
		{
			pattern: "key too long (%zu > %d bytes)", weight: 15,
			match: []string{"key too long (312 > 250 bytes)"},
		},
		{
			pattern: "access token expired at {expiredAt}", weight: 20,
			match: []string{"access token expired at 2026-03-01T10:00:00Z"},
		},
		{
			pattern: "%(name)s failed: %v", weight: 6,
			match: []string{"upload failed: disk full"},
		},
		{
			pattern: `^subject (.+) overlaps with stream (\S+)$`, weight: 25,
			match:   []string{"subject orders.* overlaps with stream ORDERS", "create failed: subject a.b overlaps with stream X (code 400)"},
			noMatch: []string{"subject overlaps with stream"},
		},
		{
			pattern: "100%% full: %s", weight: 7,
			match: []string{"100% full: /var"},
		},
		{pattern: "(.+)", weight: 0},
		{pattern: "%s", weight: 0},
		{pattern: "{0}", weight: 0},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			m, ok := Compile(Parse(tt.pattern))
			if tt.weight == 0 {
				if ok {
					t.Fatalf("compiled with weight %d; a pattern without literal text must never be evidence", m.Weight)
				}
				return
			}
			if !ok || regexp.MustCompile(m.Expr) == nil {
				t.Fatal("did not compile")
			}
			if m.Weight != tt.weight {
				t.Errorf("weight %d, want %d", m.Weight, tt.weight)
			}
			if tt.required != nil && !slices.Equal(m.Required, tt.required) {
				t.Errorf("required %q, want %q", m.Required, tt.required)
			}
			for _, s := range tt.match {
				if !regexp.MustCompile(m.Expr).MatchString(s) {
					t.Errorf("does not match %q (regexp %s)", s, regexp.MustCompile(m.Expr))
				}
			}
			for _, s := range tt.noMatch {
				if regexp.MustCompile(m.Expr).MatchString(s) {
					t.Errorf("matches %q (regexp %s)", s, regexp.MustCompile(m.Expr))
				}
			}
		})
	}
}

func TestLooksLikeRegexp(t *testing.T) {
	for p, want := range map[string]bool{
		`^unexpected token (.+) at line \d+$`: true,
		`invalid value [0-9]+`:                true,
		"consumer is offline":                 false,
		"stream %s not found":                 false,
		"bind(%s:%d): Address already in use": false,
		"invalid config (missing name).":      false,
	} {
		if got := LooksLikeRegexp(p); got != want {
			t.Errorf("LooksLikeRegexp(%q) = %v, want %v", p, got, want)
		}
	}
}

// FuzzPattern compiles arbitrary messagePatterns. A pattern that pins down
// literal text must give a regexp that compiles; one that pins down none
// (such as "(.+)" alone) must never become evidence.
func FuzzPattern(f *testing.F) {
	for _, s := range []string{"consumer is offline", "stream %q not found", "consumer {consumer} on stream {stream} is paused",
		`^subject (.+) overlaps with stream (\S+)$`, `(.+)`, "%s", "{0}", `invalid offset \d+`, `%(name)s is %zu`, `((((`, `\`, "[", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if len(p) > 4096 {
			return // the loader caps text fields well below regexp limits
		}
		pieces, expr := Parse(p)
		m, ok := Compile(pieces, expr)
		if !ok {
			if m.Weight != 0 {
				t.Fatalf("pattern %q refused but pins %d letters", p, m.Weight)
			}
			return
		}
		if m.Weight == 0 {
			t.Fatalf("pattern %q pins no letters but counts as evidence", p)
		}
		if _, err := regexp.Compile(m.Expr); err != nil {
			t.Fatalf("pattern %q gave a regexp that does not compile: %q", p, expr)
		}
	})
}
