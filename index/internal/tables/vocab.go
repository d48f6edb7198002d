package tables

import (
	"errors"
	"math"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/vellum"
	"github.com/blevesearch/vellum/levenshtein"
	"github.com/errkb/errkb/index/internal/tabfile"
)

// Vocab is the set of words errors are named with (message, pattern,
// code and class words), with how many records use each. It corrects
// typos: a word it does not know is replaced by the nearest word it does,
// within a bounded edit distance, found with a Levenshtein automaton over
// an FST of the words (the same machinery bleve's fuzzy queries use), so a
// correction costs microseconds, not a scan of every word.
type Vocab struct {
	words tabfile.Strings // sorted
	df    []uint32        // records using each word
	fst   *vellum.FST
	n     int // records, for IDF
}

// readVocab reads the vocabulary written by writeVocab.
func readVocab(s *tabfile.Reader, name string, records int) *Vocab {
	v := &Vocab{words: s.Strings(name), df: tabfile.Slice[uint32](s, name+".df"), n: records}
	data := s.Bytes(name + ".fst")
	if s.Err() != nil {
		return v
	}
	if len(v.df) != v.words.Len() {
		s.Failf("lookup tables: vocabulary %s is damaged", name)
		return v
	}
	fst, err := vellum.Load(data)
	if err != nil {
		s.Failf("lookup tables: vocabulary %s: %w", name, err)
		return v
	}
	v.fst = fst
	return v
}

// Known reports whether w is a word of the vocabulary.
func (v *Vocab) Known(w string) bool {
	_, ok := v.words.Search(w)
	return ok
}

// Number is w's position in the vocabulary (see WordPostings.Of).
func (v *Vocab) Number(w string) (int, bool) { return v.words.Search(w) }

// Len is how many words the vocabulary holds; At is the i-th, in order.
func (v *Vocab) Len() int        { return v.words.Len() }
func (v *Vocab) At(i int) string { return v.words.At(i) }

// count is how many records use w.
func (v *Vocab) count(w string) int {
	i, ok := v.words.Search(w)
	if !ok {
		return 0
	}
	return int(v.df[i])
}

// IDF weighs a word by how rare it is among records; unknown words weigh
// as much as the rarest.
func (v *Vocab) IDF(w string) float64 { return idf(v.n, v.count(w)) }

func idf(records, df int) float64 {
	return math.Log(1 + float64(records+1)/float64(df+1))
}

// levBuilders are the Levenshtein automaton builders for distances 1 and 2
// (with transpositions). They are immutable and costly to make, so they
// are made once per process.
var levBuilders = sync.OnceValues(func() ([2]*levenshtein.LevenshteinAutomatonBuilder, error) {
	var out [2]*levenshtein.LevenshteinAutomatonBuilder
	for d := range out {
		b, err := levenshtein.NewLevenshteinAutomatonBuilder(uint8(d+1), true)
		if err != nil {
			return out, err
		}
		out[d] = b
	}
	return out, nil
})

// MaxFuzzyTermBytes is the longest word typo correction is tried on: a
// longer one is a hash, base64 or a run of ideographs, not a misspelt
// word.
const MaxFuzzyTermBytes = 32

// maxEdits is how many wrong letters a word of n letters may have: none
// for short words, where one letter changes the word ("get"/"set"), one up
// to six letters, two beyond; none past MaxFuzzyTermBytes (hashes, base64),
// whose automata cost more than they can find.
func maxEdits(n int) int {
	switch {
	case n < 4 || n > MaxFuzzyTermBytes:
		return 0
	case n <= 6:
		return 1
	}
	return 2
}

// Nearest returns the known word closest to w within maxEdits(len(w)),
// preferring fewer edits, then the more common word. ok is false when
// nothing is near enough.
func (v *Vocab) Nearest(w string) (best string, dist int, ok bool) {
	d := maxEdits(len(w))
	if d == 0 {
		return "", 0, false
	}
	cands := v.Within(w, d)
	if len(cands) == 0 {
		return "", 0, false
	}
	best, dist = cands[0].Word, cands[0].Dist
	return best, dist, true
}

// NearWord is a known word near a query word: Dist edits away, used by
// DF records.
type NearWord struct {
	Word string
	Dist int
	DF   int
}

// Within lists known words within d edits of w, nearest and most common
// first.
func (v *Vocab) Within(w string, d int) []NearWord {
	if d < 1 || d > 2 {
		return nil
	}
	if !isASCIIString(w) {
		return v.withinDFA(w, d)
	}
	a := newEditAutomaton(w, d)
	defer a.put()
	it, err := v.fst.Search(a, nil, nil)
	var out []NearWord
	for err == nil && len(out) < 64 {
		k, df := it.Current()
		if string(k) != w {
			s := a.Start()
			for _, b := range k {
				s = a.Accept(s, b)
			}
			out = append(out, NearWord{Word: string(k), Dist: a.distance(s), DF: int(df)})
		}
		err = it.Next()
	}
	if err != nil && !errors.Is(err, vellum.ErrIteratorDone) {
		return nil
	}
	sortNear(out)
	return out
}

func isASCIIString(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// withinDFA is within with vellum's Levenshtein automaton, for words
// with non-ASCII letters.
func (v *Vocab) withinDFA(w string, d int) []NearWord {
	builders, err := levBuilders()
	if err != nil || d < 1 || d > 2 {
		return nil
	}
	dfa, err := builders[d-1].BuildDfa(w, uint8(d))
	if err != nil {
		return nil
	}
	it, err := v.fst.Search(dfa, nil, nil)
	var out []NearWord
	for err == nil && len(out) < 64 {
		k, df := it.Current()
		_, dist := dfa.MatchAndDistance(string(k))
		if string(k) != w {
			out = append(out, NearWord{Word: string(k), Dist: int(dist), DF: int(df)})
		}
		err = it.Next()
	}
	if err != nil && !errors.Is(err, vellum.ErrIteratorDone) {
		return nil
	}
	sortNear(out)
	return out
}

// sortNear orders words near a query word: fewer edits, then the more
// common, then alphabetically.
func sortNear(out []NearWord) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Dist != b.Dist {
			return a.Dist < b.Dist
		}
		if a.DF != b.DF {
			return a.DF > b.DF
		}
		return a.Word < b.Word
	})
}

// codeEdits is how many wrong letters a code of n characters may have and
// still be recognized.
func codeEdits(n int) int {
	switch {
	case n < 5:
		return 0
	case n <= 7:
		return 1
	}
	return 2
}

// NearCodes lists the codes and classes within a few edits of each of
// keys, as many as a code of the key's length may have wrong (see
// codeEdits), nearest and most common first for each key.
func (t *Tables) NearCodes(keys ...string) []NearWord {
	var near []NearWord
	seen := map[string]bool{}
	for _, key := range keys {
		d := codeEdits(len(key))
		if len(key) > MaxFuzzyTermBytes*2 {
			d = 0
		}
		if d == 0 || seen[key] {
			continue
		}
		seen[key] = true
		near = append(near, t.codes.Within(key, d)...)
	}
	return near
}
