package index

import (
	"slices"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// Part of the candidates stage: the evidence that names a record
// outright, found in the lookup tables. Its id, code or class, an
// identifier or code number from its code fields, or a code a letter or
// two away.

// findNamed finds ids, codes, classes and code identifiers, first in the
// whole query and then in each of its pieces.
func (ix *Index) findNamed(a *candidates) {
	u := a.u
	whole := strings.Join(strings.Fields(u.raw), " ")
	if i, ok := ix.t.Record(whole); ok {
		a.get(i).id = true
	}
	for _, i := range ix.byCode(whole) {
		a.get(i).code = 2
	}
	for _, i := range ix.t.ByClass(strings.ToLower(whole)) {
		a.get(i).class = 2
	}
	for _, c := range u.chunks {
		// The name of a qualified chunk ("syscall.EPERM", "*fs.PathError")
		// is written as code whatever its case, and the qualified name
		// itself may be one only this record's code uses.
		pkg, name, qualified := lex.QualifiedName(c)
		if qualified {
			q := strings.ToLower(pkg + "." + name)
			if rs := ix.t.Idents(q); len(rs) == 1 {
				a.get(rs[0]).keyedIdent = true
			}
		}
		// Likewise a name under its package's import path
		// ("github.com/nats-io/nats.go/jetstream.ErrNoResponders").
		if importQualified(c) {
			if rs := ix.t.Idents(strings.ToLower(c)); len(rs) == 1 {
				a.get(rs[0]).keyedIdent = true
			}
		}
		for _, p := range chunkForms(c) {
			if i, ok := ix.t.Record(p); ok {
				a.get(i).id = true
			}
			// Inside a longer text only identifier-shaped pieces count as
			// codes and classes: "internal" in a host name must not name
			// the record whose class is "Internal".
			if identLike(p) || qualified && p == name {
				for _, i := range ix.byCode(p) {
					e := a.get(i)
					e.code = max(e.code, 1)
				}
				for _, i := range ix.t.ByClass(strings.ToLower(p)) {
					e := a.get(i)
					e.class = max(e.class, 1)
				}
			}
			lp := strings.ToLower(p)
			for _, i := range ix.t.Idents(lp) {
				e := a.get(i)
				if lex.IsNumber(lp) {
					e.number += 1 / float64(len(ix.t.Idents(lp)))
				} else {
					e.ident += 1 / float64(len(ix.t.Idents(lp)))
				}
			}
			for _, i := range ix.t.SrcIdents(lp) {
				a.get(i).srcIdent += 1 / float64(len(ix.t.SrcIdents(lp)))
			}
			if lex.CapsIdent(p) {
				for _, i := range ix.t.SrcIdents(p) {
					a.get(i).srcIdent += 1 / float64(len(ix.t.SrcIdents(p)))
				}
			}
		}
	}
	// A constructor or guard in a record's source snippet that spells out
	// the record's class or code ("NewStreamNameExistsError") names it as
	// surely as the class does, when the query is that identifier alone.
	if len(u.chunks) == 1 {
		for _, p := range chunkForms(u.chunks[0]) {
			if rs := ix.t.SrcIdents(strings.ToLower(p)); len(rs) == 1 && identSpellsName(p, ix.ds.Records[rs[0]]) {
				a.get(rs[0]).keyedIdent = true
			}
		}
	}
	keyed := append(u.keyedNumbers, codeNumbers(u.chunks)...)
	if len(u.chunks) == 1 {
		keyed = append(keyed, u.chunks[0])
	}
	for _, k := range keyed {
		k = strings.ToLower(strings.TrimSpace(k))
		for _, i := range ix.byCode(k) {
			e := a.get(i)
			e.code = max(e.code, 1)
		}
		rs := ix.t.Idents(k)
		if !isHTTPStatus(k) && ix.nameByNumber(a, k, rs) {
			continue
		}
		switch {
		case isHTTPStatus(k):
		case len(rs) == 1:
			a.get(rs[0]).keyedIdent = true
		case len(rs) <= maxSharedCode:
			// A code number several records compare against is a shared
			// code: each of them is named, none alone.
			for _, i := range rs {
				e := a.get(i)
				e.code = max(e.code, 1)
			}
		}
	}
	if len(a.found) == 0 {
		ix.nearCodes(a, whole)
	}
}

// nameByNumber names the records whose own numeric code is the keyed
// number k, among rs, the records k is an identifier of, and reports
// whether there were any. A number is no guess at a name then: the code
// is the error's own (a JetStream err_code), and the record it belongs
// to is named first (see errorOf), its other faces after it. Records
// that only mention the number (a handling snippet comparing against it)
// are left to the text.
func (ix *Index) nameByNumber(a *candidates, k string, rs []int32) bool {
	var own []int32
	for _, i := range rs {
		if n := ix.ds.Records[i].NumericCode; n != nil && strconv.Itoa(*n) == k {
			own = append(own, i)
		}
	}
	if len(own) == 0 {
		return false
	}
	first, ok := ix.errorOf(own)
	for _, i := range own {
		e := a.get(i)
		e.code = max(e.code, 1)
		if ok && i == first || len(own) == 1 {
			e.keyedIdent, e.errCode = true, true
		}
	}
	return true
}

// byCode lists the records named by code: those whose own code it is,
// else those that had it as an older name (an alias). A code that is one
// record's own and another's old name names the first: the old name
// moved on.
//
// An older name counts only written as a code: with an underscore or a
// hyphen (JS_CONSUMER_OFFLINE, a slug), or one word exactly as the alias
// spells it. Older codes were derived from messages, so "invalid value"
// or the word "JetStream" in a log line is prose that happens to spell
// one, not a name the reader gave.
func (ix *Index) byCode(raw string) []int32 {
	code := lex.NormalizeCode(raw)
	if rs := ix.t.ByCode(code); len(rs) > 0 {
		return rs
	}
	if strings.ContainsAny(raw, " \t") {
		return nil // words, not a code: "invalid value" is a message
	}
	rs := ix.t.ByAlias(code)
	if strings.ContainsAny(raw, "_-") {
		return rs
	}
	return slices.DeleteFunc(slices.Clone(rs), func(i int32) bool {
		return !slices.Contains(ix.ds.Records[i].Aliases, raw)
	})
}

// maxSharedCode is how many records a code number may name before it is
// taken as too common to name any (a retry count, a port).
const maxSharedCode = 5

// chunkForms are the ways a piece of a query may name something: as it
// is, and its last qualified component when that is identifier-shaped
// ("nats.JSConsumerOfflineErr", "DbError::SyntaxError").
func chunkForms(c string) []string {
	if _, name, ok := lex.QualifiedName(c); ok {
		return []string{c, name}
	}
	out := []string{c}
	if i := strings.LastIndexAny(c, ".:"); i >= 0 && i+1 < len(c) && identLike(c[i+1:]) {
		out = append(out, c[i+1:])
	}
	return out
}

// importQualified reports whether c is written as a Go name qualified by
// an import path: a path with a '/', a dot, an exported name.
func importQualified(c string) bool {
	i := strings.LastIndexByte(c, '.')
	return i > 0 && i+1 < len(c) && strings.Contains(c[:i], "/") && c[i+1] >= 'A' && c[i+1] <= 'Z'
}

// identLike reports whether s is written like an identifier or code
// rather than a word: with '_', '-', '.' or digits, or in camelCase.
// ALL-CAPS words are not enough: log levels and stream names are written so.
func identLike(s string) bool {
	if len(s) < 3 || lex.IsNumber(s) {
		return false
	}
	prevLower := false
	for _, r := range s {
		if r == '_' || r == '-' || r == '.' || (r >= '0' && r <= '9') || (prevLower && r >= 'A' && r <= 'Z') {
			return true
		}
		prevLower = r >= 'a' && r <= 'z'
	}
	return false
}

// identSpellsName reports whether identifier id contains every word of
// r's class or code.
func identSpellsName(id string, r *errkb.Record) bool {
	have := map[string]bool{}
	for _, w := range strings.Fields(lex.SplitIdentifier(id)) {
		have[w] = true
	}
	for _, name := range []string{r.ErrorClass, r.ErrorCode} {
		words := strings.Fields(lex.SplitIdentifier(name))
		if len(words) < 2 {
			continue
		}
		all := true
		for _, w := range words {
			all = all && have[w]
		}
		if all {
			return true
		}
	}
	return false
}

// codeNumbers returns the numbers of three digits or more that a query
// gives as codes: right after a word that says so ("err_code 20529",
// "ErrorCode == 10045", "vendor code 7731", "db error 40021").
func codeNumbers(chunks []string) []string {
	var out []string
	for i := 1; i < len(chunks); i++ {
		if len(chunks[i]) < 3 || !lex.IsNumber(chunks[i]) {
			continue
		}
		prev := strings.ToLower(chunks[i-1])
		if strings.Contains(prev, "code") || strings.Contains(prev, "err") || prev == "errno" {
			out = append(out, chunks[i])
		}
	}
	return out
}

// isHTTPStatus reports whether a number reads as an HTTP status, which
// API bodies carry next to the error's own code and which many errors
// share.
func isHTTPStatus(s string) bool {
	return len(s) == 3 && s[0] >= '1' && s[0] <= '5'
}

// nearCodes finds codes and classes within a few edits of a short query
// (see lex.CodeKeys). Those of a query written as words are no evidence,
// only did-you-mean when nothing matched well: a.nearLater leaves them to
// didYouMean, which looks for them only then, as building the automata is
// a good part of such a query's cost.
func (ix *Index) nearCodes(a *candidates, whole string) {
	if len(a.u.chunks) > 4 || len(whole) > 64 {
		return
	}
	if !lex.LooksLikeCode(whole) {
		a.nearLater = whole
		return
	}
	a.near = ix.t.NearCodes(lex.CodeKeys(whole, a.u.chunks)...)
	for _, f := range a.near {
		for _, i := range ix.t.CodeKeys(f.Word) {
			e := a.get(i)
			if e.nearCode == 0 || f.Dist < e.nearCode {
				e.nearCode = f.Dist
			}
		}
	}
}
