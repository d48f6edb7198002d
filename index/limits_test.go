package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/errkb/errkb"
)

// TestFuzzyExpansionFallsBack builds an index in which one short word is
// one edit away from more words than bleve's clause limit allows (a
// dataset can arrange this); typo correction over it must stay bounded and
// the search must answer, not fail with a 500.
func TestFuzzyExpansionFallsBack(t *testing.T) {
	// Lower-case letters beyond ASCII: "abc" or "abcd" plus one of them is
	// one term to bleve and one edit away from "abcd".
	var words []string
	for r := rune(0xC0); r < 0x2000; r++ {
		if unicode.IsLower(r) {
			words = append(words, "abc"+string(r), "abcd"+string(r))
		}
	}
	var lines []string
	for rec := range 4 {
		words := words[rec*len(words)/4 : (rec+1)*len(words)/4]
		lines = append(lines, fmt.Sprintf(`{"id":"fx-%d","repo":"example-org/fixture","slug":"s%d","errorCode":"E_%d","errorMessage":%q,"severity":"error"}`,
			rec, rec, rec, strings.Join(words, " ")))
	}
	ix := buildIndex(t, errkb.Folder{Name: "fx", FS: fstest.MapFS{"f.jsonl": {Data: []byte(strings.Join(lines, "\n"))}}})

	// "abcd" is one edit from every word: more than the clause limit, or
	// this test proves nothing.
	near := 0
	for i := range ix.t.Words().Len() {
		w := ix.t.Words().At(i)
		if strings.HasPrefix(w, "abc") && w != "abcd" {
			near++
		}
	}
	if near <= maxClauses {
		t.Fatalf("only %d words one edit from %q; make the fixture larger", near, "abcd")
	}
	for _, q := range []string{"abc", "abcd", "abcd abce abcf abcg"} {
		res, err := ix.Search(context.Background(), Query{Text: q})
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		if _, err := ix.Lookup(context.Background(), q); err != nil {
			t.Fatalf("Lookup(%q): %v", q, err)
		}
		t.Logf("%q: %d hits", q, res.Total)
	}
}
