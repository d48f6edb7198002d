package index

import (
	"fmt"
	"regexp"
	"strings"
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

// requiredIn reports whether tokens hold every required word of pattern
// mi.
func (ps *patternSet) requiredIn(mi int32, tokens map[string]bool) bool {
	for j := ps.reqOff[mi]; j < ps.reqOff[mi+1]; j++ {
		if !tokens[ps.req.at(int(j))] {
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
