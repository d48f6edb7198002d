package bleveshim

import (
	"context"
	"math"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blevesearch/bleve/v2"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/errkb/errkb/internal/errkbtest"
)

// TestCachedReaderReadsAsBleve reads terms of two fields through bleve's
// reader and through the cache (copied, then read back), in order and
// advancing to documents forwards and backwards: every posting must carry
// the same document, frequency and norm.
func TestCachedReaderReadsAsBleve(t *testing.T) {
	open := oneSegmentIndex(t, 1500)
	ctx := context.Background()
	r, err := open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cr := cachingReader{IndexReader: r, c: NewTermCache(1<<30, 1, open)}
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
	for _, field := range []string{"message", "documentation"} {
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

// oneSegmentIndex indexes the messages and documentation of n generated
// records on disk in one batch, one segment, with the analyzer of the
// index's prose fields, and reopens it read-only, as a server opens the
// index it built: the index the copies are made for (see onlySegment).
// It returns how to open a reader of it.
func oneSegmentIndex(t *testing.T, n int) func() (bleveindex.IndexReader, error) {
	t.Helper()
	text := bleve.NewTextFieldMapping()
	text.Analyzer = ProseAnalyzer
	doc := bleve.NewDocumentStaticMapping()
	doc.AddFieldMappingsAt("message", text)
	doc.AddFieldMappingsAt("documentation", text)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	dir := filepath.Join(t.TempDir(), "bleve")
	bi, err := bleve.New(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	b := bi.NewBatch()
	for _, r := range errkbtest.Generated(t, n).Records {
		if err := b.Index(r.ID, map[string]any{"message": r.ErrorMessage, "documentation": r.Documentation}); err != nil {
			t.Fatal(err)
		}
	}
	if err := bi.Batch(b); err != nil {
		t.Fatal(err)
	}
	if err := bi.Close(); err != nil {
		t.Fatal(err)
	}
	if bi, err = bleve.OpenUsing(dir, map[string]any{"read_only": true}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bi.Close() })
	return func() (bleveindex.IndexReader, error) {
		adv, err := bi.Advanced()
		if err != nil {
			return nil, err
		}
		return adv.Reader()
	}
}
