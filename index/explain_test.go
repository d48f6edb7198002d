package index

import (
	"context"
	"flag"
	"io/fs"
	"log/slog"
	"os"
	"testing"

	"github.com/errkb/errkb"
)

var (
	explainQuery = flag.String("explain", "", "print the evidence behind the ranking of this query over testdata/relevance")
	explainScale = flag.Int("explain.scale", 0, "explain over the fixture scaled to this many records")
	explainReal  = flag.Bool("explain.real", false, "explain over the real records of testdata/realrelevance")
	explainSuite = flag.String("explain.suite", "", "explain over the records of this real-record suite's folder (its dataset/)")
)

// TestExplain prints how a query was understood and ranked, a tool for
// tuning: go test ./index -run TestExplain -v -explain 'query'. Without
// -explain it explains a fixture log line and checks that the record it
// names comes first and carries the evidence that put it there.
func TestExplain(t *testing.T) {
	q, want := *explainQuery, ""
	if q == "" {
		q = `time=2026-03-01T10:22:01Z level=ERROR msg="transfer failed" err="db error 40021: serialization conflict: transaction 99012 must be retried"`
		want = "e5eb76b634ae4ebe"
	}
	var fsys fs.FS = os.DirFS("../testdata/relevance/dataset")
	if *explainReal {
		fsys = provenanceHidden{os.DirFS("../testdata/realrelevance/dataset")}
	}
	if *explainSuite != "" {
		fsys = provenanceHidden{os.DirFS(*explainSuite + "/dataset")}
	}
	ds, err := errkb.Load(errkb.Folder{Name: "relevance", FS: fsys})
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
	u := understand(q)
	t.Logf("segments %q\nwords %q\nchunks %q\nkeyed %q", u.segments, u.words, u.chunks, u.keyedNumbers)
	c, err := ix.candidates(context.Background(), u, Query{Text: q}, rerankWindow)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("corrections %v near %v", c.corrections, c.near)
	ranked := ix.rank(ix.weigh(c))
	for i, e := range ranked {
		if i == 8 {
			break
		}
		r := ds.Records[e.rec]
		tier, s := e.tier()
		t.Logf("%6.1f t%d/%d %s %s %q id=%v code=%d class=%d ident=%.2f src=%.2f number=%.2f keyed=%v near=%d pat=%+v text=%.3f phrase=%v bleve=%.2f",
			e.score, tier, s, r.ID, r.ErrorCode, r.ErrorMessage, e.id, e.code, e.class, e.ident, e.srcIdent, e.number, e.keyedIdent, e.nearCode, e.pattern, e.text, e.phrase, e.bleve)
	}
	lr, err := ix.Lookup(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if lr.Match != nil {
		t.Logf("lookup: %s (%s)", lr.Match.ID, lr.Reason)
	} else {
		t.Logf("lookup: no match; did you mean %v", lr.DidYouMean)
	}
	if want != "" {
		if len(ranked) == 0 || ds.Records[ranked[0].rec].ID != want || ranked[0].code == 0 || ranked[0].pattern.Weight == 0 {
			t.Errorf("want %s first, named by its code and found by its message", want)
		}
		if lr.Match == nil || lr.Match.ID != want || lr.Reason != "code and message" {
			t.Errorf("lookup %+v, want %s by code and message", lr, want)
		}
	}
}
