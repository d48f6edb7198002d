package index

import (
	"context"
	"log/slog"
	"math"
	"reflect"
	"testing"
)

// TestTermCacheScoresAsBleve runs the benchmarks' kinds of query with
// bleve's relevance read from its own postings, then from copies of
// every term's postings (first made, then read back), then from a cache
// too small to keep more than a few terms: the pages, scores, totals and
// facets must be the same each time.
func TestTermCacheScoresAsBleve(t *testing.T) {
	ds := genDataset(t, 2000, 3)
	ctx := context.Background()
	ix, err := Build(ctx, ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ix.termCache()
	caches := []struct {
		name  string
		cache *termCache
	}{
		{"bleve's postings", newTermCache(0, math.MaxUint64)},
		{"every term copied", newTermCache(1<<30, 1)},
		{"every term read from the copies", nil}, // the same cache again
		{"a cache of a few terms", newTermCache(20<<10, 1)},
	}
	var want []*Result
	for ci, c := range caches {
		if c.cache != nil {
			ix.terms = c.cache
		}
		n := 0
		for _, kind := range searchKinds {
			if kind.lookup {
				continue
			}
			for i := range 25 {
				q := kind.query(ds.Records[(i*7919)%ds.Len()])
				got, err := ix.Search(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if ci == 0 {
					want = append(want, got)
				} else if !reflect.DeepEqual(got, want[n]) {
					t.Errorf("%s, %s %+v: search differs from bleve's postings\n got: %+v\nwant: %+v", c.name, kind.name, q, got, want[n])
				}
				n++
			}
		}
	}
	if len(caches[1].cache.terms) == 0 {
		t.Error("no term was copied: the test compares nothing")
	}
}
