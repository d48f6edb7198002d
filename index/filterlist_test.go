package index

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// TestFilterListMatchesBleve checks that listing under one filter answers
// exactly as bleve's sorted search does: the same records in the same
// order with the same scores, the same total and the same facets, for
// every tag, project and severity, on every page, on disk and in memory.
func TestFilterListMatchesBleve(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 600
	}
	ctx := context.Background()
	disk, err := Open(ctx, errkbtest.Generated(t, n), t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { disk.Close() })

	// Records with one to four tags and a tag given twice, so that scores
	// differ within a tag (bleve's norm and term frequency).
	var recs []*errkb.Record
	for i := range 40 {
		recs = append(recs, errkbtest.Record(errkbtest.ID(fmt.Sprintf("f00dfeed%08x", 1000-i)), func(r *errkb.Record) {
			r.Tags = [][]string{{"gizmo"}, {"gizmo", "oil"}, {"oil", "gizmo", "cog"}, {"cog", "gizmo", "gizmo", "oil"}}[i%4]
			r.Severity = []string{"error", "warning", "fatal"}[i%3]
			r.Repo = []string{"acme-labs/gizmo", "acme-labs/cog"}[i%2]
		}))
	}
	mem, err := Build(ctx, errkbtest.Dataset(t, recs...), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mem.Close() })

	for _, ix := range []*Index{disk, mem} {
		ds := ix.Dataset()
		var qs []Query
		for _, tc := range ds.Tags() {
			qs = append(qs, Query{Tag: tc.Tag})
		}
		for _, p := range ds.Projects() {
			qs = append(qs, Query{Repo: p.Repo})
		}
		seen := map[string]bool{}
		for _, r := range ds.Records {
			if !seen[r.Severity] {
				seen[r.Severity] = true
				qs = append(qs, Query{Severity: r.Severity})
			}
		}
		qs = append(qs, Query{Tag: "no-such-tag"}, Query{Repo: "acme-labs/nothing"})
		if len(qs) < 10 {
			t.Fatalf("only %d filters to compare", len(qs))
		}
		compared := 0
		for _, q := range qs {
			for _, page := range []struct{ limit, offset int }{{20, 0}, {20, 20}, {7, 3}, {100, 100}, {20, 10000}} {
				q.Limit, q.Offset = page.limit, page.offset
				got, err := ix.list(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				want, err := ix.listByBleve(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("list %+v:\n got %s\nwant %s", q, describe(got), describe(want))
				}
				compared += len(want.Hits)
			}
		}
		if compared == 0 {
			t.Fatal("no hits compared")
		}
	}
}

func describe(r *Result) string {
	s := fmt.Sprintf("total %d facets %+v hits", r.Total, r.Facets)
	for _, h := range r.Hits {
		s += fmt.Sprintf(" %s:%v", h.Record.ID, h.Score)
	}
	return s
}

// TestFilterListsKeepOnlyKnownValues checks that filter values no
// record holds, which any client may send, answer empty and are not kept:
// the kept lists stay bounded by the dataset, whatever is asked.
func TestFilterListsKeepOnlyKnownValues(t *testing.T) {
	ctx := context.Background()
	ix, err := Build(ctx, errkbtest.Dataset(t, errkbtest.Record(func(r *errkb.Record) { r.Tags = []string{"gizmo"} })), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	for i := range 100 {
		res, err := ix.Search(ctx, Query{Tag: fmt.Sprintf("made-up-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != 0 || len(res.Hits) != 0 {
			t.Fatalf("unknown tag: total %d, %d hits", res.Total, len(res.Hits))
		}
	}
	if res, err := ix.Search(ctx, Query{Tag: "gizmo"}); err != nil || res.Total != 1 {
		t.Fatalf("tag gizmo: %v, %+v", err, res)
	}
	ix.lists.mu.Lock()
	defer ix.lists.mu.Unlock()
	if n := len(ix.lists.lists); n != 1 {
		t.Errorf("%d filter lists kept after 100 unknown tags and one known, want 1", n)
	}
}
