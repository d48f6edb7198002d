package index

import (
	"math"
	"strings"
	"unicode/utf8"
)

// evidence is what one query says about one record. Ranking adds it up;
// Lookup's confidence reads its strongest part.
type evidence struct {
	rec   int32
	id    bool
	code  int // 2: the whole query is the record's code; 1: one piece of it is
	class int // likewise for errorClass
	// ident sums, over identifiers of the record's code found in the
	// query, 1/(records using the identifier); srcIdent likewise for
	// identifiers of its source snippet, and number for bare numbers,
	// which may as well be pids, ports or counts.
	ident, srcIdent, number float64
	// keyedIdent: a number under a code-like key, or the whole query, is an
	// identifier of this record and of no other.
	keyedIdent bool
	nearCode   int // edits between the query and the record's code or class; 0: not near
	pattern    patternHit
	text       float64 // 0..1: how well query and message words cover each other
	textLen    float64 // the part of text that measures how much of the message the query holds
	phrase     bool    // the query's words occur in this order in the message
	bleve      float64 // 0..1: bleve's relevance over all fields, for prose matches
	project    bool    // the query names the record's project ("nwcache[311]: ...")
	score      float64
	sortScore  float64 // score, evened out among records sharing a code; see evenSharedCodes
}

// analysis is a query understood against this index's tables.
type analysis struct {
	u           *understood
	corrections map[string]string // unknown word -> nearest known word
	words       []string          // query words, corrected, each once
	ev          map[int32]*evidence
	near        []fuzzyWord     // codes and classes near the query, for did-you-mean
	projects    map[string]bool // lower-case repos whose name the query holds
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
func (ix *Index) analyze(u *understood) *analysis { return ix.analyzeUpTo(u, maxCorrections) }

// maxCorrections bounds the typos one query has corrected.
const maxCorrections = 12

// analyzeUpTo is analyze correcting at most n words; with 0 the query's
// words are taken as written (see Identify).
func (ix *Index) analyzeUpTo(u *understood, n int) *analysis {
	a := &analysis{u: u, corrections: map[string]string{}, ev: map[int32]*evidence{}}
	ix.identify(a)
	ix.correct(a, n)
	for tok := range u.tokens {
		for _, repo := range ix.t.projectRepos(tok) {
			if a.projects == nil {
				a.projects = map[string]bool{}
			}
			a.projects[repo] = true
		}
	}
	hits := map[int32]patternHit{}
	ix.t.patterns.match(u.segments, u.tokens, false, hits)
	if len(a.corrections) > 0 {
		segs, tokens := correctedSegments(u.segments, a.corrections)
		ix.t.patterns.match(segs, tokens, true, hits)
	}
	for i, seg := range u.segments {
		for _, ref := range ix.t.templates(normalizeText(seg)) {
			h := patternHit{weight: ref.weight, full: true, whole: i == 0}
			if better(h, hits[ref.rec]) {
				hits[ref.rec] = h
			}
		}
	}
	for rec, h := range hits {
		a.get(rec).pattern = h
	}
	return a
}

// correct replaces each query word the vocabulary does not know by its
// nearest known word, up to limit words, and sets a.words.
func (ix *Index) correct(a *analysis, limit int) {
	seen := map[string]bool{}
	for _, w := range a.u.words {
		if seen[w] {
			continue
		}
		seen[w] = true
		if !ix.t.words.known(w) && len(a.corrections) < limit {
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
		s += 150*min(1, e.ident) + 100*min(1, e.srcIdent) + 40*min(1, e.number)
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
	if e.project {
		s += 15
	}
	// Rounded so that float noise in bleve's scores does not decide
	// between records with equal evidence; see Index.before.
	e.score = round3(s)
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// textCover scores how well the query's words and the record's words
// cover each other, weighting words by rarity. Half the score is how much
// of the query the record's message and names (code, class) explain; the
// other half how much of the message, and of the names, the query holds.
// So a fragment scores by how much of the message it names, a long log
// line by how much of the message it contains, and of two records sharing
// a code the one whose message the query spells out wins.
func (ix *Index) textCover(a *analysis, e *evidence) {
	if len(a.words) == 0 || e.code == 2 || e.class == 2 {
		// A query that is the record's name is not a description: its
		// words say nothing about which of the records sharing the name
		// is meant.
		return
	}
	msg, code := ix.t.msgWords(e.rec), ix.t.codeWords(e.rec)
	var qIDF, inAny, inMsg, inCode float64
	for _, w := range a.words {
		idf := ix.t.words.idf(w)
		qIDF += idf
		inM, inC := msg.has(w), code.has(w)
		if inM {
			inMsg += idf
		}
		if inC {
			inCode += idf
		}
		if inM || inC {
			inAny += idf
		}
	}
	e.text = 0.5 * inAny / qIDF
	if msg.idf > 0 {
		e.textLen += 0.25 * inMsg / msg.idf
	}
	if code.idf > 0 {
		e.textLen += 0.25 * inCode / code.idf
	}
	e.text += e.textLen
	if len(a.words) >= 2 && strings.Contains(ix.t.msgSeq(e.rec), " "+strings.Join(a.words, " ")+" ") {
		e.phrase = true
	}
}

// searchWords are the words sent to bleve: the corrected words and the
// words as typed, which prose may still contain. Words longer than
// maxSearchWordBytes (hashes, base64, runs of ideographs, which bleve
// splits into a term per character) are left out, and the letters kept
// are bounded by maxQueryRunes, so no text reaches bleve's clause limit.
func (a *analysis) searchWords() []string {
	out := make([]string, 0, len(a.words)+len(a.corrections))
	runes := 0
	add := func(w string) {
		n := utf8.RuneCountInString(w)
		if len(w) <= maxSearchWordBytes && runes+n <= maxQueryRunes {
			out = append(out, w)
			runes += n
		}
	}
	for _, w := range a.words {
		add(w)
	}
	for w := range a.corrections {
		add(w)
	}
	return out
}

// maxSearchWordBytes is the longest word sent to bleve.
const maxSearchWordBytes = 64
