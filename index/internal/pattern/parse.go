package pattern

import (
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/errkb/errkb/index/internal/lex"
)

// LiteralText is a literal or template pattern as written, lower-cased,
// with white space folded; a regexp's pieces have lost their text.
func LiteralText(pieces []Piece) (string, bool) {
	for _, pc := range pieces {
		if pc.Hole && pc.Lit == "" {
			return "", false
		}
	}
	return lex.NormalizeText(TemplateText(pieces)), true
}

// Piece is a literal run of a pattern, or a hole (Hole set; Lit keeps a
// template's verb, which decides what the hole matches, and is "" for a
// regexp's).
type Piece struct {
	Lit  string
	Hole bool
}

// Parse splits p into literal runs and holes and returns the
// regexp it stands for (without flags or word boundaries).
func Parse(p string) ([]Piece, string) {
	// The loader refuses invalid UTF-8, but a regexp cannot hold it at all.
	p = strings.ToValidUTF8(p, "\uFFFD")
	if LooksLikeRegexp(p) {
		// Anchors would stop a pattern from matching inside a log line.
		p = strings.TrimPrefix(p, "^")
		if strings.HasSuffix(p, "$") && !strings.HasSuffix(p, `\$`) {
			p = strings.TrimSuffix(p, "$")
		}
		if re, err := syntax.Parse(p, syntax.Perl); err == nil {
			return regexpPieces(re), p
		}
	}
	pieces := TemplatePieces(p)
	return pieces, templateRegexp(pieces)
}

// LooksLikeRegexp reports whether p uses regular-expression syntax rather
// than being literal text or a printf/{name} template. Literal messages
// rarely contain these sequences; regexps almost always do.
func LooksLikeRegexp(p string) bool {
	for _, s := range []string{`(.+)`, `(.*)`, `.*`, `.+`, `\d`, `\w`, `\s`, `\S`, `\.`, `\(`, `\[`, `[^`, `(?:`, `(?P<`, `(?i)`, `[0-9]`, `[a-z`, `[A-Z`, `\b`, `+?`} {
		if strings.Contains(p, s) {
			return true
		}
	}
	return strings.HasPrefix(p, "^") || strings.HasSuffix(p, "$")
}

// regexpPieces flattens the top-level sequence of a parsed regexp into
// literal runs and holes.
func regexpPieces(re *syntax.Regexp) []Piece {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var out []Piece
	for _, s := range subs {
		switch s.Op {
		case syntax.OpLiteral:
			lit := string(s.Rune)
			if n := len(out); n > 0 && !out[n-1].Hole {
				out[n-1].Lit += lit
				continue
			}
			out = append(out, Piece{Lit: lit})
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText, syntax.OpEmptyMatch:
		default:
			// Groups, classes and repeats: a hole. A group such as
			// "(foo|bar)" pins some text down too, but counting it as none
			// only makes the pattern weaker evidence, never wrong evidence.
			out = append(out, Piece{Hole: true})
		}
	}
	if len(out) == 0 {
		out = append(out, Piece{Hole: true})
	}
	return out
}

// placeholderRE matches printf verbs (Go, C with length modifiers such as
// "%zu", Python's "%(name)s"), "%%", and {name}, {0} and {} placeholders.
var placeholderRE = regexp.MustCompile(`%%|%(?:\(\w+\))?[-+#0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[a-zA-Z]|\{[A-Za-z_][A-Za-z0-9_.\-]*(?::[^{}]*)?\}|\{\d*\}`)

// TemplatePieces splits a template at its placeholders; "%%" is a literal
// percent sign. A hole's lit keeps the verb, which decides what it matches.
func TemplatePieces(p string) []Piece {
	p = strings.Join(strings.Fields(p), " ")
	var out []Piece
	add := func(lit string) {
		if lit == "" {
			return
		}
		if n := len(out); n > 0 && !out[n-1].Hole {
			out[n-1].Lit += lit
			return
		}
		out = append(out, Piece{Lit: lit})
	}
	last := 0
	for _, loc := range placeholderRE.FindAllStringIndex(p, -1) {
		add(p[last:loc[0]])
		if v := p[loc[0]:loc[1]]; v == "%%" {
			add("%")
		} else {
			out = append(out, Piece{Lit: v, Hole: true})
		}
		last = loc[1]
	}
	add(p[last:])
	return out
}

// templateRegexp turns template pieces into a regexp; a hole becomes what
// its verb can print.
func templateRegexp(pieces []Piece) string {
	var b strings.Builder
	for _, pc := range pieces {
		if !pc.Hole {
			b.WriteString(strings.ReplaceAll(regexp.QuoteMeta(pc.Lit), " ", `\s+`))
			continue
		}
		b.WriteString(holeRegexp(pc.Lit))
	}
	return b.String()
}

// lazyHole is what a hole that may print anything becomes.
const lazyHole = `.+?`

// AnyText reports whether a hole written with verb may print any text
// (%v, %s, %w, {name}), rather than a number, a boolean or a character.
func AnyText(verb string) bool { return holeRegexp(verb) == lazyHole }

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

// IsTemplate reports whether pieces come from a template with printf or
// {name} placeholders (a regexp's holes keep no text).
func IsTemplate(pieces []Piece) bool {
	holes := 0
	for _, pc := range pieces {
		if pc.Hole {
			if pc.Lit == "" {
				return false
			}
			holes++
		}
	}
	return holes > 0
}

// TemplateText is the text a pattern was written as, from its pieces
// (regexp pieces lose their syntax, so only templates round-trip; a
// regexp pasted as such is rare).
func TemplateText(pieces []Piece) string {
	var b strings.Builder
	for _, pc := range pieces {
		b.WriteString(pc.Lit)
	}
	return b.String()
}
