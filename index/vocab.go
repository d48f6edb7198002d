package index

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/vellum"
	"github.com/blevesearch/vellum/levenshtein"
)

// vocab is the set of words errors are named with (message, pattern,
// code and class words), with how many records use each. It corrects
// typos: a word it does not know is replaced by the nearest word it does,
// within a bounded edit distance, found with a Levenshtein automaton over
// an FST of the words (the same machinery bleve's fuzzy queries use), so a
// correction costs microseconds, not a scan of every word.
type vocab struct {
	words strList  // sorted
	df    []uint32 // records using each word
	fst   *vellum.FST
	n     int // records, for IDF
}

// vocab reads the vocabulary written by writeVocab.
func (s *sections) vocab(name string, records int) *vocab {
	v := &vocab{words: s.strList(name), df: sectionSlice[uint32](s, name+".df"), n: records}
	data := s.section(name + ".fst")
	if s.err != nil {
		return v
	}
	if len(v.df) != v.words.len() {
		s.err = fmt.Errorf("lookup tables: vocabulary %s is damaged", name)
		return v
	}
	fst, err := vellum.Load(data)
	if err != nil {
		s.err = fmt.Errorf("lookup tables: vocabulary %s: %w", name, err)
		return v
	}
	v.fst = fst
	return v
}

// known reports whether w is a word of the vocabulary.
func (v *vocab) known(w string) bool {
	_, ok := v.words.search(w)
	return ok
}

// count is how many records use w.
func (v *vocab) count(w string) int {
	i, ok := v.words.search(w)
	if !ok {
		return 0
	}
	return int(v.df[i])
}

// idf weighs a word by how rare it is among records; unknown words weigh
// as much as the rarest.
func (v *vocab) idf(w string) float64 { return idf(v.n, v.count(w)) }

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

// maxEdits is how many wrong letters a word of n letters may have: none
// for short words, where one letter changes the word ("get"/"set"), one up
// to six letters, two beyond; none past maxFuzzyTermBytes (hashes, base64),
// whose automata cost more than they can find.
func maxEdits(n int) int {
	switch {
	case n < 4 || n > maxFuzzyTermBytes:
		return 0
	case n <= 6:
		return 1
	}
	return 2
}

// nearest returns the known word closest to w within maxEdits(len(w)),
// preferring fewer edits, then the more common word. ok is false when
// nothing is near enough.
func (v *vocab) nearest(w string) (best string, dist int, ok bool) {
	d := maxEdits(len(w))
	if d == 0 {
		return "", 0, false
	}
	cands := v.within(w, d)
	if len(cands) == 0 {
		return "", 0, false
	}
	best, dist = cands[0].word, cands[0].dist
	return best, dist, true
}

// fuzzyWord is a known word near a query word.
type fuzzyWord struct {
	word string
	dist int
	df   int
}

// within lists known words within d edits of w, nearest and most common
// first.
func (v *vocab) within(w string, d int) []fuzzyWord {
	if d < 1 || d > 2 {
		return nil
	}
	if !isASCIIString(w) {
		return v.withinDFA(w, d)
	}
	a := newEditAutomaton(w, d)
	defer a.put()
	it, err := v.fst.Search(a, nil, nil)
	var out []fuzzyWord
	for err == nil && len(out) < 64 {
		k, df := it.Current()
		if string(k) != w {
			s := a.Start()
			for _, b := range k {
				s = a.Accept(s, b)
			}
			out = append(out, fuzzyWord{word: string(k), dist: a.distance(s), df: int(df)})
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
func (v *vocab) withinDFA(w string, d int) []fuzzyWord {
	builders, err := levBuilders()
	if err != nil || d < 1 || d > 2 {
		return nil
	}
	dfa, err := builders[d-1].BuildDfa(w, uint8(d))
	if err != nil {
		return nil
	}
	it, err := v.fst.Search(dfa, nil, nil)
	var out []fuzzyWord
	for err == nil && len(out) < 64 {
		k, df := it.Current()
		_, dist := dfa.MatchAndDistance(string(k))
		if string(k) != w {
			out = append(out, fuzzyWord{word: string(k), dist: int(dist), df: int(df)})
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
func sortNear(out []fuzzyWord) {
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.df != b.df {
			return a.df > b.df
		}
		return a.word < b.word
	})
}
