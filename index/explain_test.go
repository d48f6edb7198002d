package index

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"testing"

	"github.com/errkb/errkb"
)

var (
	explainQuery = flag.String("explain", "", "print the evidence behind the ranking of this query over testdata/relevance")
	explainScale = flag.Int("explain.scale", 0, "explain over the fixture scaled to this many records")
)

// TestExplain prints how a query was understood and ranked; it is a tool
// for tuning, run with -explain 'query'.
func TestExplain(t *testing.T) {
	if *explainQuery == "" {
		t.Skip("no -explain query")
	}
	ds, err := errkb.Load(errkb.Source{Name: "relevance", FS: os.DirFS("../testdata/relevance/dataset")})
	if err != nil {
		t.Fatal(err)
	}
	if *explainScale > 0 {
		ds = scaledDataset(t, *explainScale)
	}
	ix, err := Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	u := understand(*explainQuery)
	t.Logf("segments %q\nwords %q\nchunks %q\nkeyed %q", u.segments, u.words, u.chunks, u.keyedNumbers)
	a := ix.analyze(u)
	t.Logf("corrections %v near %v", a.corrections, a.near)
	ranked, _, err := ix.rank(context.Background(), a, Query{Text: *explainQuery}, rerankWindow)
	if err != nil {
		t.Fatal(errors.Unwrap(err))
	}
	for i, e := range ranked {
		if i == 8 {
			break
		}
		r := ds.Records[e.rec]
		tier, s := e.tier()
		t.Logf("%6.1f t%d/%d %s %s %q id=%v code=%d class=%d ident=%.2f src=%.2f keyed=%v near=%d pat=%+v text=%.3f phrase=%v bleve=%.2f",
			e.score, tier, s, r.ID, r.ErrorCode, r.ErrorMessage, e.id, e.code, e.class, e.ident, e.srcIdent, e.keyedIdent, e.nearCode, e.pattern, e.text, e.phrase, e.bleve)
	}
	lr, _ := ix.Lookup(context.Background(), *explainQuery)
	if lr.Match != nil {
		t.Logf("lookup: %s (%s)", lr.Match.ID, lr.Reason)
	} else {
		t.Logf("lookup: no match; did you mean %v", lr.DidYouMean)
	}
}
