package pattern

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Hit is the best pattern evidence for one record in one query.
type Hit struct {
	Weight    int  // literal letters and digits of the matching pattern
	Full      bool // the pattern matched a whole segment, not a part of one
	Whole     bool // the pattern matched the whole query
	Corrected bool // matched only after spelling correction
	// Bounded: the match starts and ends where a clause of the text does
	// (the segment's ends or punctuation such as ':' or a quote), so it is
	// not the first words of a longer message that happens to continue.
	Bounded bool
	// Stripped: found without the pattern's leading "name: " (the client's
	// "nats: " prefix), so Weight leaves that prefix out.
	Stripped bool
	// Text is the part of the segment the pattern spans, a trailing hole
	// taking in the rest of it: the decision tells by it whether one
	// record's message lies inside another's.
	Text string
}

// match returns the best pattern evidence per record (by Records index)
// for the segments of a query. Only matchers whose key word occurs among
// tokens, and whose every required word does, run their regexp, at most
// maxPatternRuns of them (see eligible).
func (ps *Set) Match(segments []string, tokens map[string]bool, corrected bool, into map[int32]Hit) {
	runs := 0
	try := func(mi int32) {
		runs++
		// A template ending in a hole ("snapshot failed: {err}") takes in
		// whatever text follows, though its lazy regexp stops after one
		// letter: found at a segment's start, it is the whole segment. (The
		// regexp may close a group after the hole; see Compile.)
		trailingHole := strings.HasSuffix(strings.TrimSuffix(ps.expr.At(int(mi)), ")"), lazyHole)
		for i, seg := range segments {
			re := ps.regexp(mi)
			if re == nil {
				return
			}
			loc := re.FindStringSubmatchIndex(seg)
			if loc == nil {
				continue
			}
			end := loc[1]
			if trailingHole {
				end = len(seg)
			}
			full := loc[0] == 0 && end == len(seg)
			rec := ps.rec[mi]
			openStart, openEnd := ps.open(mi)
			h := Hit{Weight: int(ps.weight[mi]), Full: full, Whole: full && i == 0, Corrected: corrected, Bounded: bounded(seg, loc[0], loc[1], openStart, openEnd), Text: seg[loc[0]:end]}
			if p := ps.prefix(mi); p > 0 && loc[2] < 0 {
				h.Weight -= p
				h.Stripped = true
			}
			if Better(h, into[rec]) {
				into[rec] = h
			}
		}
	}
	for _, mi := range ps.eligible(tokens) {
		if runs == maxPatternRuns {
			return
		}
		try(mi)
	}
	for _, mi := range ps.always {
		if runs < maxPatternRuns {
			try(mi)
		}
	}
}

// eligible lists the patterns keyed by one of tokens whose every required
// word tokens hold, heaviest first (most literal text, the evidence Better
// prefers), then in table order. When more than maxPatternRuns are
// eligible (a message many records share, at scale), the ones run are
// then the same from one query to the next, whatever order the tokens'
// map gives.
func (ps *Set) eligible(tokens map[string]bool) []int32 {
	var out []int32
	rw := ps.required()
	have := rw.numbers(tokens)
	for t := range tokens {
		for _, mi := range ps.byWord.Get(t) {
			if ps.requiredIn(mi, rw, have) {
				out = append(out, mi)
			}
		}
	}
	slices.SortFunc(out, func(a, b int32) int {
		if wa, wb := ps.weight[a], ps.weight[b]; wa != wb {
			return cmp.Compare(wb, wa)
		}
		return cmp.Compare(a, b)
	})
	return slices.Compact(out)
}

// bounded reports whether seg[start:end] is a clause of seg: at its ends,
// or with punctuation or a key=value pair between it and the text around
// it. A pattern that starts or ends with a hole is open at that end.
func bounded(seg string, start, end int, openStart, openEnd bool) bool {
	before := strings.TrimRight(seg[:start], " \t")
	after := strings.TrimLeft(seg[end:], " \t")
	// Before: punctuation, or a number (a status, a time or a pid).
	okBefore := openStart || before == "" || strings.ContainsAny(before[len(before)-1:], ":;,.!?()[]{}\"'`=|>-0123456789")
	// After: the end, punctuation (": cause" of a wrapped error) or
	// key=value pairs.
	okAfter := openEnd || after == "" || strings.ContainsAny(after[:1], ":;,.!?)]}\"'`|(-") || keyValueRE.MatchString(after)
	return okBefore && okAfter
}

var keyValueRE = regexp.MustCompile(`^[A-Za-z_][\w.\-]*=`)

// maxPatternRuns bounds how many patterns one query runs (those whose
// required words are all present), so a pasted page of messages costs
// milliseconds, not seconds.
const maxPatternRuns = 64

// Better orders pattern evidence: an uncorrected match beats a corrected
// one, then more literal text, then a whole-segment match.
func Better(a, b Hit) bool {
	if b.Weight == 0 {
		return a.Weight > 0
	}
	if a.Corrected != b.Corrected {
		return !a.Corrected
	}
	if a.Weight != b.Weight {
		return a.Weight > b.Weight
	}
	if a.Stripped != b.Stripped {
		return !a.Stripped
	}
	if a.Whole != b.Whole {
		return a.Whole
	}
	return a.Full && !b.Full
}
