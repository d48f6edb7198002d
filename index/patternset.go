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
	rec     []int32 // the record of each pattern
	weight  []int32 // literal letters and digits a match must contain
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
		rec:    sectionSlice[int32](s, "patterns.rec"),
		weight: sectionSlice[int32](s, "patterns.weight"),
		expr:   s.strList("patterns.expr"),
		req:    s.strList("patterns.req"),
		reqOff: sectionSlice[uint32](s, "patterns.reqoff"),
		byWord: s.postings("patterns.byword"),
		always: sectionSlice[int32](s, "patterns.always"),
	}
	n := len(ps.rec)
	if s.err == nil && (len(ps.weight) != n || ps.expr.len() != n || !validOffsets(ps.reqOff, n, ps.req.len()) ||
		!allBelow(ps.byWord.ids, n) || !allBelow(ps.always, n)) {
		s.err = fmt.Errorf("lookup tables: patterns are damaged")
	}
	ps.regexps = make([]atomic.Pointer[regexp.Regexp], n)
	return ps
}

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
