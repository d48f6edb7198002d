package index

import (
	"slices"
	"strings"
	"unicode"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
)

// Part of the decide stage: the rules that keep a lookup from being
// confidently wrong when the first record fits the text but does not
// explain it. Each reads the evidence and the records only.
//
//   - A code that only spells the words of its own message (a call site's
//     MESSAGE_WORDS code, made from the message) names nothing the
//     message does not: found as a piece of a longer text it is a few
//     of the text's words, not a name (see decisiveTier).
//   - Another record explains more of the text: its message and names
//     hold more of the text's words, weighed by rarity, than the first
//     record's do. The first record then fits the text through its holes
//     or a few of its words ("internal error: %v" for "internal error:
//     counter out of range", an identifier "proto.Message" inside another
//     error's message), and the text is not its error alone (see
//     explainedBetter).
//   - A record that wraps the first one was found too: the text is the
//     wrapping error (see wrappedByFound).
//   - The text goes on from the message, across punctuation too, with the
//     words another record's message has there (see extendedByAnother).
//   - The message sits in a hole of a pattern too weak to answer itself
//     (see insideWeak).
//   - The text goes on from the message in the same clause (see goesOn).
//   - Another record's message holds the text as typed and c's does not,
//     and the text is not c's name (see spelledByAnother).
//   - The pattern's fixed words are few for its holes ("%s %s failed%s:
//     %s (%v)", "json.Unmarshal(%v): %v"): the text fits it mostly
//     through values, which any log line of the user's own may hold (see
//     fewFixedWords). The message of an error a log line wraps in its
//     last hole is not values (see wrappedTail).

// unexplained reports whether c, first with evidence of tier t1, fits the
// text without explaining it (any of the rules above). byMessage: the
// message found decides, not a name.
func (ix *Index) unexplained(a *candidates, c *evidence, t1 int, byMessage bool, ranked []*evidence) bool {
	return ix.explainedBetter(a, c, t1, byMessage, ranked) ||
		ix.wrappedByFound(c, a.found) ||
		byMessage && ix.extendedByAnother(c, a.u.segments, ranked) ||
		t1 == tierPattern && ix.fewFixedWords(c, a.found) ||
		byMessage && ix.insideWeak(c, a.u.segments, a.found) ||
		byMessage && goesOn(c, a.u.raw, a.u.segments) ||
		t1 < tierName && ix.spelledByAnother(c, a.u.raw)
}

// spelledByAnother reports whether another record's message holds the
// whole text as typed, case and punctuation kept, and c's does not: the
// text is a piece of that message ("'Invalid Subscription'" of "-ERR
// 'Invalid Subscription'", "seal Stream" of "could not seal Stream"),
// whatever c's code or folded words fit. The text search may not have
// ranked that record (its words are common), so every record is read; a
// text longer than maxSpelled is no piece of a message.
func (ix *Index) spelledByAnother(c *evidence, raw string) bool {
	if len(raw) > maxSpelled || lex.AlnumCount(raw) == 0 || strings.Contains(ix.ds.Records[c.rec].ErrorMessage, raw) {
		return false
	}
	for _, r := range ix.ds.Records {
		if len(r.ErrorMessage) >= len(raw) && strings.Contains(r.ErrorMessage, raw) {
			return true
		}
	}
	return false
}

// maxSpelled bounds the texts spelledByAnother reads the dataset for.
const maxSpelled = 120

// shortMessage is how many fixed letters make a message long enough to
// be the error of a line that goes on after it ("timed out flushing
// widgets to disk after 30s").
const shortMessage = 20

// goesOn reports whether the text goes on, in the same clause, from where
// c's message, short or found without its own prefix, ends: a word follows after a space
// ("no such file" in "open /x: no such file or directory"). c's message
// is then the first words of a longer message the dataset may not hold,
// not the error of the line. A key ("dir=/x") or a value after the
// message is context, not more message. The text as pasted decides where
// it holds the message: a line break (a panic's trace) ends the clause.
func goesOn(c *evidence, raw string, segments []string) bool {
	span := c.pattern.Text
	if c.pattern.Whole || span == "" || !c.pattern.Stripped && c.pattern.Weight >= shortMessage {
		return false
	}
	if strings.Contains(raw, span) {
		segments = []string{raw}
	}
	for _, seg := range segments {
		for off := 0; ; {
			i := strings.Index(seg[off:], span)
			if i < 0 {
				break
			}
			rest := seg[off+i+len(span):]
			if wordFollows(rest) {
				return true
			}
			off += i + 1
		}
	}
	return false
}

// wordFollows reports whether rest starts with a space and a word of
// letters: not a key ("query_id=9c1e", "dir:"), a call or a value with a
// digit.
func wordFollows(rest string) bool {
	if !strings.HasPrefix(rest, " ") {
		return false
	}
	tok, _, _ := strings.Cut(rest[1:], " ")
	if tok == "" || !unicode.IsLetter([]rune(tok)[0]) {
		return false
	}
	return !strings.ContainsAny(tok, "=:[(_0123456789")
}

// insideWeak reports whether c's message sits in a hole of another
// record's pattern found as typed, though with too few fixed letters to
// be an answer itself ("rollback %s: %w" around "permission denied") or
// found beside a code that only spells its message: the text may be that
// error wrapping c's, and c alone does not say which.
func (ix *Index) insideWeak(c *evidence, segments []string, found map[int32]*evidence) bool {
	inner := ix.ds.Records[c.rec]
	for _, e := range found {
		if e == c || e.pattern.Corrected || e.pattern.Weight < pattern.MinWholeWeight || !spansOver(e.pattern.Text, c.pattern.Text, segments) {
			continue
		}
		if !spellsOut(inner, ix.ds.Records[e.rec]) {
			return true
		}
	}
	return false
}

// decisiveTier is e's tier, leaving out a code that spells its own
// message's words when the code is only a piece of the text or a few
// letters away from it ("Parse Error [" is near PARSE_ERROR, the code of
// "parse error: '%s'", and holds the words of many messages).
func (ix *Index) decisiveTier(a *candidates, e *evidence) (tier, strength int) {
	derivedCode := e.code == 1 || e.code == 0 && e.nearCode > 0
	if derivedCode && e.class == 0 && !e.id && !e.keyedIdent && ix.spellsOwnMessage(ix.ds.Records[e.rec]) && !writesCode(a.u.chunks, ix.ds.Records[e.rec].ErrorCode) {
		d := *e
		d.code, d.nearCode = 0, 0
		return d.tier()
	}
	return e.tier()
}

// writesCode reports whether a chunk of the text holds code as code is
// written, in its case and with its underscores, so that the text names
// it rather than saying its words ("errors.Is(err, pkg.PARSE_ERROR)", not
// "Parse Error [").
func writesCode(chunks []string, code string) bool {
	for _, ch := range chunks {
		if i := strings.Index(ch, code); i >= 0 && !wordByte(ch, i-1) && !wordByte(ch, i+len(code)) {
			return true
		}
	}
	return false
}

// wordByte reports whether s[i] is a letter, digit or underscore.
func wordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// spellsOwnMessage reports whether every word of r's code is a word of
// the literal text of its message.
func (ix *Index) spellsOwnMessage(r *errkb.Record) bool {
	code := lex.Words(r.ErrorCode)
	if len(code) == 0 {
		return false
	}
	msg := literalWords(r.ErrorMessage)
	for _, w := range code {
		if !slices.Contains(msg, w) {
			return false
		}
	}
	return true
}

// explainedBetter reports whether a record other than c explains more of
// the text c was found in than c does: of the words c's pattern spans,
// holes and all, or of the whole text when no pattern found it. Words of
// the line around the span (the user's own log context) count for
// neither. A text that names c (its id, its code or class as the whole
// text, a code or class in it, a code a letter or two away, a number
// in a short text, an identifier only c uses as the whole text) is c's
// whatever else it says; such an identifier inside a longer message
// ("proto.Message") is not. A message found only
// after correcting typos is a guess, and so is the message beside a name
// several records share: another record explaining as much is enough to
// leave it ("strings.Readr.Seek: invalid whece" fits io's "Seek: invalid
// whence" and strings' and bytes' longer messages), when its message
// holds the text c was found in.
func (ix *Index) explainedBetter(a *candidates, c *evidence, tier int, byMessage bool, ranked []*evidence) bool {
	named := c.id || c.code > 0 || c.class > 0 || c.keyedIdent && namedByNumber(a)
	if tier == tierNearCode || tier >= tierName && named && (!byMessage || c.pattern.Weight == 0) {
		return false
	}
	in := a.words
	if tier == tierCorrected {
		// A guess is weighed on the words as typed, each a word of the
		// message or one typo away (see wordsNear): another record
		// holding as many of them is as good a guess ("failed to
		// dcompress block" is "decompress" as much as "compress").
		in = a.u.words
	} else if c.pattern.Weight > 0 {
		text := c.pattern.Text
		if tail := ix.wrappedTail(c, a.found); tail != nil {
			// The error a log line wraps is explained by its own record.
			text = strings.TrimSuffix(text, tail.pattern.Text)
		}
		in = lex.Words(text)
	}
	idf := make(map[string]float64, len(in))
	for _, w := range in {
		if strings.Trim(w, "0123456789") != "" { // numbers are values
			idf[w] = ix.t.Words().IDF(w)
		}
	}
	explained := ix.wordsExplained
	if tier == tierCorrected {
		explained = ix.wordsNear
	}
	mine := explained(c.rec, idf)
	margin := 1e-9
	if tier == tierCorrected || tier == tierName && byMessage {
		margin = -1e-9
	}
	msg := ix.ds.Records[c.rec].ErrorMessage
	span := strings.ToLower(c.pattern.Text)
	for _, e := range ranked {
		other := ix.ds.Records[e.rec]
		if e == c || ix.wrapsFound(c, e) || margin < 0 && other.ErrorMessage == msg {
			// A record with the very message is the same error seen
			// from another place; the name tells them apart, or nothing.
			continue
		}
		we := explained(e.rec, idf)
		if we > mine+1e-9 || margin < 0 && we > mine+margin && (span == "" || tier == tierCorrected || strings.Contains(strings.ToLower(other.ErrorMessage), span)) {
			return true
		}
	}
	return false
}

// wordsExplained sums the rarity of the words that the literal text of
// record rec's message holds. Names are left out: a function name in a
// record's class ("parseConfig") shares words with values the text holds
// by chance.
func (ix *Index) wordsExplained(rec int32, idf map[string]float64) float64 {
	lit := ix.literalWords(ix.ds.Records[rec])
	sum := 0.0
	for w, f := range idf {
		if slices.Contains(lit, w) {
			sum += f
		}
	}
	return sum
}

// wordsNear is wordsExplained with a word one typo away from a word of
// the message counted too (sameWord).
func (ix *Index) wordsNear(rec int32, idf map[string]float64) float64 {
	lit := ix.literalWords(ix.ds.Records[rec])
	sum := 0.0
	for w, f := range idf {
		if slices.ContainsFunc(lit, func(l string) bool { return sameWord(w, l) }) {
			sum += f
		}
	}
	return sum
}

// literalWords are the words of the literal text of r's message, lower
// case, with the message of the one error it declares wrapping in place
// of its %w, as the error prints.
func (ix *Index) literalWords(r *errkb.Record) []string {
	msg := r.ErrorMessage
	if len(r.Wraps) == 1 {
		if in, ok := ix.ds.ByID(r.Wraps[0]); ok && in != r {
			msg = strings.Replace(msg, "%w", in.ErrorMessage, 1)
		}
	}
	return literalWords(msg)
}

// literalWords are the words of a template's literal text, lower case.
func literalWords(tmpl string) []string {
	var out []string
	for _, pc := range pattern.TemplatePieces(tmpl) {
		if !pc.Hole {
			out = append(out, lex.Words(pc.Lit)...)
		}
	}
	return out
}

// namedByNumber reports whether the text is a number under a code's key,
// or a short one with a number in it ("vendor code 7731"), or a single
// word: then an identifier only one record has names it.
func namedByNumber(a *candidates) bool {
	if len(a.u.keyedNumbers) > 0 || len(a.words) <= 1 {
		return true
	}
	if len(a.words) > 3 {
		return false
	}
	for _, ch := range a.u.chunks {
		if ch != "" && strings.Trim(ch, "0123456789") == "" {
			return true
		}
	}
	return false
}

// wrappedByFound reports whether a record that declares it wraps c had
// its own pattern found as typed in the text: the text is that error, with
// c's message inside it, whether or not its filled-in message was found
// whole (a message with two %w is not).
func (ix *Index) wrappedByFound(c *evidence, found map[int32]*evidence) bool {
	id := ix.ds.Records[c.rec].ID
	for _, e := range found {
		if e == c || !slices.Contains(ix.ds.Records[e.rec].Wraps, id) {
			continue
		}
		if t, _ := e.tier(); t == tierPattern {
			return true
		}
	}
	return false
}

// lettersPerHole is how many fixed letters a pattern needs for each of
// its holes to say, found in a text, that the text is its error.
const lettersPerHole = 7

// fewFixedWords reports whether c's pattern, which found the message, has
// too few fixed letters for its holes.
func (ix *Index) fewFixedWords(c *evidence, found map[int32]*evidence) bool {
	r := ix.ds.Records[c.rec]
	tmpl := r.MessagePattern
	if tmpl == "" {
		tmpl = r.ErrorMessage
	}
	holes := 0
	for _, pc := range pattern.TemplatePieces(tmpl) {
		if pc.Hole {
			holes++
		}
	}
	w := c.pattern.Weight
	filled := lex.AlnumCount(c.pattern.Text) - w - ix.wrappedLetters(c, found) // an error wrapped is not values
	return holes > 0 && (w < minPatternWeight || w < lettersPerHole*holes && filled > w)
}

// extendedByAnother reports whether the text goes on from c's message,
// across punctuation too, with the words another record's message has
// there: "resolver: missing address" is the end of "dns resolver: missing
// address", not the message "missing address" after a log's context, and
// "empty: invalid JWT" the end of "token file %q is empty: %w" wrapping
// "invalid JWT". The other records are those ranked and those that declare
// they wrap c.
func (ix *Index) extendedByAnother(c *evidence, segments []string, ranked []*evidence) bool {
	inner := ix.ds.Records[c.rec]
	m := longestLiteralText(inner.ErrorMessage)
	if lex.AlnumCount(m) == 0 {
		return false
	}
	var lower []string
	for _, seg := range segments {
		lower = append(lower, strings.ToLower(strings.Join(strings.Fields(seg), " ")))
	}
	extends := func(outer *errkb.Record) bool {
		for _, lit := range literalsWrapping(outer, inner, ix.ds) {
			for _, probe := range probes(lit, m) {
				for _, seg := range lower {
					if strings.Contains(seg, probe) {
						return true
					}
				}
			}
		}
		return false
	}
	for _, e := range ranked {
		if e != c && extends(ix.ds.Records[e.rec]) {
			return true
		}
	}
	for _, id := range inner.WrappedBy {
		if outer, ok := ix.ds.ByID(id); ok && outer != inner && extends(outer) {
			return true
		}
	}
	return false
}

// longestLiteralText is the longest literal run of a template, lower
// case, white space folded.
func longestLiteralText(tmpl string) string {
	best := ""
	for _, pc := range pattern.TemplatePieces(tmpl) {
		if lit := strings.ToLower(strings.TrimSpace(pc.Lit)); !pc.Hole && len(lit) > len(best) {
			best = lit
		}
	}
	return best
}

// literalsWrapping are the literal runs of outer's message, lower case, a
// %w it declares wrapping inner filled with inner's message.
func literalsWrapping(outer, inner *errkb.Record, ds *errkb.Dataset) []string {
	msg := outer.ErrorMessage
	if slices.Contains(outer.Wraps, inner.ID) {
		msg = strings.Replace(msg, "%w", inner.ErrorMessage, 1)
	}
	var out []string
	for _, pc := range pattern.TemplatePieces(msg) {
		if !pc.Hole {
			out = append(out, strings.ToLower(pc.Lit))
		}
	}
	return out
}

// probes are m with the word lit has right before it, or right after it,
// and what lies between, for each place lit holds m with more around it.
func probes(lit, m string) []string {
	var out []string
	for off := 0; ; {
		i := strings.Index(lit[off:], m)
		if i < 0 {
			return out
		}
		i += off
		pre, post := lit[:i], lit[i+len(m):]
		if w := lastWordStart(pre); w >= 0 {
			out = append(out, pre[w:]+m)
		}
		if w := firstWordEnd(post); w > 0 {
			out = append(out, m+post[:w])
		}
		off = i + 1
	}
}

// lastWordStart is where the last word of s begins, or -1 when s has
// none or it holds a digit (a value, not a message's word).
func lastWordStart(s string) int {
	end := strings.LastIndexFunc(s, isWordRune)
	if end < 0 {
		return -1
	}
	start := strings.LastIndexFunc(s[:end], func(r rune) bool { return !isWordRune(r) }) + 1
	if strings.ContainsAny(s[start:end+1], "0123456789") {
		return -1
	}
	return start
}

// firstWordEnd is where the first word of s ends, or 0 when s has none or
// it holds a digit.
func firstWordEnd(s string) int {
	start := strings.IndexFunc(s, isWordRune)
	if start < 0 {
		return 0
	}
	end := strings.IndexFunc(s[start:], func(r rune) bool { return !isWordRune(r) })
	if end < 0 {
		end = len(s) - start
	}
	if strings.ContainsAny(s[start:start+end], "0123456789") {
		return 0
	}
	return start + end
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
