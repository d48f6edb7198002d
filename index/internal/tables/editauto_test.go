package tables

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/blevesearch/vellum"
	"github.com/errkb/errkb"
)

// TestEditAutomatonMatchesVellum checks that the words within d edits of
// a query word, and their distances, are vellum's Levenshtein automaton's:
// for the vocabulary of the relevance dataset plus words with non-ASCII
// letters, queried with its words changed by one to three edits
// (substitutions, insertions, deletions, transpositions) and with
// unrelated words.
func TestEditAutomatonMatchesVellum(t *testing.T) {
	ds, err := errkb.Load(errkb.Folder{Name: "relevance", FS: os.DirFS("../../../testdata/relevance/dataset")})
	if err != nil {
		t.Fatal(err)
	}
	data, err := Build(ds.Records)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := Read(data, ds.Len())
	if err != nil {
		t.Fatal(err)
	}
	vw := tb.Words()
	words := []string{"café", "cafe", "naïve", "über", "uber", "señor", "senor", "日本語", "straße", "strasse", "ab", "abc"}
	for i := range vw.Len() {
		words = append(words, vw.At(i))
	}
	v := vocabOf(t, words)

	rng := rand.New(rand.NewPCG(1, 2))
	letters := "abcdefghijklmnopqrstuvwxyz_0123456789"
	edit := func(w []byte) []byte {
		if len(w) == 0 {
			return append(w, letters[rng.IntN(len(letters))])
		}
		i := rng.IntN(len(w))
		switch rng.IntN(4) {
		case 0:
			w[i] = letters[rng.IntN(len(letters))]
		case 1:
			w = slices.Insert(w, i, letters[rng.IntN(len(letters))])
		case 2:
			w = slices.Delete(w, i, i+1)
		default:
			if i+1 < len(w) {
				w[i], w[i+1] = w[i+1], w[i]
			}
		}
		return w
	}
	var queries []string
	for _, w := range words {
		if !isASCIIString(w) {
			continue
		}
		queries = append(queries, w)
		for edits := 1; edits <= 3; edits++ {
			q := []byte(w)
			for range edits {
				q = edit(q)
			}
			queries = append(queries, string(q))
		}
	}
	for range 200 {
		q := make([]byte, 4+rng.IntN(10))
		for i := range q {
			q[i] = letters[rng.IntN(len(letters))]
		}
		queries = append(queries, string(q))
	}
	queries = append(queries, "cafe", "naive", "uber", "strase", "senior", "aab", "abba")

	found := 0
	for _, q := range queries {
		for d := 1; d <= 2; d++ {
			got, want := v.Within(q, d), v.withinDFA(q, d)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("within(%q, %d):\n got %v\nwant %v", q, d, got, want)
			}
			found += len(want)
		}
	}
	if found < len(queries) {
		t.Fatalf("only %d near words for %d queries: the comparison says little", found, len(queries))
	}
	t.Log(fmt.Sprintf("%d queries, %d near words compared", len(queries), found))
}

// vocabOf is a vocabulary of words (counts made up), enough for within.
func vocabOf(t testing.TB, words []string) *Vocab {
	t.Helper()
	words = slices.Clone(words)
	slices.Sort(words)
	words = slices.Compact(words)
	var buf bytes.Buffer
	b, err := vellum.New(&buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		if err := b.Insert([]byte(w), uint64(i%7)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	fst, err := vellum.Load(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return &Vocab{fst: fst}
}

// FuzzEditAutomaton checks that any query word finds the words vellum's
// Levenshtein automaton finds, at the same distances, in a vocabulary of
// fictional error words, some with non-ASCII letters.
func FuzzEditAutomaton(f *testing.F) {
	v := vocabOf(f, []string{"gizmo", "gizmos", "jammed", "jam", "timeout", "timed", "consumer", "consumers",
		"café", "naïve", "über", "straße", "日本語", "cog_stuck", "err_gz_jammed", "a", "ab", "abba", "x9f3"})
	for _, s := range []string{"gizmo", "gzimo", "jamed", "cafe", "uber", "strase", "abab", "timeuot", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if len(w) > 40 {
			return // longer words are never corrected (MaxFuzzyTermBytes)
		}
		for d := 1; d <= 2; d++ {
			if !isASCIIString(w) {
				continue
			}
			got, want := v.Within(w, d), v.withinDFA(w, d)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("within(%q, %d):\n got %v\nwant %v", w, d, got, want)
			}
		}
	})
}
