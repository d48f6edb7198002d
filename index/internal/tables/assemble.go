package tables

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/blevesearch/vellum"
	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tabfile"
)

// postingsBuilder collects, per key, the records (or matchers) in the
// order they are added.
type postingsBuilder map[word][]int32

func (p postingsBuilder) add(k word, i int32) {
	l := p[k]
	if len(l) == 0 || l[len(l)-1] != i {
		p[k] = append(l, i)
	}
}

func (p postingsBuilder) write(w *tabfile.Writer, d *Dict, name string) {
	keys := sortedWords(d, p)
	lists := make([][]int32, len(keys))
	for i, k := range keys {
		lists[i] = p[k]
	}
	w.Postings(name, d.words(keys), lists)
}

// sortedWords are m's keys in the order of their strings.
func sortedWords[V any](d *Dict, m map[word]V) []word {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b word) int { return strings.Compare(d.str(a), d.str(b)) })
	return keys
}

// Assemble joins the records' parts into the bytes of a tables file (see
// package tabfile); ids are the records' ids, in dataset order, and d
// numbered the parts' words.
func Assemble(ids []string, parts []Part, d *Dict) ([]byte, error) {
	w := &tabfile.Writer{}
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
	w.Strings("ids", sortedIDs)
	w.Int32s("ids.rec", order)

	byCode, byAlias, byClass, codeKeys := postingsBuilder{}, postingsBuilder{}, postingsBuilder{}, postingsBuilder{}
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
		for _, a := range rt.aliases {
			// An alias is an older code: old links and scripts use it.
			if a != empty {
				byAlias.add(a, rec)
				codeKeys.add(a, rec)
			}
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
	byAlias.write(w, d, "byalias")
	byClass.write(w, d, "byclass")
	codeKeys.write(w, d, "codekeys")
	idents.write(w, d, "idents")
	srcIdents.write(w, d, "srcidents")
	pj, err := json.Marshal(projects)
	if err != nil {
		return nil, err
	}
	w.Bytes("projects", pj)

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
	writeWordSets(w, "msgwords", parts, words, df, func(rt *Part) []word { return rt.msgWords })
	writeWordSets(w, "codewords", parts, words, df, func(rt *Part) []word { return rt.codeWords })
	seqs := make([]string, n)
	for i := range parts {
		seqs[i] = parts[i].msgSeq
	}
	w.Strings("msgseq", seqs)
	writeTemplates(w, d, parts)
	writePatterns(w, d, parts)
	return w.Finish(Version), nil
}

// writeVocab writes the sorted words with their document frequencies, and
// an FST of them for typo correction; it returns each word's number.
func writeVocab(w *tabfile.Writer, d *Dict, name string, df map[word]int) (map[word]uint32, error) {
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
	w.Strings(name, d.words(keys))
	w.Uint32s(name+".df", counts)
	w.Bytes(name+".fst", buf.Bytes())
	return num, nil
}

// writeWordSets writes each record's words as sorted word numbers, and
// the sum of their IDF.
func writeWordSets(w *tabfile.Writer, name string, parts []Part, num map[word]uint32, df map[word]int, of func(*Part) []word) {
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
	w.Uint32s(name+".off", off)
	w.Uint32s(name+".ids", ids)
	w.Float64s(name+".idf", sums)
}

// writeTemplates writes the template keys with their records and weights.
func writeTemplates(w *tabfile.Writer, d *Dict, parts []Part) {
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
	w.Postings("templates", d.words(keys), lists)
	w.Int32s("templates.weight", weights)
}

// Build makes the tables file of recs without indexing them.
func Build(recs []*errkb.Record) ([]byte, error) {
	ids := make([]string, len(recs))
	parts := make([]Part, len(recs))
	shared := pattern.SharedOf(recs)
	d := NewDict()
	for i, r := range recs {
		ids[i], parts[i] = r.ID, NewPart(r, shared, d)
	}
	return Assemble(ids, parts, d)
}
