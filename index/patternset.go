package index

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// patternSet holds every record's compiled patterns (see writePatterns),
// with a word index over them. A pattern's regexp is compiled the first
// time a query holds all its required words: a compiled regexp weighs
// about 2.4 KB and most patterns never run.
type patternSet struct {
	rec    []int32 // the record of each pattern
	weight []int32 // literal letters and digits a match must contain
	// prefixW is the weight of a leading "name: " a match may leave out
	// (see clientPrefix); 0 when the pattern has none.
	prefixW []int32
	// ends holds openStart (bit 0) and openEnd (bit 1): whether the
	// pattern may be found with words right before or after it (see
	// compiledPattern and bounded).
	ends    []int32
	expr    strList
	req     strList  // required words of all patterns, in a row
	reqOff  []uint32 // pattern i's required words are req[reqOff[i]:reqOff[i+1]]
	byWord  postingList
	always  []int32 // patterns with weight but no whole required word
	regexps []atomic.Pointer[regexp.Regexp]

	wordsOnce sync.Once
	words     *reqNumbers // see required
}

// reqNumbers numbers the patterns' required words, so that a query
// checks a pattern's words against the few numbers of its own tokens
// instead of hashing each word into the tokens' map: at 100,000 records
// a query checks thousands of patterns keyed by its words.
type reqNumbers struct {
	number map[string]uint32 // word -> its number
	req    []uint32          // the numbers of req, in its order
}

// required returns the numbered required words, made on the first query
// that matches patterns (a few hundredths of a second and 4 bytes per
// required word at 100,000 records).
func (ps *patternSet) required() *reqNumbers {
	ps.wordsOnce.Do(func() {
		rw := &reqNumbers{number: map[string]uint32{}, req: make([]uint32, ps.req.len())}
		for i := range rw.req {
			w := ps.req.at(i)
			n, ok := rw.number[w]
			if !ok {
				n = uint32(len(rw.number))
				rw.number[strings.Clone(w)] = n
			}
			rw.req[i] = n
		}
		ps.words = rw
	})
	return ps.words
}

// numbers returns the sorted numbers of the tokens that are required
// words of some pattern.
func (rw *reqNumbers) numbers(tokens map[string]bool) []uint32 {
	var out []uint32
	for t := range tokens {
		if n, ok := rw.number[t]; ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// never stands for a pattern whose regexp does not compile (which
// parsePattern's checks make impossible in practice).
var never = regexp.MustCompile(`^\b\B$`)

func (s *sections) patternSet() *patternSet {
	ps := &patternSet{
		rec:     sectionSlice[int32](s, "patterns.rec"),
		weight:  sectionSlice[int32](s, "patterns.weight"),
		prefixW: sectionSlice[int32](s, "patterns.prefix"),
		ends:    sectionSlice[int32](s, "patterns.ends"),
		expr:    s.strList("patterns.expr"),
		req:     s.strList("patterns.req"),
		reqOff:  sectionSlice[uint32](s, "patterns.reqoff"),
		byWord:  s.postings("patterns.byword"),
		always:  sectionSlice[int32](s, "patterns.always"),
	}
	n := len(ps.rec)
	if s.err == nil && (len(ps.weight) != n || len(ps.prefixW) != n || len(ps.ends) != n || ps.expr.len() != n || !validOffsets(ps.reqOff, n, ps.req.len()) ||
		!allBelow(ps.byWord.ids, n) || !allBelow(ps.always, n)) {
		s.err = fmt.Errorf("lookup tables: patterns are damaged")
	}
	ps.regexps = make([]atomic.Pointer[regexp.Regexp], n)
	return ps
}

// prefix is the weight of pattern mi's optional leading "name: ".
func (ps *patternSet) prefix(mi int32) int { return int(ps.prefixW[mi]) }

// open reports whether pattern mi may be found with words right before
// it (openStart) or after it (openEnd).
func (ps *patternSet) open(mi int32) (openStart, openEnd bool) {
	return ps.ends[mi]&openStartBit != 0, ps.ends[mi]&openEndBit != 0
}

const (
	openStartBit = 1 << iota
	openEndBit
)

// requiredIn reports whether have, the numbers of a query's tokens (see
// reqNumbers.numbers), hold every required word of pattern mi.
func (ps *patternSet) requiredIn(mi int32, rw *reqNumbers, have []uint32) bool {
	for _, n := range rw.req[ps.reqOff[mi]:ps.reqOff[mi+1]] {
		if _, ok := slices.BinarySearch(have, n); !ok {
			return false
		}
	}
	return true
}

// regexp is pattern mi's compiled regexp, or nil if it does not compile.
// It is safe to call from any goroutine.
func (ps *patternSet) regexp(mi int32) *regexp.Regexp {
	re := ps.regexps[mi].Load()
	if re == nil {
		var err error
		if re, err = regexp.Compile(strings.Clone(ps.expr.at(int(mi)))); err != nil {
			re = never
		}
		ps.regexps[mi].Store(re)
	}
	if re == never {
		return nil
	}
	return re
}
