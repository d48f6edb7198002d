package index

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

// TestBuildFollowsReadOrder checks that the order a storage engine gives
// for reading the records (errkb.Storage.ReadOrder: the order of their
// bytes in its file) changes nothing the index answers: the lookup tables are
// the same bytes, and searches return the same records with the same
// scores and totals.
func TestBuildFollowsReadOrder(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)
	load := func() *errkb.Dataset {
		ds, err := errkb.Load(errkb.Folder{Name: "gen", FS: kbgen.FS(1200, 7)})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	own := load()
	reversed := load()
	order := reversed.ReadOrder()
	slices.Reverse(order)
	reversed.SetStorage(readOrder(order))
	if got := reversed.ReadOrder(); got[0] != reversed.Len()-1 {
		t.Fatalf("ReadOrder starts at %d, want the storage's order", got[0])
	}
	a, err := Build(ctx, own, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Build(ctx, reversed, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if !bytes.Equal(a.t.Data(), b.t.Data()) {
		t.Errorf("lookup tables differ: %d bytes against %d", len(a.t.Data()), len(b.t.Data()))
	}
	for i := 0; i < own.Len(); i += 97 {
		r := own.Records[i]
		for _, q := range []string{r.ErrorCode, r.ErrorMessage, r.Repo + " " + r.ErrorClass} {
			ra, err := a.Search(ctx, Query{Text: q})
			if err != nil {
				t.Fatal(err)
			}
			rb, err := b.Search(ctx, Query{Text: q})
			if err != nil {
				t.Fatal(err)
			}
			if ra.Total != rb.Total || len(ra.Hits) != len(rb.Hits) {
				t.Fatalf("%q: %d of %d hits against %d of %d", q, len(ra.Hits), ra.Total, len(rb.Hits), rb.Total)
			}
			for k := range ra.Hits {
				ha, hb := ra.Hits[k], rb.Hits[k]
				if ha.Record.ID != hb.Record.ID || ha.Score != hb.Score {
					t.Fatalf("%q: hit %d is %s (%.4f) against %s (%.4f)", q, k, ha.Record.ID, ha.Score, hb.Record.ID, hb.Score)
				}
			}
		}
	}
}

// readOrder is a storage engine that only gives an order to read in.
type readOrder []int

func (readOrder) ReleasePages()      {}
func (o readOrder) ReadOrder() []int { return o }
func (readOrder) SavedHash() string  { return "" }
