package pattern_test

import (
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tables"
)

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
		hits := map[int32]pattern.Hit{}
		ps.Match([]string{tc.seg}, tokenSet(tc.seg), false, hits)
		if h := hits[0]; h.Weight != tc.weight || h.Stripped != tc.stripped {
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
		hits := map[int32]pattern.Hit{}
		ps.Match([]string{tc.seg}, tokenSet(tc.seg), false, hits)
		if h := hits[tc.rec]; h.Weight == 0 || h.Bounded != tc.bounded {
			t.Errorf("%q: record %d hit %+v, want bounded %v", tc.seg, tc.rec, h, tc.bounded)
		}
	}
}

func TestWrappedTextFillsW(t *testing.T) {
	inner := &errkb.Record{ID: "in", ErrorMessage: "invalid mapping destination"}
	outer := &errkb.Record{ID: "out", ErrorMessage: "%w: invalid subject", Wraps: []string{"in"}}
	ps := persistedPatterns(t, []*errkb.Record{inner, outer})
	seg := "reload: invalid mapping destination: invalid subject"
	hits := map[int32]pattern.Hit{}
	ps.Match([]string{seg}, tokenSet(seg), false, hits)
	if hits[1].Weight <= hits[0].Weight {
		t.Errorf("wrapping record weighs %d, wrapped %d: want the wrapping one heavier", hits[1].Weight, hits[0].Weight)
	}
}

// persistedPatterns are recs' patterns as the index reads them: written
// into a tables file and read back.
func persistedPatterns(t *testing.T, recs []*errkb.Record) *pattern.Set {
	t.Helper()
	data, err := tables.Build(recs)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tables.Read(data, len(recs))
	if err != nil {
		t.Fatal(err)
	}
	return tb.Patterns()
}

func tokenSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range lex.Words(s) {
		m[w] = true
	}
	return m
}
