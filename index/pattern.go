package index

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/errkb/errkb"
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
}

// patternHit is the best pattern evidence for one record in one query.
type patternHit struct {
	weight    int  // literal letters and digits of the matching pattern
	full      bool // the pattern matched a whole segment, not a part of one
	whole     bool // the pattern matched the whole query
	corrected bool // matched only after spelling correction
}

// parsedPattern is one pattern of one record, split into pieces.
type parsedPattern struct {
	rec    int32
	pieces []piece
	expr   string
}

// parseRecordPatterns parses the patterns of recs: messagePattern, and
// errorMessage too when it differs (it may be a filled-in sample of the
// pattern, which is what engineers paste).
func parseRecordPatterns(recs []*errkb.Record) []parsedPattern {
	var out []parsedPattern
	for i, r := range recs {
		pat, msg := strings.TrimSpace(r.MessagePattern), strings.TrimSpace(r.ErrorMessage)
		if msg == pat {
			msg = ""
		}
		for _, p := range []string{pat, msg} {
			if p == "" {
				continue
			}
			pieces, expr := parsePattern(p)
			out = append(out, parsedPattern{rec: int32(i), pieces: pieces, expr: expr})
		}
	}
	return out
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
			m.weight += alnumCount(pc.lit)
		}
	}
	if m.weight == 0 {
		return m, false
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
	m.required = requiredWords(pieces)
	return m, true
}

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

func holeRegexp(verb string) string {
	if strings.HasPrefix(verb, "{") {
		return `.+?`
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
	return `.+?`
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
		words := wordSpans(lit)
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

// wordSpans returns the byte spans of letter-or-digit runs in s.
func wordSpans(s string) [][2]int {
	var out [][2]int
	start := -1
	for i, r := range s {
		isWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case isWord && start < 0:
			start = i
		case !isWord && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, [2]int{start, len(s)})
	}
	return out
}

func alnumCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
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
// tokens, and whose every required word does, run their regexp.
func (ps *patternSet) match(segments []string, tokens map[string]bool, corrected bool, into map[int32]patternHit) {
	runs := 0
	try := func(mi int32) {
		if !ps.requiredIn(mi, tokens) {
			return
		}
		runs++
		for i, seg := range segments {
			re := ps.regexp(mi)
			if re == nil {
				return
			}
			loc := re.FindStringIndex(seg)
			if loc == nil {
				continue
			}
			full := loc[0] == 0 && loc[1] == len(seg)
			rec := ps.rec[mi]
			h := patternHit{weight: int(ps.weight[mi]), full: full, whole: full && i == 0, corrected: corrected}
			if better(h, into[rec]) {
				into[rec] = h
			}
		}
	}
	tried := map[int32]bool{}
	for t := range tokens {
		for _, mi := range ps.byWord.get(t) {
			if !tried[mi] && runs < maxPatternRuns {
				tried[mi] = true
				try(mi)
			}
		}
	}
	for _, mi := range ps.always {
		if runs < maxPatternRuns {
			try(mi)
		}
	}
}

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
	if a.whole != b.whole {
		return a.whole
	}
	return a.full && !b.full
}
