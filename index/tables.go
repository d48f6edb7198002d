package index

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// tables are the lookups that query understanding needs besides bleve:
// records by id, code and class, compiled patterns, the word vocabulary,
// identifiers and templates. They are built with the index (see
// tablebuild.go) and kept beside it as one file of flat arrays (see
// tabfile.go), which a restart maps instead of rebuilding. Queries read
// them only through the methods below.
type tables struct {
	data []byte // the tables file, mapped or in memory; everything points into it

	ids       strList // record ids, sorted
	idRec     []int32 // the record of each of ids
	byCodeP   postingList
	byClassP  postingList
	codeKeysP postingList
	identsP   postingList
	srcIdentP postingList
	templP    postingList
	templW    []int32 // weight of each entry of templP.ids
	msgSeqs   strList
	msgW      wordLists
	codeW     wordLists
	projects  map[string][]string

	words    *vocab // message, pattern, code and class words
	codes    *vocab // normalized codes and lower-case classes, for near misses
	patterns *patternSet

	postingsOnce sync.Once
	wordPost     *wordPostings // see postings
}

// readTables points tables into data, a tables file, checking that every
// section is there and consistent with records, the dataset's size.
func readTables(data []byte, records int) (*tables, error) {
	s, err := readSections(data)
	if err != nil {
		return nil, err
	}
	t := &tables{
		data:      data,
		ids:       s.strList("ids"),
		idRec:     sectionSlice[int32](s, "ids.rec"),
		byCodeP:   s.postings("bycode"),
		byClassP:  s.postings("byclass"),
		codeKeysP: s.postings("codekeys"),
		identsP:   s.postings("idents"),
		srcIdentP: s.postings("srcidents"),
		templP:    s.postings("templates"),
		templW:    sectionSlice[int32](s, "templates.weight"),
		msgSeqs:   s.strList("msgseq"),
		words:     s.vocab("words", records),
		codes:     s.vocab("codes", records),
		patterns:  s.patternSet(),
	}
	t.msgW = s.wordLists("msgwords", t.words)
	t.codeW = s.wordLists("codewords", t.words)
	if err := json.Unmarshal(s.section("projects"), &t.projects); err != nil && s.err == nil {
		s.err = fmt.Errorf("lookup tables: projects: %w", err)
	}
	if s.err != nil {
		return nil, s.err
	}
	if t.ids.len() != records || len(t.idRec) != records || t.msgSeqs.len() != records ||
		len(t.msgW.idf) != records || len(t.codeW.idf) != records || len(t.templW) != len(t.templP.ids) {
		return nil, fmt.Errorf("lookup tables are for another dataset (%d records, want %d)", t.ids.len(), records)
	}
	for _, l := range []postingList{t.byCodeP, t.byClassP, t.codeKeysP, t.identsP, t.srcIdentP, t.templP} {
		if !allBelow(l.ids, records) {
			return nil, errors.New("lookup tables: a record number is out of range")
		}
	}
	if !allBelow(t.idRec, records) || !allBelow(t.patterns.rec, records) {
		return nil, errors.New("lookup tables: a record number is out of range")
	}
	return t, nil
}

func allBelow(v []int32, n int) bool {
	for _, x := range v {
		if x < 0 || int(x) >= n {
			return false
		}
	}
	return true
}

// record returns the position in the dataset of the record with this id.
func (t *tables) record(id string) (int32, bool) {
	i, ok := t.ids.search(id)
	if !ok {
		return 0, false
	}
	return t.idRec[i], true
}

// byCode lists the records whose NormalizeCode(errorCode) is code. The
// returned slices of these methods are read-only.
func (t *tables) byCode(code string) []int32 { return t.byCodeP.get(code) }

// byClass lists the records whose lower-case errorClass is class.
func (t *tables) byClass(class string) []int32 { return t.byClassP.get(class) }

// codeKeys lists the records whose normalized code or lower-case class
// is k (the keys of the codes vocabulary).
func (t *tables) codeKeys(k string) []int32 { return t.codeKeysP.get(k) }

// idents lists the records whose code, class or handling code
// (typeGuard, exampleFix, ...) uses the lower-case identifier or number
// k, so "JSConsumerOfflineErr" or "10045" finds the record whose guard
// compares against it.
func (t *tables) idents(k string) []int32 { return t.identsP.get(k) }

// srcIdents does the same for the source snippet, whose identifiers (the
// raising function, the error constructor) name the record too, but less
// surely: a snippet also names its neighbours.
func (t *tables) srcIdents(k string) []int32 { return t.srcIdentP.get(k) }

// projectRepos maps the joined words of an owner or repo name
// ("lumendb", "nwcache") to the lower-case repos it names: log lines
// often carry the program's name.
func (t *tables) projectRepos(tok string) []string { return t.projects[tok] }

// templates lists the records whose message or pattern, written with
// placeholders, is k once lower-cased with white space folded
// (normalizeText): engineers paste the template itself from docs or
// source ("invalid offset %d").
func (t *tables) templates(k string) []templateRef {
	i, ok := t.templP.keys.search(k)
	if !ok {
		return nil
	}
	lo, hi := t.templP.off[i], t.templP.off[i+1]
	out := make([]templateRef, 0, hi-lo)
	for j := lo; j < hi; j++ {
		out = append(out, templateRef{rec: t.templP.ids[j], weight: int(t.templW[j])})
	}
	return out
}

// msgWords are a record's message words (errorMessage and the literal
// text of its pattern); codeWords its code and class words.
func (t *tables) msgWords(rec int32) wordSet  { return t.msgW.at(rec) }
func (t *tables) codeWords(rec int32) wordSet { return t.codeW.at(rec) }

// msgSeq is a record's errorMessage words joined by spaces and padded
// with one, for finding phrases.
func (t *tables) msgSeq(rec int32) string { return t.msgSeqs.at(int(rec)) }

// templateRef is a record whose message or pattern is a template, with
// the literal letters and digits it pins down.
type templateRef struct {
	rec    int32
	weight int
}

// wordLists are every record's words as sorted word numbers of a vocab.
type wordLists struct {
	v   *vocab
	off []uint32
	ids []uint32
	idf []float64
}

func (s *sections) wordLists(name string, v *vocab) wordLists {
	l := wordLists{v: v, off: sectionSlice[uint32](s, name+".off"), ids: sectionSlice[uint32](s, name+".ids"), idf: sectionSlice[float64](s, name+".idf")}
	if s.err == nil && !validOffsets(l.off, len(l.idf), len(l.ids)) {
		s.err = fmt.Errorf("lookup tables: %s are damaged", name)
	}
	if s.err == nil && v != nil {
		for _, id := range l.ids {
			if int(id) >= v.words.len() {
				s.err = fmt.Errorf("lookup tables: %s name an unknown word", name)
				break
			}
		}
	}
	return l
}

func (l wordLists) at(rec int32) wordSet {
	return wordSet{v: l.v, ids: l.ids[l.off[rec]:l.off[rec+1]], idf: l.idf[rec]}
}

// wordSet is a record's words, sorted, with the sum of their IDF.
type wordSet struct {
	v   *vocab
	ids []uint32 // word numbers, in the vocabulary's (sorted) order
	idf float64
}

// has reports whether w is one of the words.
func (ws wordSet) has(w string) bool {
	_, ok := slices.BinarySearchFunc(ws.ids, w, func(id uint32, w string) int {
		return strings.Compare(ws.v.words.at(int(id)), w)
	})
	return ok
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

// recordIdents collects the identifiers that name a record in code: its
// code and class, the distinctive identifiers and numbers (3+ digits)
// of its handling code, its own numeric code, and its package-qualified
// names (see qualifiedNames). sourceCode is left out: the snippet around the
// raise site names many other errors.
func recordIdents(r *errkb.Record) map[string]bool {
	out := map[string]bool{}
	for _, s := range []string{r.ErrorCode, r.ErrorClass, r.TypeGuard, r.ExampleFix, r.ValidationCode, r.TryCatchPattern} {
		lex.ScanIdents(s, func(id string) {
			if lex.DistinctiveIdent(id) {
				out[strings.ToLower(id)] = true
			}
		})
	}
	lex.QualifiedNames(r, func(q string) { out[q] = true })
	if r.NumericCode != nil {
		out[strconv.Itoa(*r.NumericCode)] = true
	}
	return out
}
