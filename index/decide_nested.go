package index

import (
	"slices"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
)

// Part of the decide stage: whether a message found in part of the text
// is the line's error, or sits inside another record's text (see decide).
// These rules read the evidence, the query's segments and the records;
// the helpers that split a template into words are packages pattern's
// and lex's pure functions, not calls into earlier stages.

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
		if e == c || !spansOver(e.pattern.Text, c.pattern.Text, segments) {
			continue
		}
		// A wrapper found after correcting typos is a wrapper still.
		outer := ix.ds.Records[e.rec]
		if t, _ := e.tier(); (t == tierPattern || t == tierCorrected) && len(outer.Wraps) == 0 && !spellsOut(inner, outer) {
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
			return lex.AlnumCount(inner[:k]) >= pattern.MinWholeWeight && slices.ContainsFunc(segments, func(seg string) bool { return strings.Contains(seg, joined) })
		}
	}
	return false
}

const maxOverlap = 256

// spellsOut reports whether every literal run of b's message, without a
// leading client prefix, is in a's message, in order.
func spellsOut(a, b *errkb.Record) bool {
	pieces := pattern.TemplatePieces(b.ErrorMessage)
	if _, rest, ok := pattern.ClientPrefix(pieces); ok {
		pieces = rest
	}
	msg := strings.ToLower(strings.Join(strings.Fields(a.ErrorMessage), " "))
	n := 0
	for _, pc := range pieces {
		lit := strings.ToLower(strings.TrimSpace(pc.Lit))
		if pc.Hole || lex.AlnumCount(lit) == 0 {
			continue
		}
		i := strings.Index(msg, lit)
		if i < 0 {
			return false
		}
		msg, n = msg[i+len(lit):], n+lex.AlnumCount(lit)
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
	// A record that declares it wraps this one explains the text around
	// it, however few its own words are, and whether or not the text
	// search found it.
	for _, id := range inner.WrappedBy {
		if outer, ok := ix.ds.ByID(id); ok && outer != inner && continuedBy(before, after, outer, inner) {
			return true
		}
	}
	return false
}

// mayBeHeld reports whether a record found by text search alone could
// make heldAround refuse c: c was found by part of the text, and the text
// goes on from its message. LookupLine, which asks no text search, leaves
// such lines to Lookup.
func (ix *Index) mayBeHeld(c *evidence, u *understood) bool {
	if c.pattern.Whole || c.pattern.Weight == 0 {
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
		spans := lex.WordSpans(seg)
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
	for _, pc := range pattern.TemplatePieces(r.ErrorMessage) {
		switch {
		case pc.Hole && pc.Lit == "%w" && wraps:
			seq = append(seq, longestLiteral(wrapped.ErrorMessage)...)
		case pc.Hole:
			seq = append(seq, hole)
		default:
			seq = append(seq, lex.Words(pc.Lit)...)
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
	pieces := pattern.TemplatePieces(msg)
	if _, rest, ok := pattern.ClientPrefix(pieces); ok {
		pieces = rest
	}
	var best []string
	for _, pc := range pieces {
		if w := lex.Words(pc.Lit); !pc.Hole && len(w) > len(best) {
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
