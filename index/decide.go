package index

import (
	"slices"
	"strings"

	"github.com/errkb/errkb"
)

// The decide stage: ranked []*evidence -> a confident match or none. A
// lookup redirects only when the first record's strongest evidence names
// one error and no other record's evidence is as strong.

// Evidence tiers, weakest first. Only tierCorrected and above can make a
// lookup confident.
const (
	tierNone = iota
	tierText
	tierCorrected // the message, found after correcting typos
	tierNearCode  // a code or class a letter or two away
	tierPattern   // the message, found as typed
	tierName      // the record's code, class or a code identifier
	tierID        // the record's id
)

// minPatternWeight is how many literal letters a pattern must pin down to
// identify a record inside a longer text; shorter ones ("not found")
// occur by chance. A pattern that is the whole query needs fewer.
const (
	minPatternWeight      = 10
	minWholePatternWeight = 4
	minCorrectedWeight    = 12
)

// tier ranks the strongest evidence for one record, with a strength that
// orders records within the tier.
func (e *evidence) tier() (tier, strength int) {
	p := e.pattern
	switch {
	case e.id:
		return tierID, 0
	case e.code > 0 || e.class > 0 || e.keyedIdent:
		// Naming the record by code and class at once is stronger than by
		// either: a JSON log's "type" may be a shared class while its
		// "code" is the record's own. An identifier only this record uses
		// ("zip.ErrChecksum" beside zlib's ErrChecksum) adds to either.
		return tierName, e.code + e.class + boolInt(e.keyedIdent)
	case p.weight > 0 && !p.corrected && (p.bounded && p.weight >= minPatternWeight || p.whole && p.weight >= minWholePatternWeight):
		// A message found as typed is stronger found with its client
		// prefix than without.
		return tierPattern, 2*p.weight + boolInt(!p.stripped)
	case e.nearCode > 0:
		return tierNearCode, -e.nearCode
	case p.corrected && p.weight >= minCorrectedWeight:
		return tierCorrected, p.weight
	case e.text > 0:
		return tierText, 0
	}
	return tierNone, 0
}

// decide returns the first hit when it clearly identifies the error:
// its tier is tierCorrected or above, it is first in the ranking, and no
// other record has evidence of the same tier and strength or more. A code
// naming one record while the message found names another with more text
// is a conflict, not a match.
func (ix *Index) decide(a *candidates, ranked []*evidence) (*evidence, string) {
	if len(ranked) == 0 {
		return nil, ""
	}
	c := ranked[0]
	t1, s1 := c.tier()
	if t1 < tierCorrected {
		return nil, ""
	}
	m1 := c.messageWeight()
	byMessage := t1 == tierPattern // the message found decides
	for _, e := range a.found {
		if e == c {
			continue
		}
		t, s := e.tier()
		switch {
		case t > t1, t == t1 && s > s1:
			return nil, ""
		case t == t1 && s == s1 && (t != tierName || e.messageWeight() >= m1):
			// A shared code is told apart only by the message found
			// beside it ("code":40021 with the message of one of them).
			return nil, ""
		case t1 >= tierName && t == tierPattern && e.pattern.weight > c.pattern.weight:
			return nil, ""
		case t == t1 && t == tierName:
			byMessage = true
		}
	}
	if byMessage && (ix.insideAnother(c, a.u.segments, a.found) || !c.pattern.whole && ix.heldAround(c, a.u.segments, ranked)) {
		return nil, ""
	}
	reason := c.reason(t1)
	if t1 == tierName && m1 > 0 {
		reason += " and message"
	}
	return c, reason
}

// A message found in part of a segment is the error of the whole line
// only when nothing else in the evidence says the line is another error
// that holds it. Two cases are not the one error the message names:
//
//   - insideAnother: another record's message, found as typed, spans a
//     longer part of the text that holds this one's (a trailing hole
//     taking in the rest of its segment), so this message is a value in
//     one of its holes ("snapshot failed: {err}" filled with "permission
//     denied"). The line is two errors, the outer one as raised and
//     this one as its cause; unless the dataset declares the wrap (then the
//     wrapping record's message, filled in, is found whole and pins down
//     more text), neither is the answer alone, and search shows both.
//   - heldAround: another record holds this one's message (wraps it with
//     %w, as the dataset declares, or spells it out inside a longer
//     message), its words explain more of the text than this record's,
//     and the text goes on from this message with the words that record
//     has there, though its own message was not found as typed: the line
//     is that record's text with a value or a typo in it ("invalid mapping
//     destination: the only mapping function allowed for import transforms
//     is eu-west", where the wrapping record prints a literal
//     "{{Wildcard()}}"), or the text is a run of that record's message
//     that this one's is only a part of ("using invalid connection" inside
//     "... using invalid connection type"). Words of a log line's context
//     that an unrelated record happens to share say nothing either way.
//
// The outer match counts only from a record whose holes take any value: a record that declares the one error its %w wraps prints only
// that, and is found by its filled-in message (see wrappedText). Nor does
// one whose literal text this record's message spells out ("%w: invalid
// subject" inside "sublist: invalid subject"), which is found inside it.
func (ix *Index) insideAnother(c *evidence, segments []string, found map[int32]*evidence) bool {
	inner := ix.ds.Records[c.rec]
	for _, e := range found {
		if e == c || e.pattern.corrected || !spansOver(e.pattern.text, c.pattern.text, segments) {
			continue
		}
		outer := ix.ds.Records[e.rec]
		if t, _ := e.tier(); t == tierPattern && len(outer.Wraps) == 0 && !spellsOut(inner, outer) {
			return true
		}
	}
	return false
}

// spansOver reports whether outer, a matched text, holds inner and more,
// or starts before inner and ends inside it: a hole followed by literal
// text ("'%s'") stops at the first place that text occurs, which may be
// inside the message filling the hole.
func spansOver(outer, inner string, segments []string) bool {
	if inner == "" || outer == inner {
		return false
	}
	return strings.Contains(outer, inner) || overlapAtEnd(outer, inner, segments)
}

// overlapAtEnd reports whether outer ends with the start of inner, a word
// or more of it, and begins before it: the two overlap that way in one of
// the segments. Only the last maxOverlap bytes are tried, so a pasted page
// costs no more than a line.
func overlapAtEnd(outer, inner string, segments []string) bool {
	for k := min(len(outer)-1, len(inner)-1, maxOverlap); k > 0; k-- {
		if strings.HasSuffix(outer, inner[:k]) {
			// The longest overlap only: it is the one the texts share.
			joined := outer[:len(outer)-k] + inner
			return alnumCount(inner[:k]) >= minWholePatternWeight && slices.ContainsFunc(segments, func(seg string) bool { return strings.Contains(seg, joined) })
		}
	}
	return false
}

const maxOverlap = 256

// spellsOut reports whether every literal run of b's message, without a
// leading client prefix, is in a's message, in order.
func spellsOut(a, b *errkb.Record) bool {
	pieces := templatePieces(b.ErrorMessage)
	if _, rest, ok := clientPrefix(pieces); ok {
		pieces = rest
	}
	msg := strings.ToLower(strings.Join(strings.Fields(a.ErrorMessage), " "))
	n := 0
	for _, pc := range pieces {
		lit := strings.ToLower(strings.TrimSpace(pc.lit))
		if pc.hole || alnumCount(lit) == 0 {
			continue
		}
		i := strings.Index(msg, lit)
		if i < 0 {
			return false
		}
		msg, n = msg[i+len(lit):], n+alnumCount(lit)
	}
	return n > 0
}

func (ix *Index) heldAround(c *evidence, segments []string, ranked []*evidence) bool {
	inner := ix.ds.Records[c.rec]
	before, after := continuations(segments, inner)
	if len(before)+len(after) == 0 {
		return false
	}
	for _, e := range ranked {
		if e != c && e.explained() >= c.explained()-1e-9 && continuedBy(before, after, ix.ds.Records[e.rec], inner) {
			return true
		}
	}
	return false
}

// mayBeHeld reports whether a record found by text search alone could
// make heldAround refuse c: c was found by part of the text, and the text
// goes on from its message. Identify, which asks no text search, leaves
// such lines to Lookup.
func (ix *Index) mayBeHeld(c *evidence, u *understood) bool {
	if c.pattern.whole || c.pattern.weight == 0 {
		return false
	}
	before, after := continuations(u.segments, ix.ds.Records[c.rec])
	return len(before)+len(after) > 0
}

// continuations are the words the text has right before and right after
// the longest literal run of inner's message, wherever the run occurs in
// the segments, leaving out the words inner's own message has there
// ("nats" before "invalid subscription" of "nats: invalid
// subscription"). A word before counts only when white space or a key's
// '=' is all that lies between ("using invalid connection",
// "description=consumer already exists"): context a log line prints
// before a message is set off with ": ".
func continuations(segments []string, inner *errkb.Record) (before, after []string) {
	run := longestLiteral(inner.ErrorMessage)
	if len(run) == 0 {
		return nil, nil
	}
	ownBefore, ownAfter := around(templateWords(inner, nil), run)
	for _, seg := range segments {
		spans := wordSpans(seg)
		words := make([]string, len(spans))
		for i, sp := range spans {
			words[i] = strings.ToLower(seg[sp[0]:sp[1]])
		}
		for _, k := range runsOf(words, run) {
			b, a := neighbours(words, k, len(run))
			if continues(b, ownBefore) && strings.Trim(seg[spans[k-1][1]:spans[k][0]], " \t=") == "" {
				before = append(before, b)
			}
			if continues(a, ownAfter) {
				after = append(after, a)
			}
		}
	}
	return before, after
}

// continues reports whether w, a word of the text next to a message,
// may be the text of a longer message: not the message's own word there,
// nor the value of a hole it has there, nor a value itself (a word with a
// digit: an id, a count, a pid).
func continues(w string, own []string) bool {
	return w != "" && !slices.Contains(own, w) && !slices.Contains(own, hole) && !strings.ContainsAny(w, "0123456789")
}

// hole stands for a hole among a template's words.
const hole = "*"

// continuedBy reports whether outer's message goes on from inner's
// longest literal run (or from inner, when outer wraps it with %w, as the
// dataset declares) with one of the words the text has there.
func continuedBy(before, after []string, outer, inner *errkb.Record) bool {
	run := longestLiteral(inner.ErrorMessage)
	seq := templateWords(outer, inner)
	for _, i := range runsOf(seq, run) {
		b, a := neighbours(seq, i, len(run))
		for _, w := range before {
			if b != "" && b != hole && sameWord(w, b) {
				return true
			}
		}
		for _, w := range after {
			if a != "" && a != hole && sameWord(w, a) {
				return true
			}
		}
	}
	return false
}

// templateWords are the words of r's message; a hole is hole, or the words of
// wrapped's longest literal run when r wraps that record with %w.
func templateWords(r, wrapped *errkb.Record) []string {
	var seq []string
	wraps := wrapped != nil && slices.Contains(r.Wraps, wrapped.ID)
	for _, pc := range templatePieces(r.ErrorMessage) {
		switch {
		case pc.hole && pc.lit == "%w" && wraps:
			seq = append(seq, longestLiteral(wrapped.ErrorMessage)...)
		case pc.hole:
			seq = append(seq, hole)
		default:
			seq = append(seq, wordsOf(pc.lit)...)
		}
	}
	return seq
}

// around lists the words right before and right after each occurrence of
// run in seq.
func around(seq, run []string) (before, after []string) {
	for _, i := range runsOf(seq, run) {
		b, a := neighbours(seq, i, len(run))
		before, after = append(before, b), append(after, a)
	}
	return before, after
}

// neighbours are the words right before and right after seq[i:i+n], or
// "" at an end.
func neighbours(seq []string, i, n int) (before, after string) {
	if i > 0 {
		before = seq[i-1]
	}
	if i+n < len(seq) {
		after = seq[i+n]
	}
	return before, after
}

// sameWord reports whether a word of the text is w, or w with one typo
// when w is long enough (5 letters or more) for one edit not to make
// another word.
func sameWord(typed, w string) bool {
	return typed == w || len(w) >= 5 && editDistance(typed, w) <= 1
}

// editDistance is the Levenshtein distance between two short words.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// longestLiteral is the words of the longest literal run of a message,
// without a leading client prefix ("nats: ").
func longestLiteral(msg string) []string {
	pieces := templatePieces(msg)
	if _, rest, ok := clientPrefix(pieces); ok {
		pieces = rest
	}
	var best []string
	for _, pc := range pieces {
		if w := wordsOf(pc.lit); !pc.hole && len(w) > len(best) {
			best = w
		}
	}
	return best
}

// runsOf returns where run occurs in words.
func runsOf(words, run []string) []int {
	var out []int
	for i := 0; i+len(run) <= len(words); i++ {
		if slices.Equal(words[i:i+len(run)], run) {
			out = append(out, i)
		}
	}
	return out
}

// explained is the part of the word cover that measures how much of the
// query the record's message and names explain (see textCover).
func (e *evidence) explained() float64 { return e.text - e.textLen }

// messageWeight is the literal text of the record's pattern found as typed,
// or 0 when that is too little to count.
func (e *evidence) messageWeight() int {
	if e.code == 2 || e.class == 2 {
		return 0 // the query is the name; its words are not a message
	}
	if p := e.pattern; !p.corrected && (p.bounded && p.weight >= minPatternWeight || p.whole && p.weight >= minWholePatternWeight) {
		return p.weight
	}
	return 0
}

func (e *evidence) reason(tier int) string {
	switch tier {
	case tierID:
		return "id"
	case tierName:
		switch {
		case e.code > 0:
			return "code"
		case e.class > 0:
			return "class"
		}
		return "identifier"
	case tierPattern:
		if e.pattern.whole {
			return "message"
		}
		return "message in text"
	case tierNearCode:
		return "near code"
	}
	return "corrected message"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
