package index

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// TestCountBitmapsAsBleve: the total counted from the postings' bitmaps is
// the count of bleve's own query, for every query of the relevance suite
// (long and short texts, stop words, typos, evidence records) with and
// without filters, on the on-disk index a server opens.
func TestCountBitmapsAsBleve(t *testing.T) {
	ds := errkbtest.Load(t, errkb.Source{Name: "relevance", FS: os.DirFS("../testdata/relevance/dataset")})
	ix, err := Open(context.Background(), ds, t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var qs []labelled
	readQueries(t, "../testdata/relevance/queries.json", &qs)
	ctx := context.Background()
	checked := 0
	for _, lq := range qs {
		r, ok := ix.ds.ByID(lq.Want)
		if !ok {
			continue
		}
		for _, q := range []Query{
			{Text: lq.Q},
			{Text: lq.Q, Repo: r.Repo},
			{Text: lq.Q, Severity: r.Severity, Tag: r.Tags[0]},
			{Text: lq.Q, Repo: "no/such-repo"},
		} {
			c := ix.tableCandidates(understand(q.Text), maxCorrections)
			got, err := ix.countBitmaps(c, q)
			if err != nil {
				t.Fatalf("countBitmaps(%+v): %v", q, err)
			}
			want, err := ix.countByBleve(ctx, c, q)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%+v: counted %d, bleve counts %d", q, got, want)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d queries checked", checked)
	}
}
