package index

import (
	"context"
	"log/slog"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/errkb/errkb"
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
		cache *termCache
	}{
		{"bleve's postings", newTermCache(0, math.MaxUint64, ix.reader)},
		{"every term copied", newTermCache(1<<30, 1, ix.reader)},
		{"every term read from the copies", nil}, // the same cache again
		{"a cache of a few terms", newTermCache(20<<10, 1, ix.reader)},
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
		ix.terms.copying.Wait()
	}
	if len(caches[1].cache.terms) == 0 {
		t.Error("no term was copied: the test compares nothing")
	}
}

// TestCachedReaderReadsAsBleve reads terms of two fields through bleve's
// reader and through the cache (copied, then read back), in order and
// advancing to documents forwards and backwards: every posting must carry
// the same document, frequency and norm.
func TestCachedReaderReadsAsBleve(t *testing.T) {
	_, ix := oneSegmentIndex(t, 1500, 5)
	ctx := context.Background()
	adv, err := ix.bi.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cr := cachingReader{IndexReader: r, c: newTermCache(1<<30, 1, ix.reader)}
	type posting struct {
		doc  uint64
		freq uint64
		norm float64
	}
	read := func(tfr bleveindex.TermFieldReader, advances []uint64) []posting {
		var out []posting
		var d bleveindex.TermFieldDoc
		for i := 0; ; i++ {
			var p *bleveindex.TermFieldDoc
			var err error
			if i < len(advances) {
				p, err = tfr.Advance(bleveindex.NewIndexInternalID(nil, advances[i]), d.Reset())
			} else {
				p, err = tfr.Next(d.Reset())
			}
			if err != nil {
				t.Fatal(err)
			}
			if p == nil {
				if i < len(advances) {
					out = append(out, posting{doc: math.MaxUint64})
					continue
				}
				return out
			}
			out = append(out, posting{p.ID.Value(), p.Freq, p.Norm})
		}
	}
	terms := 0
	for _, field := range []string{fieldMessage, fieldDoc} {
		dict, err := r.FieldDict(field)
		if err != nil {
			t.Fatal(err)
		}
		for e, err := dict.Next(); e != nil && err == nil && terms < 400; e, err = dict.Next() {
			if e.Count < 3 {
				continue
			}
			terms++
			advances := []uint64{7, 300, 299, 1200, 5, 40, 41, 900}
			for _, adv := range [][]uint64{nil, advances} {
				want, err := r.TermFieldReader(ctx, []byte(e.Term), field, true, true, false)
				if err != nil {
					t.Fatal(err)
				}
				// The first read asks for a copy, made in the background.
				first, err := cr.TermFieldReader(ctx, []byte(e.Term), field, true, true, false)
				if err != nil {
					t.Fatal(err)
				}
				first.Close()
				cr.c.copying.Wait()
				got, err := cr.TermFieldReader(ctx, []byte(e.Term), field, true, true, false)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := got.(*cachedReader); !ok {
					t.Fatalf("%s %q: not read from the cache", field, e.Term)
				}
				if w, g := read(want, adv), read(got, adv); !reflect.DeepEqual(g, w) || got.Count() != want.Count() {
					t.Fatalf("%s %q, advancing to %v:\n got %v (count %d)\nwant %v (count %d)", field, e.Term, adv, g, got.Count(), w, want.Count())
				}
			}
		}
		dict.Close()
	}
	if terms < 50 {
		t.Fatalf("only %d terms compared", terms)
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
	ix.terms = newTermCache(0, math.MaxUint64, ix.reader)
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
	ix.terms = newTermCache(64<<10, 1, ix.reader)
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
	ix.terms = newTermCache(1<<30, 1, ix.reader)
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
	ix.terms.copying.Wait()
	if n := len(ix.terms.terms); n != 0 {
		t.Errorf("%d terms copied from an index of %d segments", n, segs)
	}
}

// oneSegmentIndex builds n generated records' index on disk, which ends
// in one segment: the index the copies are made for (see onlySegment).
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
