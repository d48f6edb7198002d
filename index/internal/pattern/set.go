package pattern

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/errkb/errkb/index/internal/tabfile"
)

// Set holds every record's compiled patterns, as the lookup tables lay
// them out (see Columns), with a word index over them. A pattern's regexp
// is compiled the first time a query holds all its required words: a
// compiled regexp weighs about 2.4 KB and most patterns never run.
type Set struct {
	rec    []int32 // the record of each pattern
	weight []int32 // literal letters and digits a match must contain
	// prefixW is the weight of a leading "name: " a match may leave out
	// (see ClientPrefix); 0 when the pattern has none.
	prefixW []int32
	// ends holds StartOpenBit and EndOpenBit: whether the pattern may be
	// found with words right before or after it (see Compiled and
	// bounded).
	ends    []int32
	expr    tabfile.Strings
	req     tabfile.Strings // required words of all patterns, in a row
	reqOff  []uint32        // pattern i's required words are req[reqOff[i]:reqOff[i+1]]
	byWord  tabfile.Postings
	always  []int32 // patterns with weight but no whole required word
	regexps []atomic.Pointer[regexp.Regexp]

	wordsOnce sync.Once
	words     *reqNumbers // see required
}

// Columns are a Set as the lookup tables store it, a column per field,
// pattern i's values at position i of each: its record, Weight, Prefix,
// ends (StartOpenBit, EndOpenBit), Expr and Required words (Req from
// ReqOff[i] to ReqOff[i+1]). ByWord lists the patterns under one of their
// required words, the rarest, and Always those that have none.
type Columns struct {
	Rec, Weight, Prefix, Ends []int32
	Expr, Req                 tabfile.Strings
	ReqOff                    []uint32
	ByWord                    tabfile.Postings
	Always                    []int32
}

// Bits of Columns.Ends.
const (
	StartOpenBit = 1 << iota
	EndOpenBit
)

// NewSet checks the columns c against each other and against the number
// of records, so that a damaged file is refused rather than read out of
// range, and returns the set they hold.
func NewSet(c Columns, records int) (*Set, error) {
	n := len(c.Rec)
	if len(c.Weight) != n || len(c.Prefix) != n || len(c.Ends) != n || c.Expr.Len() != n || !tabfile.ValidOffsets(c.ReqOff, n, c.Req.Len()) ||
		!tabfile.AllBelow(c.ByWord.IDs, n) || !tabfile.AllBelow(c.Always, n) {
		return nil, errors.New("lookup tables: patterns are damaged")
	}
	if !tabfile.AllBelow(c.Rec, records) {
		return nil, errors.New("lookup tables: a record number is out of range")
	}
	return &Set{
		rec: c.Rec, weight: c.Weight, prefixW: c.Prefix, ends: c.Ends, expr: c.Expr, req: c.Req, reqOff: c.ReqOff,
		byWord: c.ByWord, always: c.Always, regexps: make([]atomic.Pointer[regexp.Regexp], n),
	}, nil
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
func (ps *Set) required() *reqNumbers {
	ps.wordsOnce.Do(func() {
		rw := &reqNumbers{number: map[string]uint32{}, req: make([]uint32, ps.req.Len())}
		for i := range rw.req {
			w := ps.req.At(i)
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
// Parse's checks make impossible in practice).
var never = regexp.MustCompile(`^\b\B$`)

// prefix is the weight of pattern mi's optional leading "name: ".
func (ps *Set) prefix(mi int32) int { return int(ps.prefixW[mi]) }

// open reports whether pattern mi may be found with words right before
// it (openStart) or after it (openEnd).
func (ps *Set) open(mi int32) (openStart, openEnd bool) {
	return ps.ends[mi]&StartOpenBit != 0, ps.ends[mi]&EndOpenBit != 0
}

// requiredIn reports whether have, the numbers of a query's tokens (see
// reqNumbers.numbers), hold every required word of pattern mi.
func (ps *Set) requiredIn(mi int32, rw *reqNumbers, have []uint32) bool {
	for _, n := range rw.req[ps.reqOff[mi]:ps.reqOff[mi+1]] {
		if _, ok := slices.BinarySearch(have, n); !ok {
			return false
		}
	}
	return true
}

// regexp is pattern mi's compiled regexp, or nil if it does not compile.
// It is safe to call from any goroutine.
func (ps *Set) regexp(mi int32) *regexp.Regexp {
	re := ps.regexps[mi].Load()
	if re == nil {
		var err error
		if re, err = regexp.Compile(strings.Clone(ps.expr.At(int(mi)))); err != nil {
			re = never
		}
		ps.regexps[mi].Store(re)
	}
	if re == never {
		return nil
	}
	return re
}
