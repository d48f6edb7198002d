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
// pattern, which is what engineers paste), the pattern with its %w
// filled in (see wrappedText), and each older wording of the record's
// history that no record has today (see Shared). A removed record's
// messages that a record not removed has are left out the same way. A record's own part of
// the tables is built apart from the others, so what it needs of them is
// looked up in sh.
func OfRecords(recs []*errkb.Record, sh Shared) []Parsed {
	var out []Parsed
	for i, r := range recs {
		pat, msg := strings.TrimSpace(r.MessagePattern), strings.TrimSpace(r.ErrorMessage)
		if msg == pat {
			msg = ""
		}
		texts := []string{pat, msg, wrappedText(r, pat, msg, sh.Wrapped)}
		removed := r.History != nil && r.History.RemovedIn != ""
		for j, p := range append(texts, sh.oldWordings(r)...) {
			if p == "" || removed && j < len(texts) && sh.Current[fold(p)] {
				continue // a removed error's message that a kept one has is the kept one's
			}
			pieces, expr := Parse(p)
			out = append(out, Parsed{Rec: int32(i), Pieces: pieces, Expr: expr})
		}
	}
	return out
}

// Shared is what one record's patterns need of the others: the records
// any record wraps, by id, and the messages and patterns of the records
// not removed (History.RemovedIn), spaces folded and lower-cased. An older wording equal to a
// message another record has today is left out: a paste of it is that
// record's, and sharing it with the record that once said it would leave
// the lookup with two and no match.
type Shared struct {
	Wrapped map[string]*errkb.Record
	Current map[string]bool
}

// SharedOf is what the records of recs share.
func SharedOf(recs []*errkb.Record) Shared {
	cur := map[string]bool{}
	for _, r := range recs {
		if r.History != nil && r.History.RemovedIn != "" {
			continue
		}
		cur[fold(r.ErrorMessage)] = true
		cur[fold(r.MessagePattern)] = true
	}
	return Shared{Wrapped: WrappedRecords(recs), Current: cur}
}

// oldWordings are r's older messages that no record has today.
func (sh Shared) oldWordings(r *errkb.Record) []string {
	if r.History == nil {
		return nil
	}
	var out []string
	for _, m := range r.History.Messages {
		if t := strings.TrimSpace(m.Message); t != "" && !sh.Current[fold(t)] {
			out = append(out, t)
		}
	}
	return out
}

func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

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
