package index

import (
	"cmp"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// A message pattern is written in one of three ways: literal text (the
// seed's "consumer is offline"), an RE2 expression with groups such as
// "(.+)" or "\d+", or a template with printf verbs ("%s", "%d", "%q", "%w")
// or "{name}" placeholders. Every pattern is parsed at Build and becomes a
// case-insensitive Go regexp (linear time, so no pasted text can make it
// slow), compiled once, the first time a query holds all its words: a
// compiled regexp weighs about 2.4 KB, and most patterns never run, so
// compiling all 10,000 records' patterns at start-up cost 47 MB and a
// quarter of a second for nothing. Each pattern carries how much literal
// text it pins down: a pattern found in a query is evidence in proportion
// to that, and "(.+)" alone, which matches anything, is no evidence at all.

// compiledPattern is one pattern of one record, ready to match: the
// tables keep it (see writePatterns) and compile its regexp on first use.
type compiledPattern struct {
	expr   string // the regexp, case-insensitive, with word boundaries
	weight int    // letters and digits a match must contain literally
	// required are whole words every match contains; a query lacking one
	// cannot match, which spares running the regexp.
	required []string
	// prefix is the weight of a leading "name: " the pattern may be found
	// without (see clientPrefix); the regexp's first group holds it.
	prefix int
	// openStart and openEnd: the pattern may be found with words right
	// before or after it. Either it starts or ends with a hole, which takes
	// in whatever text is there, or no other record's message goes on
	// from it ("no such device" is the start of "no such device or
	// address", so "no such device or" is not that message).
	openStart, openEnd bool
}

// patternHit is the best pattern evidence for one record in one query.
type patternHit struct {
	weight    int  // literal letters and digits of the matching pattern
	full      bool // the pattern matched a whole segment, not a part of one
	whole     bool // the pattern matched the whole query
	corrected bool // matched only after spelling correction
	// bounded: the match starts and ends where a clause of the text does
	// (the segment's ends or punctuation such as ':' or a quote), so it is
	// not the first words of a longer message that happens to continue.
	bounded bool
	// stripped: found without the pattern's leading "name: " (the client's
	// "nats: " prefix), so weight leaves that prefix out.
	stripped bool
	// text is the part of the segment the pattern spans, a trailing hole
	// taking in the rest of it: decide tells by it whether one record's
	// message lies inside another's.
	text string
}

// parsedPattern is one pattern of one record, split into pieces.
type parsedPattern struct {
	rec    int32
	pieces []piece
	expr   string
}

// parseRecordPatterns parses the patterns of recs: messagePattern, and
// errorMessage too when it differs (it may be a filled-in sample of the
// pattern, which is what engineers paste), and the pattern with its %w
// filled in (see wrappedText). wrapped holds the records that any record
// wraps, by id (see wrappedRecords); a record's own part of the tables
// is built apart from the others, so they are looked up there.
func parseRecordPatterns(recs []*errkb.Record, wrapped map[string]*errkb.Record) []parsedPattern {
	var out []parsedPattern
	for i, r := range recs {
		pat, msg := strings.TrimSpace(r.MessagePattern), strings.TrimSpace(r.ErrorMessage)
		if msg == pat {
			msg = ""
		}
		for _, p := range []string{pat, msg, wrappedText(r, pat, msg, wrapped)} {
			if p == "" {
				continue
			}
			pieces, expr := parsePattern(p)
			out = append(out, parsedPattern{rec: int32(i), pieces: pieces, expr: expr})
		}
	}
	return out
}

// wrappedRecords are the records of recs that another record wraps (%w),
// by id.
func wrappedRecords(recs []*errkb.Record) map[string]*errkb.Record {
	out := map[string]*errkb.Record{}
	for _, r := range recs {
		for _, w := range r.Wraps {
			out[w] = nil
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, r := range recs {
		if _, ok := out[r.ID]; ok {
			out[r.ID] = r
		}
	}
	return out
}

// wrappedText is the record's template with its %w filled by the message
// of the one record it wraps, as the error prints: "%w: invalid subject"
// wrapping "invalid mapping destination" prints "invalid mapping
// destination: invalid subject". Found whole in a log line, it pins down
// more text than the wrapped record's own message, so the wrapping record,
// the more specific error, ranks first.
func wrappedText(r *errkb.Record, pat, msg string, byID map[string]*errkb.Record) string {
	if len(r.Wraps) != 1 {
		return ""
	}
	in := byID[r.Wraps[0]]
	if in == nil || in == r {
		return ""
	}
	inner := strings.TrimSpace(in.MessagePattern)
	if inner == "" || looksLikeRegexp(inner) || strings.Contains(inner, "%w") {
		inner = strings.TrimSpace(in.ErrorMessage)
	}
	for _, t := range []string{pat, msg} {
		if strings.Count(t, "%w") == 1 && !looksLikeRegexp(t) && !looksLikeRegexp(inner) {
			return strings.Replace(t, "%w", inner, 1)
		}
	}
	return ""
}

// extensions knows every literal message, lower-cased, forwards and
// backwards, sorted, to tell whether a message is the start or the end of
// a longer one.
type extensions struct{ fwd, back []string }

func newExtensions(lits []string) extensions {
	e := extensions{fwd: slices.Clone(lits), back: make([]string, len(lits))}
	for i, lit := range lits {
		e.back[i] = reverse(lit)
	}
	slices.Sort(e.fwd)
	slices.Sort(e.back)
	return e
}

// continued reports whether another message goes on from lit with more
// words: after it, or before it when backwards is set.
func (e extensions) continued(lit string, backwards bool) bool {
	list, key := e.fwd, lit+" "
	if backwards {
		list, key = e.back, reverse(" "+lit)
	}
	i, _ := slices.BinarySearch(list, key)
	return i < len(list) && strings.HasPrefix(list[i], key)
}

// literalText is a literal or template pattern as written, lower-cased,
// with white space folded; a regexp's pieces have lost their text.
func literalText(pieces []piece) (string, bool) {
	for _, pc := range pieces {
		if pc.hole && pc.lit == "" {
			return "", false
		}
	}
	return lex.NormalizeText(templateText(pieces)), true
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// piece is a literal run of a pattern, or a hole (lit == "" and hole set).
type piece struct {
	lit  string
	hole bool
}

// compilePattern compiles p; ok is false when p pins down no literal text
// and so can never be evidence.
func compilePattern(pieces []piece, expr string) (compiledPattern, bool) {
	m := compiledPattern{}
	for _, pc := range pieces {
		if !pc.hole {
			m.weight += lex.AlnumCount(pc.lit)
		}
	}
	if m.weight == 0 {
		return m, false
	}
	m.openStart, m.openEnd = pieces[0].hole, pieces[len(pieces)-1].hole
	requiredFrom := pieces
	if prefix, rest, ok := clientPrefix(pieces); ok {
		// The client's "nats: consumer not found" is the server's
		// "consumer not found": the pattern is found either way.
		m.prefix = lex.AlnumCount(prefix)
		expr = `(` + regexp.QuoteMeta(strings.TrimSpace(prefix)) + `\s*)?` + templateRegexp(rest)
		pieces, requiredFrom = rest, rest
	}
	// Word boundaries at the ends, so "stream not found" does not match
	// inside "upstream not found".
	if first := pieces[0]; !first.hole && startsWithWord(first.lit) {
		expr = `\b(?:` + expr + `)`
	}
	if last := pieces[len(pieces)-1]; !last.hole && endsWithWord(last.lit) {
		expr = `(?:` + expr + `)\b`
	}
	m.expr = `(?is)` + expr
	m.required = requiredWords(requiredFrom)
	return m, true
}

// clientPrefix splits a template's leading "name: " (a package or program
// name: "nats: ", "archive/tar: ", "zip: ") from the rest, when the rest
// still pins down text. Clients print errors with such a prefix that the
// server or a log line may not carry.
func clientPrefix(pieces []piece) (prefix string, rest []piece, ok bool) {
	if len(pieces) == 0 || pieces[0].hole {
		return "", nil, false
	}
	for _, pc := range pieces {
		if pc.hole && pc.lit == "" {
			return "", nil, false // a regexp's pieces lose its syntax
		}
	}
	loc := clientPrefixRE.FindStringIndex(pieces[0].lit)
	if loc == nil {
		return "", nil, false
	}
	rest = append([]piece{{lit: pieces[0].lit[loc[1]:]}}, pieces[1:]...)
	if rest[0].lit == "" {
		rest = rest[1:]
	}
	w := 0
	for _, pc := range rest {
		if !pc.hole {
			w += lex.AlnumCount(pc.lit)
		}
	}
	if w < minWholePatternWeight || len(rest) == 0 || rest[0].hole {
		return "", nil, false
	}
	return pieces[0].lit[:loc[1]], rest, true
}

var clientPrefixRE = regexp.MustCompile(`^[a-z][a-z0-9_./\-]*: `)

// parsePattern splits p into literal runs and holes and returns the
// regexp it stands for (without flags or word boundaries).
func parsePattern(p string) ([]piece, string) {
	// The loader refuses invalid UTF-8, but a regexp cannot hold it at all.
	p = strings.ToValidUTF8(p, "\uFFFD")
	if looksLikeRegexp(p) {
		// Anchors would stop a pattern from matching inside a log line.
		p = strings.TrimPrefix(p, "^")
		if strings.HasSuffix(p, "$") && !strings.HasSuffix(p, `\$`) {
			p = strings.TrimSuffix(p, "$")
		}
		if re, err := syntax.Parse(p, syntax.Perl); err == nil {
			return regexpPieces(re), p
		}
	}
	pieces := templatePieces(p)
	return pieces, templateRegexp(pieces)
}

// looksLikeRegexp reports whether p uses regular-expression syntax rather
// than being literal text or a printf/{name} template. Literal messages
// rarely contain these sequences; regexps almost always do.
func looksLikeRegexp(p string) bool {
	for _, s := range []string{`(.+)`, `(.*)`, `.*`, `.+`, `\d`, `\w`, `\s`, `\S`, `\.`, `\(`, `\[`, `[^`, `(?:`, `(?P<`, `(?i)`, `[0-9]`, `[a-z`, `[A-Z`, `\b`, `+?`} {
		if strings.Contains(p, s) {
			return true
		}
	}
	return strings.HasPrefix(p, "^") || strings.HasSuffix(p, "$")
}

// regexpPieces flattens the top-level sequence of a parsed regexp into
// literal runs and holes.
func regexpPieces(re *syntax.Regexp) []piece {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var out []piece
	for _, s := range subs {
		switch s.Op {
		case syntax.OpLiteral:
			lit := string(s.Rune)
			if n := len(out); n > 0 && !out[n-1].hole {
				out[n-1].lit += lit
				continue
			}
			out = append(out, piece{lit: lit})
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText, syntax.OpEmptyMatch:
		default:
			// Groups, classes and repeats: a hole. A group such as
			// "(foo|bar)" pins some text down too, but counting it as none
			// only makes the pattern weaker evidence, never wrong evidence.
			out = append(out, piece{hole: true})
		}
	}
	if len(out) == 0 {
		out = append(out, piece{hole: true})
	}
	return out
}

// placeholderRE matches printf verbs (Go, C with length modifiers such as
// "%zu", Python's "%(name)s"), "%%", and {name}, {0} and {} placeholders.
var placeholderRE = regexp.MustCompile(`%%|%(?:\(\w+\))?[-+#0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[a-zA-Z]|\{[A-Za-z_][A-Za-z0-9_.\-]*(?::[^{}]*)?\}|\{\d*\}`)

// templatePieces splits a template at its placeholders; "%%" is a literal
// percent sign. A hole's lit keeps the verb, which decides what it matches.
func templatePieces(p string) []piece {
	p = strings.Join(strings.Fields(p), " ")
	var out []piece
	add := func(lit string) {
		if lit == "" {
			return
		}
		if n := len(out); n > 0 && !out[n-1].hole {
			out[n-1].lit += lit
			return
		}
		out = append(out, piece{lit: lit})
	}
	last := 0
	for _, loc := range placeholderRE.FindAllStringIndex(p, -1) {
		add(p[last:loc[0]])
		if v := p[loc[0]:loc[1]]; v == "%%" {
			add("%")
		} else {
			out = append(out, piece{lit: v, hole: true})
		}
		last = loc[1]
	}
	add(p[last:])
	return out
}

// templateRegexp turns template pieces into a regexp; a hole becomes what
// its verb can print.
func templateRegexp(pieces []piece) string {
	var b strings.Builder
	for _, pc := range pieces {
		if !pc.hole {
			b.WriteString(strings.ReplaceAll(regexp.QuoteMeta(pc.lit), " ", `\s+`))
			continue
		}
		b.WriteString(holeRegexp(pc.lit))
	}
	return b.String()
}

// lazyHole is what a hole that may print anything becomes.
const lazyHole = `.+?`

func holeRegexp(verb string) string {
	if strings.HasPrefix(verb, "{") {
		return lazyHole
	}
	switch verb[len(verb)-1] {
	case 'd', 'i', 'u':
		return `[-+]?\d+`
	case 'x', 'X':
		return `(?:0[xX])?[0-9a-fA-F]+`
	case 'f', 'g', 'e', 'F', 'G', 'E':
		return `[-+]?[0-9][0-9.eE+\-]*`
	case 't':
		return `(?:true|false)`
	case 'c':
		return `.`
	}
	return lazyHole
}

// requiredWords lists the words of literal runs that no placeholder can
// touch: a word at a run's edge next to a hole may be glued to the value
// filled in ("stream_%s" pastes as "stream_orders" and still has "stream",
// but "%sConsumer" pastes as "OrdersConsumer"), so only words with a
// non-word character on both sides inside the run are required.
func requiredWords(pieces []piece) []string {
	var out []string
	seen := map[string]bool{}
	for i, pc := range pieces {
		if pc.hole {
			continue
		}
		lit := pc.lit
		words := lex.WordSpans(lit)
		for j, w := range words {
			if (j == 0 && w[0] == 0 && i > 0) || (j == len(words)-1 && w[1] == len(lit) && i < len(pieces)-1) {
				continue
			}
			word := strings.ToLower(lit[w[0]:w[1]])
			if !seen[word] {
				seen[word] = true
				out = append(out, word)
			}
		}
	}
	return out
}

func startsWithWord(s string) bool {
	for _, r := range s {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
	}
	return false
}

func endsWithWord(s string) bool {
	if s == "" {
		return false
	}
	r := []rune(s)
	last := r[len(r)-1]
	return unicode.IsLetter(last) || unicode.IsDigit(last) || last == '_'
}

// match returns the best pattern evidence per record (by Records index)
// for the segments of a query. Only matchers whose key word occurs among
// tokens, and whose every required word does, run their regexp, at most
// maxPatternRuns of them (see eligible).
func (ps *patternSet) match(segments []string, tokens map[string]bool, corrected bool, into map[int32]patternHit) {
	runs := 0
	try := func(mi int32) {
		runs++
		// A template ending in a hole ("snapshot failed: {err}") takes in
		// whatever text follows, though its lazy regexp stops after one
		// letter: found at a segment's start, it is the whole segment. (The
		// regexp may close a group after the hole; see compilePattern.)
		trailingHole := strings.HasSuffix(strings.TrimSuffix(ps.expr.at(int(mi)), ")"), lazyHole)
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
			h := patternHit{weight: int(ps.weight[mi]), full: full, whole: full && i == 0, corrected: corrected, bounded: bounded(seg, loc[0], loc[1], openStart, openEnd), text: seg[loc[0]:end]}
			if p := ps.prefix(mi); p > 0 && loc[2] < 0 {
				h.weight -= p
				h.stripped = true
			}
			if better(h, into[rec]) {
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
// word tokens hold, heaviest first (most literal text, the evidence better
// prefers), then in table order. When more than maxPatternRuns are
// eligible (a message many records share, at scale), the ones run are
// then the same from one query to the next, whatever order the tokens'
// map gives.
func (ps *patternSet) eligible(tokens map[string]bool) []int32 {
	var out []int32
	rw := ps.required()
	have := rw.numbers(tokens)
	for t := range tokens {
		for _, mi := range ps.byWord.get(t) {
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

// better orders pattern evidence: an uncorrected match beats a corrected
// one, then more literal text, then a whole-segment match.
func better(a, b patternHit) bool {
	if b.weight == 0 {
		return a.weight > 0
	}
	if a.corrected != b.corrected {
		return !a.corrected
	}
	if a.weight != b.weight {
		return a.weight > b.weight
	}
	if a.stripped != b.stripped {
		return !a.stripped
	}
	if a.whole != b.whole {
		return a.whole
	}
	return a.full && !b.full
}
