package tables

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tabfile"
)

// Version is the version of the tables' contents, written into the file
// (see tabfile) and into the index's key: bump it when what a section
// holds changes, so that tables of the old layout are rebuilt, never read.
const Version = 3

// Tables are the lookups that query understanding needs besides bleve:
// records by id, code and class, compiled patterns, the word vocabulary,
// identifiers and templates. They are built with the index (see Part and
// Assemble) and kept beside it as one file of flat arrays (see package
// tabfile), which a restart maps instead of rebuilding. Queries read them
// only through the methods below.
type Tables struct {
	data []byte // the tables file, mapped or in memory; everything points into it

	ids       tabfile.Strings // record ids, sorted
	idRec     []int32         // the record of each of ids
	byCodeP   tabfile.Postings
	byAliasP  tabfile.Postings
	byClassP  tabfile.Postings
	codeKeysP tabfile.Postings
	identsP   tabfile.Postings
	srcIdentP tabfile.Postings
	templP    tabfile.Postings
	templW    []int32 // weight of each entry of templP.IDs
	msgSeqs   tabfile.Strings
	msgW      wordLists
	codeW     wordLists
	projects  map[string][]string

	words    *Vocab // message, pattern, code and class words
	codes    *Vocab // normalized codes and lower-case classes, for near misses
	patterns *pattern.Set

	postingsOnce sync.Once
	wordPost     *WordPostings // see WordPostings
}

// Read points tables into data, a tables file, checking that every
// section is there and consistent with records, the dataset's size.
func Read(data []byte, records int) (*Tables, error) {
	s, err := tabfile.Read(data, Version)
	if err != nil {
		return nil, err
	}
	t := &Tables{
		data:      data,
		ids:       s.Strings("ids"),
		idRec:     tabfile.Slice[int32](s, "ids.rec"),
		byCodeP:   s.Postings("bycode"),
		byAliasP:  s.Postings("byalias"),
		byClassP:  s.Postings("byclass"),
		codeKeysP: s.Postings("codekeys"),
		identsP:   s.Postings("idents"),
		srcIdentP: s.Postings("srcidents"),
		templP:    s.Postings("templates"),
		templW:    tabfile.Slice[int32](s, "templates.weight"),
		msgSeqs:   s.Strings("msgseq"),
		words:     readVocab(s, "words", records),
		codes:     readVocab(s, "codes", records),
	}
	cols := readPatterns(s)
	t.msgW = readWordLists(s, "msgwords", t.words)
	t.codeW = readWordLists(s, "codewords", t.words)
	if err := json.Unmarshal(s.Bytes("projects"), &t.projects); err != nil && s.Err() == nil {
		s.Failf("lookup tables: projects: %w", err)
	}
	if s.Err() != nil {
		return nil, s.Err()
	}
	if t.patterns, err = pattern.NewSet(cols, records); err != nil {
		return nil, err
	}
	if t.ids.Len() != records || len(t.idRec) != records || t.msgSeqs.Len() != records ||
		len(t.msgW.idf) != records || len(t.codeW.idf) != records || len(t.templW) != len(t.templP.IDs) {
		return nil, fmt.Errorf("lookup tables are for another dataset (%d records, want %d)", t.ids.Len(), records)
	}
	for _, l := range []tabfile.Postings{t.byCodeP, t.byAliasP, t.byClassP, t.codeKeysP, t.identsP, t.srcIdentP, t.templP} {
		if !tabfile.AllBelow(l.IDs, records) {
			return nil, errors.New("lookup tables: a record number is out of range")
		}
	}
	if !tabfile.AllBelow(t.idRec, records) {
		return nil, errors.New("lookup tables: a record number is out of range")
	}
	return t, nil
}

// Data is the tables file, for releasing its mapped pages.
func (t *Tables) Data() []byte { return t.data }

// Record returns the position in the dataset of the record with this id.
func (t *Tables) Record(id string) (int32, bool) {
	i, ok := t.ids.Search(id)
	if !ok {
		return 0, false
	}
	return t.idRec[i], true
}

// ByCode lists the records whose lex.NormalizeCode(errorCode) is code.
// The returned slices of these methods are read-only.
func (t *Tables) ByCode(code string) []int32 { return t.byCodeP.Get(code) }

// ByAlias lists the records one of whose aliases, normalized as codes,
// is code.
func (t *Tables) ByAlias(code string) []int32 { return t.byAliasP.Get(code) }

// ByClass lists the records whose lower-case errorClass is class.
func (t *Tables) ByClass(class string) []int32 { return t.byClassP.Get(class) }

// CodeKeys lists the records whose normalized code or lower-case class
// is k (the keys of the codes vocabulary).
func (t *Tables) CodeKeys(k string) []int32 { return t.codeKeysP.Get(k) }

// Idents lists the records whose code, class or handling code
// (typeGuard, exampleFix, ...) uses the lower-case identifier or number
// k, so "JSConsumerOfflineErr" or "10045" finds the record whose guard
// compares against it (see RecordIdents).
func (t *Tables) Idents(k string) []int32 { return t.identsP.Get(k) }

// SrcIdents does the same for the source snippet, whose identifiers (the
// raising function, the error constructor) name the record too, but less
// surely: a snippet also names its neighbours.
func (t *Tables) SrcIdents(k string) []int32 { return t.srcIdentP.Get(k) }

// ProjectRepos maps the joined words of an owner or repo name
// ("lumendb", "nwcache") to the lower-case repos it names: log lines
// often carry the program's name.
func (t *Tables) ProjectRepos(tok string) []string { return t.projects[tok] }

// Templates lists the records whose message or pattern, written with
// placeholders, is k once lower-cased with white space folded
// (lex.NormalizeText): engineers paste the template itself from docs or
// source ("invalid offset %d").
func (t *Tables) Templates(k string) []TemplateRef {
	i, ok := t.templP.Keys.Search(k)
	if !ok {
		return nil
	}
	lo, hi := t.templP.Off[i], t.templP.Off[i+1]
	out := make([]TemplateRef, 0, hi-lo)
	for j := lo; j < hi; j++ {
		out = append(out, TemplateRef{Rec: t.templP.IDs[j], Weight: int(t.templW[j])})
	}
	return out
}

// MsgWords are a record's message words (errorMessage and the literal
// text of its pattern); CodeWords its code and class words.
func (t *Tables) MsgWords(rec int32) WordSet  { return t.msgW.at(rec) }
func (t *Tables) CodeWords(rec int32) WordSet { return t.codeW.at(rec) }

// MsgIDF and CodeIDF are the sums of the IDF of MsgWords(rec) and of
// CodeWords(rec), read without making the sets: a query sums them over
// thousands of records.
func (t *Tables) MsgIDF(rec int32) float64  { return t.msgW.idf[rec] }
func (t *Tables) CodeIDF(rec int32) float64 { return t.codeW.idf[rec] }

// MsgSeq is a record's errorMessage words joined by spaces and padded
// with one, for finding phrases.
func (t *Tables) MsgSeq(rec int32) string { return t.msgSeqs.At(int(rec)) }

// Words is the vocabulary of message, pattern, code and class words.
func (t *Tables) Words() *Vocab { return t.words }

// Codes is the vocabulary of normalized codes and lower-case classes.
func (t *Tables) Codes() *Vocab { return t.codes }

// Patterns are every record's compiled message patterns.
func (t *Tables) Patterns() *pattern.Set { return t.patterns }

// TemplateRef is a record whose message or pattern is a template, with
// the literal letters and digits it pins down.
type TemplateRef struct {
	Rec    int32
	Weight int
}

// wordLists are every record's words as sorted word numbers of a Vocab.
type wordLists struct {
	v   *Vocab
	off []uint32
	ids []uint32
	idf []float64
}

func readWordLists(s *tabfile.Reader, name string, v *Vocab) wordLists {
	l := wordLists{v: v, off: tabfile.Slice[uint32](s, name+".off"), ids: tabfile.Slice[uint32](s, name+".ids"), idf: tabfile.Slice[float64](s, name+".idf")}
	if s.Err() == nil && !tabfile.ValidOffsets(l.off, len(l.idf), len(l.ids)) {
		s.Failf("lookup tables: %s are damaged", name)
	}
	if s.Err() == nil && v != nil {
		for _, id := range l.ids {
			if int(id) >= v.words.Len() {
				s.Failf("lookup tables: %s name an unknown word", name)
				break
			}
		}
	}
	return l
}

func (l wordLists) at(rec int32) WordSet {
	return WordSet{v: l.v, ids: l.ids[l.off[rec]:l.off[rec+1]], IDF: l.idf[rec]}
}

// WordSet is a record's words, sorted, with the sum of their IDF.
type WordSet struct {
	v   *Vocab
	ids []uint32 // word numbers, in the vocabulary's (sorted) order
	IDF float64
}

// Has reports whether w is one of the words.
func (ws WordSet) Has(w string) bool {
	_, ok := slices.BinarySearchFunc(ws.ids, w, func(id uint32, w string) int {
		return strings.Compare(ws.v.words.At(int(id)), w)
	})
	return ok
}
