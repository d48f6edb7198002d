package index

import (
	"context"
	"log/slog"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
)

// TestTermCacheScoresAsBleve runs the benchmarks' kinds of query with
// bleve's relevance read from its own postings, then with every term
// copied (the copies made in the background), then read from the copies,
// then with a cache too small to keep more than a few terms: the pages,
// scores, totals and facets must be the same each time.
func TestTermCacheScoresAsBleve(t *testing.T) {
	ds, ix := oneSegmentIndex(t, 2000, 3)
	ctx := context.Background()
	ix.termCache()
	caches := []struct {
		name  string
		cache *bleveshim.TermCache
	}{
		{"bleve's postings", bleveshim.NewTermCache(0, math.MaxUint64, ix.reader)},
		{"every term copied", bleveshim.NewTermCache(1<<30, 1, ix.reader)},
		{"every term read from the copies", nil}, // the same cache again
		{"a cache of a few terms", bleveshim.NewTermCache(20<<10, 1, ix.reader)},
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
		ix.terms.Wait()
	}
	if caches[1].cache.Len() == 0 {
		t.Error("no term was copied: the test compares nothing")
	}
}

// TestTermCacheUnderConcurrentSearches runs searches on four goroutines
// while the copies are made, as a server does (go test -race checks the
// cache's sharing), and wants each answer equal to the one from bleve's
// own postings.
func TestTermCacheUnderConcurrentSearches(t *testing.T) {
	ds, ix := oneSegmentIndex(t, 1500, 9)
	ctx := context.Background()
	ix.termCache()
	ix.terms = bleveshim.NewTermCache(0, math.MaxUint64, ix.reader)
	var qs []Query
	var want []*Result
	for _, kind := range searchKinds {
		for i := range 10 {
			if kind.lookup {
				continue
			}
			q := kind.query(ds.Records[(i*7919)%ds.Len()])
			res, err := ix.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			qs, want = append(qs, q), append(want, res)
		}
	}
	ix.terms = bleveshim.NewTermCache(64<<10, 1, ix.reader)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range qs {
				j := (i + g*len(qs)/4) % len(qs)
				got, err := ix.Search(ctx, qs[j])
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(got, want[j]) {
					t.Errorf("%+v: search differs from bleve's postings", qs[j])
				}
			}
		})
	}
	wg.Wait()
}

// TestTermCacheOnlyForOneSegment: the copies number documents as one
// segment does, and scorch renumbers them when it merges segments, so an
// index of several segments (built in memory, or persisted before builds
// ended in one) reads bleve's own postings and copies nothing.
func TestTermCacheOnlyForOneSegment(t *testing.T) {
	ds := genDataset(t, 2000, 3)
	ctx := context.Background()
	ix, err := Build(ctx, ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	r, err := ix.reader()
	if err != nil {
		t.Fatal(err)
	}
	segs := len(r.(*scorch.IndexSnapshot).Segments())
	r.Close()
	if segs < 2 {
		t.Skipf("the in-memory build left %d segment; nothing to check", segs)
	}
	ix.termCache()
	ix.terms = bleveshim.NewTermCache(1<<30, 1, ix.reader)
	for _, kind := range searchKinds {
		if kind.lookup {
			continue
		}
		for i := range 25 {
			if _, err := ix.Search(ctx, kind.query(ds.Records[(i*7919)%ds.Len()])); err != nil {
				t.Fatal(err)
			}
		}
	}
	ix.terms.Wait()
	if n := ix.terms.Len(); n != 0 {
		t.Errorf("%d terms copied from an index of %d segments", n, segs)
	}
}

// oneSegmentIndex builds n generated records' index on disk, which ends
// in one segment: the index the copies are made for.
func oneSegmentIndex(t *testing.T, n int, seed uint64) (*errkb.Dataset, *Index) {
	t.Helper()
	ds := genDataset(t, n, seed)
	ix, err := Open(context.Background(), ds, t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ds, ix
}
