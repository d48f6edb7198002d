package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/vellum"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
)

// recordTables is what one record contributes to the lookup tables. It is
// computed beside the record's bleve document, on the goroutine that
// indexes it, so the records are read once and on every core; assemble
// then joins all records' parts into the tables file.
//
// Words are numbered (see wordDict): 100,000 records hold millions of
// words but only some hundred thousand distinct ones, and each record's
// parts are kept until all records are read.
type recordTables struct {
	msgWords, codeWords []word // sorted, distinct
	msgSeq              string // errorMessage words joined by spaces, padded
	code, class         word   // NormalizeCode(errorCode), lower-case errorClass
	repo                word   // lower-case
	idents              []word // distinct, sorted
	srcIdents           []word // distinct, in the order found
	patterns            []patternPart
	templates           []templateKey
	// lits are the record's literal messages, lower-cased (see
	// literalText): whether a message goes on from another record's is
	// known only when all records are read (see writePatterns).
	lits []string
}

// word is a word's number in the build's wordDict: the parts hold no
// pointers for the collector to follow, in half the bytes of a pointer.
type word = uint32

// wordDict numbers the words of a build's records, each distinct word
// once; the goroutines indexing records share it.
type wordDict struct {
	mu   sync.Mutex
	num  map[string]word
	strs []string
}

func newWordDict() *wordDict { return &wordDict{num: map[string]word{}} }

// id is s's number. s is copied when new: it may point into a record's
// text, which need not stay in memory.
func (d *wordDict) id(s string) word {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, ok := d.num[s]
	if !ok {
		s = strings.Clone(s)
		n = word(len(d.strs))
		d.strs = append(d.strs, s)
		d.num[s] = n
	}
	return n
}

func (d *wordDict) intern(ss []string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = d.id(s)
	}
	return out
}

// str is w's text; only once no record is being added.
func (d *wordDict) str(w word) string { return d.strs[w] }

func (d *wordDict) words(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = d.strs[w]
	}
	return out
}

// patternPart is a compiledPattern with its words interned, and its
// literal text when it has one (lit, literal).
type patternPart struct {
	expr               string
	weight, prefix     int
	required           []word
	openStart, openEnd bool
	lit                string
	literal            bool
}

// templateKey is a record's message or pattern written as a template.
type templateKey struct {
	key    word // normalizeText of the template
	weight int
}

// newRecordTables computes r's part of the tables; wrapped holds the
// records any record wraps, by id (see wrappedRecords).
func newRecordTables(r *errkb.Record, wrapped map[string]*errkb.Record, d *wordDict) recordTables {
	var rt recordTables
	var patWords []string
	for _, pp := range parseRecordPatterns([]*errkb.Record{r}, wrapped) {
		for _, pc := range pp.pieces {
			if !pc.hole {
				patWords = append(patWords, lex.MessageWords(pc.lit)...)
			}
		}
		lit, literal := literalText(pp.pieces)
		if literal {
			rt.lits = append(rt.lits, lit)
		}
		if m, ok := compilePattern(pp.pieces, pp.expr); ok {
			rt.patterns = append(rt.patterns, patternPart{
				expr: m.expr, weight: m.weight, prefix: m.prefix, required: d.intern(m.required),
				openStart: m.openStart, openEnd: m.openEnd, lit: lit, literal: literal,
			})
		}
		if !isTemplate(pp.pieces) {
			continue // literal text, which the patterns match, or a regexp
		}
		w := 0
		for _, pc := range pp.pieces {
			if !pc.hole {
				w += lex.AlnumCount(pc.lit)
			}
		}
		k := d.id(lex.NormalizeText(templateText(pp.pieces)))
		if w > 0 && !slices.ContainsFunc(rt.templates, func(t templateKey) bool { return t.key == k }) {
			rt.templates = append(rt.templates, templateKey{k, w})
		}
	}
	mw := lex.MessageWords(r.ErrorMessage)
	rt.msgSeq = " " + strings.Join(mw, " ") + " "
	rt.msgWords = d.intern(sortedSet(append(mw, patWords...)))
	rt.codeWords = d.intern(sortedSet(strings.Fields(lex.SplitIdentifier(r.ErrorCode) + " " + lex.SplitIdentifier(r.ErrorClass))))
	rt.code, rt.class = d.id(lex.NormalizeCode(r.ErrorCode)), d.id(strings.ToLower(r.ErrorClass))
	rt.repo = d.id(strings.ToLower(r.Repo))
	named := recordIdents(r)
	rt.idents = d.intern(slices.Sorted(maps.Keys(named)))
	seen := map[string]bool{}
	lex.ScanIdents(r.SourceCode+"\n"+r.Documentation, func(id string) {
		// Numbers in a snippet are sizes, statuses and timeouts, not names.
		// Constants (EWOULDBLOCK) keep their case: lower-cased, they
		// would be words.
		k := strings.ToLower(id)
		if lex.CapsIdent(id) {
			k = id
		}
		if (lex.DistinctiveIdent(id) || lex.CapsIdent(id)) && !lex.IsNumber(id) && !named[k] && !seen[k] {
			seen[k] = true
			rt.srcIdents = append(rt.srcIdents, d.id(k))
		}
	})
	return rt
}

func sortedSet(ws []string) []string {
	slices.Sort(ws)
	return slices.Compact(ws)
}

// postingsBuilder collects, per key, the records (or matchers) in the
// order they are added.
type postingsBuilder map[word][]int32

func (p postingsBuilder) add(k word, i int32) {
	l := p[k]
	if len(l) == 0 || l[len(l)-1] != i {
		p[k] = append(l, i)
	}
}

func (p postingsBuilder) write(w *sectionWriter, d *wordDict, name string) {
	keys := sortedWords(d, p)
	lists := make([][]int32, len(keys))
	for i, k := range keys {
		lists[i] = p[k]
	}
	w.postings(name, d.words(keys), lists)
}

// sortedWords are m's keys in the order of their strings.
func sortedWords[V any](d *wordDict, m map[word]V) []word {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b word) int { return strings.Compare(d.str(a), d.str(b)) })
	return keys
}

// assembleTables joins the records' parts into the bytes of a tables file
// (see tabfile.go); ids are the records' ids, in dataset order, and d
// numbered the parts' words.
func assembleTables(ids []string, parts []recordTables, d *wordDict) ([]byte, error) {
	w := &sectionWriter{}
	n := len(parts)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
	sortedIDs := make([]string, n)
	for i, r := range order {
		sortedIDs[i] = ids[r]
	}
	w.strs("ids", sortedIDs)
	w.i32s("ids.rec", order)

	byCode, byClass, codeKeys := postingsBuilder{}, postingsBuilder{}, postingsBuilder{}
	idents, srcIdents := postingsBuilder{}, postingsBuilder{}
	projects := map[string][]string{}
	df := map[word]int{}
	empty := d.id("")
	for i, rt := range parts {
		rec := int32(i)
		for _, set := range [][]word{rt.msgWords, rt.codeWords} {
			for _, w := range set {
				df[w]++
			}
		}
		for _, w := range rt.msgWords {
			if slices.Contains(rt.codeWords, w) {
				df[w]-- // counted once per record
			}
		}
		if rt.code != empty {
			byCode.add(rt.code, rec)
			codeKeys.add(rt.code, rec)
		}
		if rt.class != empty {
			byClass.add(rt.class, rec)
			codeKeys.add(rt.class, rec)
		}
		repo := d.str(rt.repo)
		for _, part := range strings.SplitN(repo, "/", 2) {
			if k := strings.Join(lex.Words(part), ""); len(k) >= 4 && !slices.Contains(projects[k], repo) {
				projects[k] = append(projects[k], repo)
			}
		}
		for _, id := range rt.idents {
			idents.add(id, rec)
		}
		for _, id := range rt.srcIdents {
			srcIdents.add(id, rec)
		}
	}
	byCode.write(w, d, "bycode")
	byClass.write(w, d, "byclass")
	codeKeys.write(w, d, "codekeys")
	idents.write(w, d, "idents")
	srcIdents.write(w, d, "srcidents")
	pj, err := json.Marshal(projects)
	if err != nil {
		return nil, err
	}
	w.bytes("projects", pj)

	words, err := writeVocab(w, d, "words", df)
	if err != nil {
		return nil, fmt.Errorf("word vocabulary: %w", err)
	}
	codeDF := map[word]int{}
	for k, l := range codeKeys {
		codeDF[k] = len(l)
	}
	if _, err := writeVocab(w, d, "codes", codeDF); err != nil {
		return nil, fmt.Errorf("code vocabulary: %w", err)
	}
	writeWordSets(w, "msgwords", parts, words, df, func(rt *recordTables) []word { return rt.msgWords })
	writeWordSets(w, "codewords", parts, words, df, func(rt *recordTables) []word { return rt.codeWords })
	seqs := make([]string, n)
	for i := range parts {
		seqs[i] = parts[i].msgSeq
	}
	w.strs("msgseq", seqs)
	writeTemplates(w, d, parts)
	writePatterns(w, d, parts)
	return w.finish(), nil
}

// writeVocab writes the sorted words with their document frequencies, and
// an FST of them for typo correction; it returns each word's number.
func writeVocab(w *sectionWriter, d *wordDict, name string, df map[word]int) (map[word]uint32, error) {
	keys := sortedWords(d, df)
	counts := make([]uint32, len(keys))
	num := make(map[word]uint32, len(keys))
	var buf bytes.Buffer
	b, err := vellum.New(&buf, nil)
	if err != nil {
		return nil, err
	}
	for i, k := range keys {
		counts[i] = uint32(df[k])
		num[k] = uint32(i)
		if err := b.Insert([]byte(d.str(k)), uint64(df[k])); err != nil {
			return nil, err
		}
	}
	if err := b.Close(); err != nil {
		return nil, err
	}
	w.strs(name, d.words(keys))
	w.u32s(name+".df", counts)
	w.bytes(name+".fst", buf.Bytes())
	return num, nil
}

// writeWordSets writes each record's words as sorted word numbers, and
// the sum of their IDF.
func writeWordSets(w *sectionWriter, name string, parts []recordTables, num map[word]uint32, df map[word]int, of func(*recordTables) []word) {
	off := make([]uint32, 1, len(parts)+1)
	var ids []uint32
	sums := make([]float64, len(parts))
	for i := range parts {
		for _, word := range of(&parts[i]) {
			ids = append(ids, num[word])
			sums[i] += idf(len(parts), df[word])
		}
		off = append(off, uint32(len(ids)))
	}
	w.u32s(name+".off", off)
	w.u32s(name+".ids", ids)
	w.f64s(name+".idf", sums)
}

// writeTemplates writes the template keys with their records and weights.
func writeTemplates(w *sectionWriter, d *wordDict, parts []recordTables) {
	type ref struct{ rec, weight int32 }
	refs := map[word][]ref{}
	for i, rt := range parts {
		for _, t := range rt.templates {
			refs[t.key] = append(refs[t.key], ref{int32(i), int32(t.weight)})
		}
	}
	keys := sortedWords(d, refs)
	lists := make([][]int32, len(keys))
	var weights []int32
	for i, k := range keys {
		for _, r := range refs[k] {
			lists[i] = append(lists[i], r.rec)
			weights = append(weights, r.weight)
		}
	}
	w.postings("templates", d.words(keys), lists)
	w.i32s("templates.weight", weights)
}

// writePatterns writes every record's compiled patterns, in record order,
// with an index from each pattern's rarest required word to the patterns
// it keys. A literal message is open at an end no other record's message
// goes on from, so it needs all records' messages.
func writePatterns(w *sectionWriter, d *wordDict, parts []recordTables) {
	var (
		recs, weights  []int32
		prefixes, ends []int32
		exprs          []string
		req            []word
		reqOff         = []uint32{0}
		lits           []string
	)
	for _, rt := range parts {
		lits = append(lits, rt.lits...)
	}
	ext := newExtensions(lits)
	df := map[word]int{}
	for i, rt := range parts {
		for _, m := range rt.patterns {
			openStart, openEnd := true, true
			if m.literal {
				openStart = m.openStart || !ext.continued(m.lit, true)
				openEnd = m.openEnd || !ext.continued(m.lit, false)
			}
			var e int32
			if openStart {
				e |= openStartBit
			}
			if openEnd {
				e |= openEndBit
			}
			ends = append(ends, e)
			prefixes = append(prefixes, int32(m.prefix))
			recs = append(recs, int32(i))
			weights = append(weights, int32(m.weight))
			exprs = append(exprs, m.expr)
			req = append(req, m.required...)
			reqOff = append(reqOff, uint32(len(req)))
			for _, w := range m.required {
				df[w]++
			}
		}
	}
	byWord := postingsBuilder{}
	var always []int32
	for i := range recs {
		words := req[reqOff[i]:reqOff[i+1]]
		if len(words) == 0 {
			always = append(always, int32(i))
			continue
		}
		key := words[0]
		for _, w := range words[1:] {
			if df[w] < df[key] {
				key = w
			}
		}
		byWord.add(key, int32(i))
	}
	w.i32s("patterns.rec", recs)
	w.i32s("patterns.weight", weights)
	w.i32s("patterns.prefix", prefixes)
	w.i32s("patterns.ends", ends)
	w.strs("patterns.expr", exprs)
	w.strs("patterns.req", d.words(req))
	w.u32s("patterns.reqoff", reqOff)
	byWord.write(w, d, "patterns.byword")
	w.i32s("patterns.always", always)
}

// buildTables makes the tables file of recs without indexing them.
func buildTables(recs []*errkb.Record) ([]byte, error) {
	ids := make([]string, len(recs))
	parts := make([]recordTables, len(recs))
	wrapped := wrappedRecords(recs)
	d := newWordDict()
	for i, r := range recs {
		ids[i], parts[i] = r.ID, newRecordTables(r, wrapped, d)
	}
	return assembleTables(ids, parts, d)
}
