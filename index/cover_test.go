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
	ds := errkbtest.Load(t, errkb.Folder{Name: "relevance", FS: os.DirFS("../testdata/relevance/dataset")})
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
			planSearch(c)
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

// TestWordPostingsAtScale: at 10,000 records, queries of common words are
// answered from the word postings, with bleve's totals, and the first hit
// of every kind of query is the one bleve's text search ranks first.
func TestWordPostingsAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-record index")
	}
	ds := errkbtest.Generated(t, 10000)
	ix, err := Open(context.Background(), ds, t.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	search := func(q Query, bleveOnly bool) *Result {
		textFromBleveOnly = bleveOnly
		defer func() { textFromBleveOnly = false }()
		res, err := ix.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	fromPostings, sameFirst, n := 0, 0, 0
	for i := 0; i < 200; i++ {
		r := ds.Records[(i*7919)%ds.Len()]
		for _, q := range []Query{
			{Text: firstWords(r.ErrorMessage, 2)},
			{Text: typo(firstWords(r.ErrorMessage, 3))},
			{Text: logLine(r)},
			{Text: r.ErrorMessage, Severity: r.Severity},
		} {
			c := ix.tableCandidates(understand(q.Text), maxCorrections)
			planSearch(c)
			if ix.coverMatches(ctx, c, q, rerankWindow) {
				fromPostings++
			}
			got, want := search(q, false), search(q, true)
			switch {
			case got.Total < len(got.Hits):
				t.Errorf("%+v: total %d below the %d hits shown", q, got.Total, len(got.Hits))
			case contentWords(c.words) == 0:
				// Stop words only ("could not"): bleve's analyzers drop
				// them and it counts nothing; the total counts the
				// records holding them, which the page shows.
			case got.Total != want.Total:
				t.Errorf("%+v: total %d, bleve's %d", q, got.Total, want.Total)
			}
			n++
			if len(got.Hits) > 0 && len(want.Hits) > 0 && got.Hits[0].Record.ID == want.Hits[0].Record.ID {
				sameFirst++
			}
		}
	}
	if fromPostings < n/2 {
		t.Errorf("only %d of %d queries answered from the word postings", fromPostings, n)
	}
	// Word cover ranks the text matches either way, but bleve's relevance
	// (at most 10 points) is normalized over the records it scored, which
	// differ: records a few points apart may swap (14 of 800 here, all
	// two-word queries such as "timed out").
	if sameFirst < n*95/100 {
		t.Errorf("first hit as bleve's text search ranks it for %d of %d queries", sameFirst, n)
	}
	t.Logf("%d of %d queries from the word postings, first hit unchanged for %d", fromPostings, n, sameFirst)
}
