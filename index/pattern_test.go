package index

import (
	"regexp"
	"slices"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
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
			m, ok := compilePattern(parsePattern(tt.pattern))
			if tt.weight == 0 {
				if ok {
					t.Fatalf("compiled with weight %d; a pattern without literal text must never be evidence", m.weight)
				}
				return
			}
			if !ok || regexp.MustCompile(m.expr) == nil {
				t.Fatal("did not compile")
			}
			if m.weight != tt.weight {
				t.Errorf("weight %d, want %d", m.weight, tt.weight)
			}
			if tt.required != nil && !slices.Equal(m.required, tt.required) {
				t.Errorf("required %q, want %q", m.required, tt.required)
			}
			for _, s := range tt.match {
				if !regexp.MustCompile(m.expr).MatchString(s) {
					t.Errorf("does not match %q (regexp %s)", s, regexp.MustCompile(m.expr))
				}
			}
			for _, s := range tt.noMatch {
				if regexp.MustCompile(m.expr).MatchString(s) {
					t.Errorf("matches %q (regexp %s)", s, regexp.MustCompile(m.expr))
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
		if got := looksLikeRegexp(p); got != want {
			t.Errorf("looksLikeRegexp(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestClientPrefixOptional(t *testing.T) {
	ps := persistedPatterns(t, []*errkb.Record{{ID: "a", ErrorMessage: "nats: consumer not found"}})
	for _, tc := range []struct {
		seg      string
		weight   int
		stripped bool
	}{
		{"nats: consumer not found", 20, false},
		{"consumer not found", 16, true},
		{"lookup failed: consumer not found", 16, true},
		{"stream not found", 0, false},
	} {
		hits := map[int32]patternHit{}
		ps.match([]string{tc.seg}, tokenSet(tc.seg), false, hits)
		if h := hits[0]; h.weight != tc.weight || h.stripped != tc.stripped {
			t.Errorf("%q: hit %+v, want weight %d stripped %v", tc.seg, h, tc.weight, tc.stripped)
		}
	}
}

func TestBoundedWhereMessagesGoOn(t *testing.T) {
	recs := []*errkb.Record{{ID: "a", ErrorMessage: "no such device"}, {ID: "b", ErrorMessage: "no such device or address"}, {ID: "c", ErrorMessage: "timed out flushing %s to disk"}}
	ps := persistedPatterns(t, recs)
	for _, tc := range []struct {
		seg     string
		rec     int32
		bounded bool
	}{
		{"open /dev/sdb: no such device", 0, true},
		{"no such device or", 0, false},        // the start of the longer message
		{"no such device (errno 19)", 0, true}, // punctuation after it
		{"store: timed out flushing widgets to disk after 30s", 2, true},
	} {
		hits := map[int32]patternHit{}
		ps.match([]string{tc.seg}, tokenSet(tc.seg), false, hits)
		if h := hits[tc.rec]; h.weight == 0 || h.bounded != tc.bounded {
			t.Errorf("%q: record %d hit %+v, want bounded %v", tc.seg, tc.rec, h, tc.bounded)
		}
	}
}

func TestWrappedTextFillsW(t *testing.T) {
	inner := &errkb.Record{ID: "in", ErrorMessage: "invalid mapping destination"}
	outer := &errkb.Record{ID: "out", ErrorMessage: "%w: invalid subject", Wraps: []string{"in"}}
	ps := persistedPatterns(t, []*errkb.Record{inner, outer})
	seg := "reload: invalid mapping destination: invalid subject"
	hits := map[int32]patternHit{}
	ps.match([]string{seg}, tokenSet(seg), false, hits)
	if hits[1].weight <= hits[0].weight {
		t.Errorf("wrapping record weighs %d, wrapped %d: want the wrapping one heavier", hits[1].weight, hits[0].weight)
	}
}

// persistedPatterns are recs' patterns as the index reads them: written
// into a tables file and read back.
func persistedPatterns(t *testing.T, recs []*errkb.Record) *patternSet {
	t.Helper()
	data, err := buildTables(recs)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := readTables(data, len(recs))
	if err != nil {
		t.Fatal(err)
	}
	return tb.patterns
}

func tokenSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range lex.Words(s) {
		m[w] = true
	}
	return m
}
