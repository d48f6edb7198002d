package index

import (
	"strings"

	"github.com/errkb/errkb"
)

// evidence is what one query says about one record. Ranking adds it up;
// Lookup's confidence reads its strongest part.
type evidence struct {
	rec   int32
	id    bool
	code  int // 2: the whole query is the record's code; 1: one piece of it is
	class int // likewise for errorClass
	// ident sums, over identifiers of the record's code found in the
	// query, 1/(records using the identifier).
	ident float64
	// keyedIdent: a number under a code-like key, or the whole query, is an
	// identifier of this record and of no other.
	keyedIdent bool
	nearCode   int // edits between the query and the record's code or class; 0: not near
	pattern    patternHit
	text       float64 // 0..1: how well query and message words cover each other
	phrase     bool    // the query's words occur in this order in the message
	bleve      float64 // 0..1: bleve's relevance over all fields, for prose matches
	score      float64
}

// analysis is a query understood against this index's tables.
type analysis struct {
	u           *understood
	corrections map[string]string // unknown word -> nearest known word
	words       []string          // query words, corrected, each once
	ev          map[int32]*evidence
	near        []fuzzyWord // codes and classes near the query, for did-you-mean
}

func (a *analysis) get(rec int32) *evidence {
	e := a.ev[rec]
	if e == nil {
		e = &evidence{rec: rec}
		a.ev[rec] = e
	}
	return e
}

// analyze gathers all evidence that does not need bleve: ids, codes,
// classes, identifiers, near codes and patterns, and corrects typos.
func (ix *Index) analyze(u *understood) *analysis {
	a := &analysis{u: u, corrections: map[string]string{}, ev: map[int32]*evidence{}}
	ix.identify(a)
	ix.correct(a)
	hits := map[int32]patternHit{}
	ix.t.patterns.match(u.segments, u.tokens, false, hits)
	if len(a.corrections) > 0 {
		segs, tokens := correctedSegments(u.segments, a.corrections)
		ix.t.patterns.match(segs, tokens, true, hits)
	}
	for rec, h := range hits {
		a.get(rec).pattern = h
	}
	return a
}

// identify finds ids, codes, classes and code identifiers, first in the
// whole query and then in each of its pieces.
func (ix *Index) identify(a *analysis) {
	u := a.u
	recs := ix.indexes
	whole := strings.Join(strings.Fields(u.raw), " ")
	if i, ok := ix.t.recByID[whole]; ok {
		a.get(i).id = true
	}
	for _, i := range recs(ix.byCode[NormalizeCode(whole)]) {
		a.get(i).code = 2
	}
	for _, i := range recs(ix.byClass[strings.ToLower(whole)]) {
		a.get(i).class = 2
	}
	for _, c := range u.chunks {
		for _, p := range chunkForms(c) {
			if i, ok := ix.t.recByID[p]; ok {
				a.get(i).id = true
			}
			if !isNumber(p) {
				for _, i := range recs(ix.byCode[NormalizeCode(p)]) {
					e := a.get(i)
					e.code = max(e.code, 1)
				}
			}
			for _, i := range recs(ix.byClass[strings.ToLower(p)]) {
				e := a.get(i)
				e.class = max(e.class, 1)
			}
			for _, i := range ix.t.idents[strings.ToLower(p)] {
				a.get(i).ident += 1 / float64(len(ix.t.idents[strings.ToLower(p)]))
			}
		}
	}
	keyed := u.keyedNumbers
	if len(u.chunks) == 1 {
		keyed = append(keyed, u.chunks[0])
	}
	for _, k := range keyed {
		k = strings.ToLower(strings.TrimSpace(k))
		for _, i := range recs(ix.byCode[NormalizeCode(k)]) {
			e := a.get(i)
			e.code = max(e.code, 1)
		}
		if rs := ix.t.idents[k]; len(rs) == 1 {
			a.get(rs[0]).keyedIdent = true
		}
	}
	if len(a.ev) == 0 {
		ix.nearCodes(a, whole)
	}
}

// indexes maps records to their positions in the dataset.
func (ix *Index) indexes(rs []*errkb.Record) []int32 {
	out := make([]int32, 0, len(rs))
	for _, r := range rs {
		out = append(out, ix.t.recByID[r.ID])
	}
	return out
}

// chunkForms are the ways a piece of a query may name something: as it
// is, and its last dotted component ("nats.JSConsumerOfflineErr").
func chunkForms(c string) []string {
	out := []string{c}
	if i := strings.LastIndexByte(c, '.'); i >= 0 && i+1 < len(c) {
		out = append(out, c[i+1:])
	}
	return out
}

func isNumber(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// codeEdits is how many wrong letters a code of n characters may have and
// still be recognized.
func codeEdits(n int) int {
	switch {
	case n < 5:
		return 0
	case n <= 10:
		return 1
	}
	return 2
}

// looksLikeCode reports whether a short query is written like a code or a
// class (JS_CONSUMER_OFLINE, js-consumer-offline, JSConsumerOflineError)
// rather than as words, where a near code would be a guess.
func looksLikeCode(s string) bool {
	if strings.ContainsAny(s, "_-") {
		return true
	}
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// nearCodes finds codes and classes within a few edits of a short query.
func (ix *Index) nearCodes(a *analysis, whole string) {
	if len(a.u.chunks) > 4 || len(whole) > 64 {
		return
	}
	seen := map[string]bool{}
	for _, key := range []string{NormalizeCode(whole), strings.ToLower(strings.Join(a.u.chunks, ""))} {
		d := codeEdits(len(key))
		if d == 0 || seen[key] {
			continue
		}
		seen[key] = true
		for _, f := range ix.t.codes.within(key, d) {
			a.near = append(a.near, f)
			if !looksLikeCode(whole) {
				continue
			}
			for _, i := range ix.t.codeKeys[f.word] {
				e := a.get(i)
				if e.nearCode == 0 || f.dist < e.nearCode {
					e.nearCode = f.dist
				}
			}
		}
	}
}

// correct replaces each query word the vocabulary does not know by its
// nearest known word, and sets a.words.
func (ix *Index) correct(a *analysis) {
	seen := map[string]bool{}
	const maxCorrections = 12
	for _, w := range a.u.words {
		if seen[w] {
			continue
		}
		seen[w] = true
		if _, known := ix.t.words.df[w]; !known && len(a.corrections) < maxCorrections {
			if c, _, ok := ix.t.words.nearest(w); ok {
				a.corrections[w] = c
				w = c
			}
		}
		a.words = append(a.words, w)
	}
}

// correctedSegments rewrites segments with corrected words and returns
// them with their tokens.
func correctedSegments(segs []string, corr map[string]string) ([]string, map[string]bool) {
	tokens := map[string]bool{}
	var out []string
	for _, s := range segs {
		var b strings.Builder
		last := 0
		for _, sp := range wordSpans(s) {
			w := strings.ToLower(s[sp[0]:sp[1]])
			if c, ok := corr[w]; ok {
				b.WriteString(s[last:sp[0]])
				b.WriteString(c)
				last = sp[1]
			}
		}
		b.WriteString(s[last:])
		out = append(out, b.String())
		for _, t := range wordsOf(b.String()) {
			tokens[t] = true
		}
	}
	return out, tokens
}

// score weighs the evidence. The tiers are far apart on purpose: naming
// a record (id, code, class) outranks finding its message, which outranks
// sharing words with it; within a tier, the amount of matched literal text
// and word coverage decide. A pattern counts by the letters it pins down,
// so "(.+)" alone adds nothing and a specific message beats a generic one.
func (e *evidence) computeScore() {
	s := 0.0
	if e.id {
		s += 1000
	}
	s += [3]float64{0, 400, 600}[e.code]
	s += [3]float64{0, 350, 550}[e.class]
	if e.keyedIdent {
		s += 450
	} else {
		s += 150 * min(1, e.ident)
	}
	if e.nearCode > 0 {
		s += 320 - 70*float64(e.nearCode)
	}
	if p := e.pattern; p.weight > 0 {
		ps := 6 * float64(min(p.weight, 80))
		if p.full {
			ps += 60
		}
		if p.corrected {
			ps *= 0.75
		}
		s += ps
	}
	s += 100 * e.text
	if e.phrase {
		s += 25
	}
	s += 10 * e.bleve
	e.score = s
}

// textCover scores how well the query's words and the record's message
// (or code) words cover each other, weighting words by rarity: a fragment
// scores by how much of the message it names, a long log line by how much
// of the message it contains.
func (ix *Index) textCover(a *analysis, e *evidence) {
	if len(a.words) == 0 {
		return
	}
	var qIDF float64
	for _, w := range a.words {
		qIDF += ix.t.words.idf(w)
	}
	best := 0.0
	for _, ws := range []wordSet{ix.t.msgWords[e.rec], ix.t.codeWords[e.rec]} {
		if ws.idf == 0 {
			continue
		}
		matched := 0.0
		for _, w := range a.words {
			if ws.words[w] {
				matched += ix.t.words.idf(w)
			}
		}
		best = max(best, 0.5*matched/qIDF+0.5*matched/ws.idf)
	}
	e.text = best
	if len(a.words) >= 2 && strings.Contains(ix.t.msgSeq[e.rec], " "+strings.Join(a.words, " ")+" ") {
		e.phrase = true
	}
}

// searchWords are the words sent to bleve: the corrected words and the
// words as typed, which prose may still contain.
func (a *analysis) searchWords() []string {
	out := append([]string(nil), a.words...)
	for w := range a.corrections {
		out = append(out, w)
	}
	return out
}
