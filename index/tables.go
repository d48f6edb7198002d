package index

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/errkb/errkb"
)

// tables are the in-memory lookups that query understanding needs besides
// bleve: compiled patterns, the word vocabulary, and identifiers. They are
// derived from the records alone and cheap to rebuild at start-up (see
// BenchmarkBuildTables), so a persisted bleve index needs no copy of them.
type tables struct {
	recByID  map[string]int32
	patterns *patternSet
	words    *vocab // message, pattern, code and class words
	codes    *vocab // normalized codes and lower-case classes, for near misses
	codeKeys map[string][]int32
	// projects maps the joined words of each owner and repo name
	// ("lumendb", "nwcache", "tidepool") to the lower-case repos it names:
	// log lines often carry the program's name.
	projects map[string][]string
	// idents maps lower-case identifiers and numbers found in a record's
	// code, class and handling code (typeGuard, exampleFix, ...) to the
	// records that use them, so "JSConsumerOfflineErr" or "10045" finds
	// the record whose guard compares against it.
	idents map[string][]int32
	// srcIdents does the same for the source snippet, whose identifiers
	// (the raising function, the error constructor) name the record too,
	// but less surely: a snippet also names its neighbours.
	srcIdents map[string][]int32
	// msgWords are each record's message words (errorMessage and the
	// literal text of its pattern), codeWords its code and class words.
	msgWords  []wordSet
	codeWords []wordSet
	msgSeq    []string // errorMessage words joined by spaces, padded, for phrases
	// templates maps a message or pattern written with placeholders,
	// lower-cased with white space folded, to its records: engineers paste
	// the template itself from docs or source ("invalid offset %d").
	templates map[string][]templateRef
}

// templateRef is a record whose message or pattern is a template, with
// the literal letters and digits it pins down.
type templateRef struct {
	rec    int32
	weight int
}

// wordSet is a record's words, sorted, with the sum of their IDF. A
// sorted slice, not a map: ten thousand records' maps weighed tens of
// megabytes, and a record has a dozen words.
type wordSet struct {
	words []string
	idf   float64
}

func newWordSet(m map[string]bool) wordSet {
	ws := wordSet{words: make([]string, 0, len(m))}
	for w := range m {
		ws.words = append(ws.words, w)
	}
	slices.Sort(ws.words)
	return ws
}

// has reports whether w is one of the words.
func (ws wordSet) has(w string) bool {
	_, ok := slices.BinarySearch(ws.words, w)
	return ok
}

func newTables(recs []*errkb.Record) (*tables, error) {
	t := &tables{
		recByID:   make(map[string]int32, len(recs)),
		codeKeys:  map[string][]int32{},
		projects:  map[string][]string{},
		idents:    map[string][]int32{},
		srcIdents: map[string][]int32{},
		msgWords:  make([]wordSet, len(recs)),
		codeWords: make([]wordSet, len(recs)),
		msgSeq:    make([]string, len(recs)),
		templates: map[string][]templateRef{},
	}
	parsed := parseRecordPatterns(recs)
	t.patterns = newPatternSet(parsed)
	patWords := make([][]string, len(recs))
	for _, pp := range parsed {
		for _, pc := range pp.pieces {
			if !pc.hole {
				patWords[pp.rec] = append(patWords[pp.rec], messageWords(pc.lit)...)
			}
		}
		if !isTemplate(pp.pieces) {
			continue // literal text, which the patterns match, or a regexp
		}
		w := 0
		for _, pc := range pp.pieces {
			if !pc.hole {
				w += alnumCount(pc.lit)
			}
		}
		k := normalizeText(templateText(pp.pieces))
		if w > 0 && !containsRef(t.templates[k], pp.rec) {
			t.templates[k] = append(t.templates[k], templateRef{pp.rec, w})
		}
	}
	df := map[string]int{}
	codeDF := map[string]int{}
	for i, r := range recs {
		t.recByID[r.ID] = int32(i)
		mw := messageWords(r.ErrorMessage)
		t.msgSeq[i] = " " + strings.Join(mw, " ") + " "
		msg := map[string]bool{}
		for _, w := range append(mw, patWords[i]...) {
			msg[w] = true
		}
		code := map[string]bool{}
		for _, w := range strings.Fields(splitIdentifier(r.ErrorCode) + " " + splitIdentifier(r.ErrorClass)) {
			code[w] = true
		}
		t.msgWords[i], t.codeWords[i] = newWordSet(msg), newWordSet(code)
		seen := map[string]bool{}
		for _, set := range []map[string]bool{msg, code} {
			for w := range set {
				if !seen[w] {
					seen[w] = true
					df[w]++
				}
			}
		}
		for _, k := range []string{NormalizeCode(r.ErrorCode), strings.ToLower(r.ErrorClass)} {
			if k != "" && !containsIdx(t.codeKeys[k], int32(i)) {
				t.codeKeys[k] = append(t.codeKeys[k], int32(i))
				codeDF[k]++
			}
		}
		repo := strings.ToLower(r.Repo)
		for _, part := range strings.SplitN(repo, "/", 2) {
			if k := strings.Join(wordsOf(part), ""); len(k) >= 4 && !slices.Contains(t.projects[k], repo) {
				t.projects[k] = append(t.projects[k], repo)
			}
		}
		named := recordIdents(r)
		for id := range named {
			t.idents[id] = append(t.idents[id], int32(i))
		}
		scanIdents(r.SourceCode+"\n"+r.Documentation, func(id string) {
			// Numbers in a snippet are sizes, statuses and timeouts, not names.
			// Constants (EWOULDBLOCK) keep their case: lower-cased, they
			// would be words.
			k := strings.ToLower(id)
			if capsIdent(id) {
				k = id
			}
			if (distinctiveIdent(id) || capsIdent(id)) && !isNumber(id) && !named[k] && !containsIdx(t.srcIdents[k], int32(i)) {
				t.srcIdents[k] = append(t.srcIdents[k], int32(i))
			}
		})
	}
	var err error
	if t.words, err = newVocab(df, len(recs)); err != nil {
		return nil, fmt.Errorf("word vocabulary: %w", err)
	}
	if t.codes, err = newVocab(codeDF, len(recs)); err != nil {
		return nil, fmt.Errorf("code vocabulary: %w", err)
	}
	for i := range recs {
		for _, ws := range []*wordSet{&t.msgWords[i], &t.codeWords[i]} {
			for _, w := range ws.words {
				ws.idf += t.words.idf(w)
			}
		}
	}
	return t, nil
}

func containsIdx(s []int32, i int32) bool {
	for _, v := range s {
		if v == i {
			return true
		}
	}
	return false
}

func containsRef(s []templateRef, i int32) bool {
	for _, v := range s {
		if v.rec == i {
			return true
		}
	}
	return false
}

// isTemplate reports whether pieces come from a template with printf or
// {name} placeholders (a regexp's holes keep no text).
func isTemplate(pieces []piece) bool {
	holes := 0
	for _, pc := range pieces {
		if pc.hole {
			if pc.lit == "" {
				return false
			}
			holes++
		}
	}
	return holes > 0
}

// templateText is the text a pattern was written as, from its pieces
// (regexp pieces lose their syntax, so only templates round-trip; a
// regexp pasted as such is rare).
func templateText(pieces []piece) string {
	var b strings.Builder
	for _, pc := range pieces {
		b.WriteString(pc.lit)
	}
	return b.String()
}

// scanIdents calls f with each identifier ([A-Za-z_][A-Za-z0-9_]*) and
// each number of three digits or more in code. It is a hand-written
// scanner because regexp made it the largest cost of start-up.
func scanIdents(s string, f func(string)) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			f(s[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j-i >= 3 {
				f(s[i:j])
			}
			for j < len(s) && isIdentByte(s[j]) {
				j++ // the rest of "10ms" or "0x1f"
			}
			i = j
		default:
			i++
		}
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// recordIdents collects the identifiers that name a record in code: its
// code and class, the distinctive identifiers and numbers (3+ digits)
// of its handling code, its own numeric code, and its package-qualified
// names (see qualifiedNames). sourceCode is left out: the snippet around the
// raise site names many other errors.
func recordIdents(r *errkb.Record) map[string]bool {
	out := map[string]bool{}
	for _, s := range []string{r.ErrorCode, r.ErrorClass, r.TypeGuard, r.ExampleFix, r.ValidationCode, r.TryCatchPattern} {
		scanIdents(s, func(id string) {
			if distinctiveIdent(id) {
				out[strings.ToLower(id)] = true
			}
		})
	}
	qualifiedNames(r, func(q string) { out[q] = true })
	if r.NumericCode != nil {
		out[strconv.Itoa(*r.NumericCode)] = true
	}
	return out
}

// distinctiveIdent keeps identifiers that can name one error: numbers of
// three digits or more, and names of six characters or more written in
// camelCase, snake_case or with digits. Plain words, capitalized or not
// ("errors", "CONSUMER"), are left to text search.
func distinctiveIdent(s string) bool {
	if len(s) < 3 {
		return false
	}
	if s[0] >= '0' && s[0] <= '9' {
		return true
	}
	if len(s) < 6 {
		return false
	}
	prevLower := false
	for _, r := range s {
		if r == '_' || unicode.IsDigit(r) || (prevLower && unicode.IsUpper(r)) {
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}
