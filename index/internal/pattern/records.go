package pattern

import (
	"slices"
	"strings"

	"github.com/errkb/errkb"
)

// Parsed is one pattern of one record, split into pieces.
type Parsed struct {
	Rec    int32 // the record's position in the records given
	Pieces []Piece
	Expr   string // the regexp it stands for, without flags or word boundaries
}

// OfRecords parses the patterns of recs: messagePattern, and
// errorMessage too when it differs (it may be a filled-in sample of the
// pattern, which is what engineers paste), and the pattern with its %w
// filled in (see wrappedText). wrapped holds the records that any record
// wraps, by id (see WrappedRecords); a record's own part of the tables
// is built apart from the others, so they are looked up there.
func OfRecords(recs []*errkb.Record, wrapped map[string]*errkb.Record) []Parsed {
	var out []Parsed
	for i, r := range recs {
		pat, msg := strings.TrimSpace(r.MessagePattern), strings.TrimSpace(r.ErrorMessage)
		if msg == pat {
			msg = ""
		}
		for _, p := range []string{pat, msg, wrappedText(r, pat, msg, wrapped)} {
			if p == "" {
				continue
			}
			pieces, expr := Parse(p)
			out = append(out, Parsed{Rec: int32(i), Pieces: pieces, Expr: expr})
		}
	}
	return out
}

// WrappedRecords are the records of recs that another record wraps (%w),
// by id.
func WrappedRecords(recs []*errkb.Record) map[string]*errkb.Record {
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
	if inner == "" || LooksLikeRegexp(inner) || strings.Contains(inner, "%w") {
		inner = strings.TrimSpace(in.ErrorMessage)
	}
	for _, t := range []string{pat, msg} {
		if strings.Count(t, "%w") == 1 && !LooksLikeRegexp(t) && !LooksLikeRegexp(inner) {
			return strings.Replace(t, "%w", inner, 1)
		}
	}
	return ""
}

// Extensions knows every literal message, lower-cased, forwards and
// backwards, sorted, to tell whether a message is the start or the end of
// a longer one.
type Extensions struct{ fwd, back []string }

// NewExtensions knows lits, every record's literal messages (see
// LiteralText).
func NewExtensions(lits []string) Extensions {
	e := Extensions{fwd: slices.Clone(lits), back: make([]string, len(lits))}
	for i, lit := range lits {
		e.back[i] = reverse(lit)
	}
	slices.Sort(e.fwd)
	slices.Sort(e.back)
	return e
}

// continued reports whether another message goes on from lit with more
// words: after it, or before it when backwards is set.
func (e Extensions) Continued(lit string, backwards bool) bool {
	list, key := e.fwd, lit+" "
	if backwards {
		list, key = e.back, reverse(" "+lit)
	}
	i, _ := slices.BinarySearch(list, key)
	return i < len(list) && strings.HasPrefix(list[i], key)
}

func reverse(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}
