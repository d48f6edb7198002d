package pattern

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/errkb/errkb/index/internal/lex"
)

// Compiled is one pattern of one record, ready to match: the lookup
// tables keep it, and Set compiles its regexp on first use.
type Compiled struct {
	Expr   string // the regexp, case-insensitive, with word boundaries
	Weight int    // letters and digits a match must contain literally
	// Required are whole words every match contains; a query lacking one
	// cannot match, which spares running the regexp.
	Required []string
	// Prefix is the weight of a leading "name: " the pattern may be found
	// without (see ClientPrefix); the regexp's first group holds it.
	Prefix int
	// OpenStart and OpenEnd: the pattern may be found with words right
	// before or after it. Either it starts or ends with a hole, which takes
	// in whatever text is there, or no other record's message goes on
	// from it ("no such device" is the start of "no such device or
	// address", so "no such device or" is not that message).
	OpenStart, OpenEnd bool
}

// Compile compiles p; ok is false when p pins down no literal text
// and so can never be evidence.
func Compile(pieces []Piece, expr string) (Compiled, bool) {
	m := Compiled{}
	for _, pc := range pieces {
		if !pc.Hole {
			m.Weight += lex.AlnumCount(pc.Lit)
		}
	}
	if m.Weight == 0 {
		return m, false
	}
	m.OpenStart, m.OpenEnd = pieces[0].Hole, pieces[len(pieces)-1].Hole
	requiredFrom := pieces
	if prefix, rest, ok := ClientPrefix(pieces); ok {
		// The client's "nats: consumer not found" is the server's
		// "consumer not found": the pattern is found either way.
		m.Prefix = lex.AlnumCount(prefix)
		expr = `(` + regexp.QuoteMeta(strings.TrimSpace(prefix)) + `\s*)?` + templateRegexp(rest)
		pieces, requiredFrom = rest, rest
	}
	// Word boundaries at the ends, so "stream not found" does not match
	// inside "upstream not found".
	if first := pieces[0]; !first.Hole && startsWithWord(first.Lit) {
		expr = `\b(?:` + expr + `)`
	}
	if last := pieces[len(pieces)-1]; !last.Hole && endsWithWord(last.Lit) {
		expr = `(?:` + expr + `)\b`
	}
	m.Expr = `(?is)` + expr
	m.Required = requiredWords(requiredFrom)
	return m, true
}

// MinWholeWeight is how many literal letters and digits a pattern that
// is the whole query must pin down to name a record (a pattern inside a
// longer text needs more; see the index's decide stage). A client prefix
// is optional only when the rest of the template pins down as many.
const MinWholeWeight = 4

// ClientPrefix splits a template's leading "name: " (a package or program
// name: "nats: ", "archive/tar: ", "zip: ") from the rest, when the rest
// still pins down text. Clients print errors with such a prefix that the
// server or a log line may not carry.
func ClientPrefix(pieces []Piece) (prefix string, rest []Piece, ok bool) {
	if len(pieces) == 0 || pieces[0].Hole {
		return "", nil, false
	}
	for _, pc := range pieces {
		if pc.Hole && pc.Lit == "" {
			return "", nil, false // a regexp's pieces lose its syntax
		}
	}
	n := PrefixLen(pieces[0].Lit)
	if n == 0 {
		return "", nil, false
	}
	rest = append([]Piece{{Lit: pieces[0].Lit[n:]}}, pieces[1:]...)
	if rest[0].Lit == "" {
		rest = rest[1:]
	}
	w := 0
	for _, pc := range rest {
		if !pc.Hole {
			w += lex.AlnumCount(pc.Lit)
		}
	}
	if w < MinWholeWeight || len(rest) == 0 || rest[0].Hole {
		return "", nil, false
	}
	return pieces[0].Lit[:n], rest, true
}

var clientPrefixRE = regexp.MustCompile(`^[a-z][a-z0-9_./\-]*: `)

// PrefixLen is the length of the "name: " s starts with, as ClientPrefix
// finds it, or 0.
func PrefixLen(s string) int {
	if loc := clientPrefixRE.FindStringIndex(s); loc != nil {
		return loc[1]
	}
	return 0
}

// requiredWords lists the words of literal runs that no placeholder can
// touch: a word at a run's edge next to a hole may be glued to the value
// filled in ("stream_%s" pastes as "stream_orders" and still has "stream",
// but "%sConsumer" pastes as "OrdersConsumer"), so only words with a
// non-word character on both sides inside the run are required.
func requiredWords(pieces []Piece) []string {
	var out []string
	seen := map[string]bool{}
	for i, pc := range pieces {
		if pc.Hole {
			continue
		}
		lit := pc.Lit
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
