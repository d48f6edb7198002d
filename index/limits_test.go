package index

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/errkb/errkb"
)

// TestFuzzyExpansionFallsBack builds an index in which one short word is
// one edit away from more terms than bleve's clause limit allows, so its
// typo-tolerant query fails (a dataset can arrange this); the search must
// still answer, with exact terms only, not fail with a 500.
func TestFuzzyExpansionFallsBack(t *testing.T) {
	// Lower-case letters beyond ASCII: "abc" plus one of them, or with one
	// inside, is one term to bleve and one edit away from "abc".
	var words []string
	for r := rune(0xC0); r < 0x2000; r++ {
		if unicode.IsLower(r) {
			words = append(words, "abc"+string(r), "ab"+string(r)+"c")
		}
	}
	var lines []string
	for rec := range 4 {
		words := words[rec*len(words)/4 : (rec+1)*len(words)/4]
		lines = append(lines, fmt.Sprintf(`{"id":"fx-%d","repo":"example-org/fixture","slug":"s%d","errorCode":"E_%d","errorMessage":%q,"severity":"error"}`,
			rec, rec, rec, strings.Join(words, " ")))
	}
	ds, err := errkb.Load(errkb.Source{Name: "fx", FS: fstest.MapFS{"f.jsonl": {Data: []byte(strings.Join(lines, "\n"))}}})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()

	// The fuzzy query alone must fail, or this test proves nothing.
	req := ix.query(Query{Text: "abc"}, true)
	if _, err := ix.bi.SearchInContext(context.Background(), searchRequest(req)); err == nil {
		t.Fatal("the fuzzy query did not pass the clause limit; make the fixture larger")
	}
	res, err := ix.Search(context.Background(), Query{Text: "abc"})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	t.Logf("%q: %d hits after falling back to exact terms", "abc", res.Total)
}

func searchRequest(q query.Query) *bleve.SearchRequest { return bleve.NewSearchRequest(q) }
