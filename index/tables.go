package index

import (
	"fmt"
	"regexp"
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

// wordSet is a record's words with the sum of their IDF.
type wordSet struct {
	words map[string]bool
	idf   float64
}

func newTables(recs []*errkb.Record) (*tables, error) {
	t := &tables{
		recByID:   make(map[string]int32, len(recs)),
		codeKeys:  map[string][]int32{},
		idents:    map[string][]int32{},
		srcIdents: map[string][]int32{},
		msgWords:  make([]wordSet, len(recs)),
		codeWords: make([]wordSet, len(recs)),
		msgSeq:    make([]string, len(recs)),
		templates: map[string][]templateRef{},
	}
	t.patterns = newPatternSet(recs)
	df := map[string]int{}
	codeDF := map[string]int{}
	for i, r := range recs {
		t.recByID[r.ID] = int32(i)
		mw := messageWords(r.ErrorMessage)
		t.msgSeq[i] = " " + strings.Join(mw, " ") + " "
		msg := map[string]bool{}
		for _, w := range append(mw, patternWords(r.MessagePattern)...) {
			msg[w] = true
		}
		code := map[string]bool{}
		for _, w := range strings.Fields(splitIdentifier(r.ErrorCode) + " " + splitIdentifier(r.ErrorClass)) {
			code[w] = true
		}
		t.msgWords[i].words, t.codeWords[i].words = msg, code
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
		for _, p := range []string{r.MessagePattern, r.ErrorMessage} {
			pieces, _ := parsePattern(p)
			if len(pieces) < 2 && (len(pieces) == 0 || !pieces[0].hole) {
				continue // literal text: the patterns already match it
			}
			w := 0
			for _, pc := range pieces {
				if !pc.hole {
					w += alnumCount(pc.lit)
				}
			}
			k := normalizeText(p)
			if w > 0 && !containsRef(t.templates[k], int32(i)) {
				t.templates[k] = append(t.templates[k], templateRef{int32(i), w})
			}
		}
		named := recordIdents(r)
		for id := range named {
			t.idents[id] = append(t.idents[id], int32(i))
		}
		for _, id := range identRE.FindAllString(r.SourceCode, -1) {
			// Numbers in a snippet are sizes, statuses and timeouts, not names.
			if k := strings.ToLower(id); distinctiveIdent(id) && !isNumber(id) && !named[k] && !containsIdx(t.srcIdents[k], int32(i)) {
				t.srcIdents[k] = append(t.srcIdents[k], int32(i))
			}
		}
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
			for w := range ws.words {
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

// patternWords are the words of a pattern's literal text.
func patternWords(p string) []string {
	if strings.TrimSpace(p) == "" {
		return nil
	}
	pieces, _ := parsePattern(p)
	var out []string
	for _, pc := range pieces {
		if !pc.hole {
			out = append(out, messageWords(pc.lit)...)
		}
	}
	return out
}

// identRE finds identifiers and numbers in code.
var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|\d{3,}`)

// recordIdents collects the identifiers that name a record in code: its
// code and class, and the distinctive identifiers and numbers (3+ digits)
// of its handling code. sourceCode is left out: the snippet around the
// raise site names many other errors.
func recordIdents(r *errkb.Record) map[string]bool {
	out := map[string]bool{}
	for _, s := range []string{r.ErrorCode, r.ErrorClass, r.TypeGuard, r.ExampleFix, r.ValidationCode, r.TryCatchPattern} {
		for _, id := range identRE.FindAllString(s, -1) {
			if distinctiveIdent(id) {
				out[strings.ToLower(id)] = true
			}
		}
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
