package index

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/errkb/errkb/index/internal/lex"
	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tables"
)

// The candidates stage: *understood -> *candidates. The records a query may
// mean are found two ways: in the lookup tables (ids, codes, classes and
// identifiers, see named.go; message patterns; corrected words) and by a
// text search over the corrected words, which every record the tables
// found with strong evidence joins (textsearch.go, or cover.go from the
// word postings). Nothing here orders records; a record's score from the
// tables only bounds how many join the text search (see strongest).

// candidates are the records a query may mean, with what the tables and
// bleve say about each.
type candidates struct {
	u           *understood
	corrections map[string]string // unknown word -> nearest known word
	words       []string          // query words, corrected, each once
	idf         []float64         // each word's rarity, as the vocabulary has it
	phrase      string            // the words joined by spaces, padded, for phrases
	near        []tables.NearWord // codes and classes near the query, for did-you-mean
	nearLater   string            // the query whose near codes are left to did-you-mean; see nearCodes
	// correctedText is the query with its typos corrected, when it had any.
	correctedText string
	projects      map[string]bool // lower-case repos whose name the query holds
	// found holds the evidence the tables give, by record.
	found map[int32]*evidence

	// What the text search is asked for (see planSearch): the words, and
	// the records found with the strongest evidence, which join its hits.
	searched  []string
	strongest []int32

	// hits are the text search's matches, best first, the strongest found
	// records among them.
	hits  []textHit
	total int // the text search's count of matches
}

// textHit is one record bleve returned, with its relevance.
type textHit struct {
	rec   int32
	score float64
}

// get returns rec's evidence, adding the record as found.
func (c *candidates) get(rec int32) *evidence {
	e := c.found[rec]
	if e == nil {
		e = &evidence{rec: rec}
		c.found[rec] = e
	}
	return e
}

// candidates finds the records u may mean: those the tables name and the
// size best text matches, under q's filters.
func (ix *Index) candidates(ctx context.Context, u *understood, q Query, size int) (*candidates, error) {
	c := ix.tableCandidates(u, maxCorrections)
	planSearch(c)
	if err := ix.textMatches(ctx, c, q, size); err != nil {
		return nil, err
	}
	return c, nil
}

// tableCandidates finds the records the lookup tables name for u,
// correcting at most corrections unknown words; bleve is not asked, and
// LookupLine asks no more.
func (ix *Index) tableCandidates(u *understood, corrections int) *candidates {
	c := &candidates{u: u, corrections: map[string]string{}, found: map[int32]*evidence{}}
	ix.findNamed(c)
	ix.correct(c, corrections)
	if len(c.corrections) > 0 {
		segs, _ := correctedSegments([]string{u.raw}, c.corrections)
		c.correctedText = segs[0]
	}
	c.idf = make([]float64, len(c.words))
	for i, w := range c.words {
		c.idf[i] = ix.t.Words().IDF(w)
	}
	c.phrase = " " + strings.Join(c.words, " ") + " "
	ix.namedProjects(c)
	ix.findPatterns(c)
	return c
}

// maxCorrections bounds the typos one query has corrected.
const maxCorrections = 12

// namedProjects notes the projects whose owner or repo name the query
// holds ("nwcache[311]: ...").
func (ix *Index) namedProjects(c *candidates) {
	for tok := range c.u.tokens {
		for _, repo := range ix.t.ProjectRepos(tok) {
			if c.projects == nil {
				c.projects = map[string]bool{}
			}
			c.projects[repo] = true
		}
	}
}

// findPatterns matches the records' message patterns against the query's
// segments, as typed and with typos corrected, and its templates.
func (ix *Index) findPatterns(c *candidates) {
	u := c.u
	hits := map[int32]pattern.Hit{}
	ix.t.Patterns().Match(u.segments, u.tokens, false, hits)
	if len(c.corrections) > 0 {
		segs, tokens := correctedSegments(u.segments, c.corrections)
		ix.t.Patterns().Match(segs, tokens, true, hits)
	}
	for i, seg := range u.segments {
		for _, ref := range ix.t.Templates(lex.NormalizeText(seg)) {
			h := pattern.Hit{Weight: ref.Weight, Full: true, Whole: i == 0, Text: seg}
			if pattern.Better(h, hits[ref.Rec]) {
				hits[ref.Rec] = h
			}
		}
	}
	for rec, h := range hits {
		c.get(rec).pattern = h
	}
}

// correct replaces each query word the vocabulary does not know by its
// nearest known word, up to limit words, and sets a.words.
func (ix *Index) correct(a *candidates, limit int) {
	seen := map[string]bool{}
	for _, w := range a.u.words {
		if seen[w] {
			continue
		}
		seen[w] = true
		if !ix.t.Words().Known(w) && len(a.corrections) < limit {
			if c, _, ok := ix.t.Words().Nearest(w); ok {
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
		for _, sp := range lex.WordSpans(s) {
			w := strings.ToLower(s[sp[0]:sp[1]])
			if c, ok := corr[w]; ok {
				b.WriteString(s[last:sp[0]])
				b.WriteString(c)
				last = sp[1]
			}
		}
		b.WriteString(s[last:])
		out = append(out, b.String())
		for _, t := range lex.Words(b.String()) {
			tokens[t] = true
		}
	}
	return out, tokens
}

// planSearch sets what the text search is asked for: the words (see
// searchWords) and the records found with the strongest evidence (see
// strongest).
func planSearch(c *candidates) {
	c.searched = c.searchWords()
	c.strongest = strongest(c.found)
}

// searchWords are the words sent to bleve: the corrected words and the
// words as typed, which prose may still contain. Words longer than
// maxSearchWordBytes (hashes, base64, runs of ideographs, which bleve
// splits into a term per character) are left out, and the letters kept
// are bounded by maxQueryRunes, so no text reaches bleve's clause limit.
func (a *candidates) searchWords() []string {
	out := make([]string, 0, len(a.words)+len(a.corrections))
	runes := 0
	add := func(w string) {
		n := utf8.RuneCountInString(w)
		if len(w) <= maxSearchWordBytes && runes+n <= maxQueryRunes {
			out = append(out, w)
			runes += n
		}
	}
	for _, w := range a.rarestWords(maxTextWords) {
		add(w)
	}
	for w := range a.corrections {
		add(w)
	}
	return out
}

// maxQueryRunes bounds the letters of the words sent to bleve. A pasted
// log line can hold thousands of words, and bleve turns each word into a
// clause; past maxClauses it fails the whole search. Understanding keeps
// at most maxWords words, but bleve splits ideographic text into one term
// per character, so a count of words alone does not bound the clauses.
const maxQueryRunes = 1000

// maxTextWords is how many of a text's words bleve is asked for: the
// rarest, which tell records apart. A log line's common words ("failed",
// "request", "stream") add little to a record's rank and cost the most,
// bleve walking every record that holds them.
const maxTextWords = 6

// rarestWords returns the n rarest words, in the query's order.
func (a *candidates) rarestWords(n int) []string {
	if len(a.words) <= n {
		return a.words
	}
	idx := make([]int, len(a.words))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return a.idf[idx[i]] > a.idf[idx[j]] })
	idx = idx[:n]
	sort.Ints(idx)
	out := make([]string, n)
	for i, k := range idx {
		out[i] = a.words[k]
	}
	return out
}

// maxSearchWordBytes is the longest word sent to bleve.
const maxSearchWordBytes = 64

// maxEvidenceDocs bounds how many records found by evidence outside bleve
// join bleve's hits; a common identifier ("err_code" in many guards) can
// point at thousands.
const maxEvidenceDocs = 100

// strongest returns the records found with the strongest evidence, at
// most maxEvidenceDocs, by the score of what the tables say of them (see
// computeScore). The window of hits grows by as many, so text matches
// keep their places.
func strongest(found map[int32]*evidence) []int32 {
	evs := make([]*evidence, 0, len(found))
	for _, e := range found {
		e.computeScore()
		evs = append(evs, e)
	}
	if len(evs) > maxEvidenceDocs {
		sort.Slice(evs, func(i, j int) bool {
			if evs[i].score != evs[j].score {
				return evs[i].score > evs[j].score
			}
			return evs[i].rec < evs[j].rec
		})
		evs = evs[:maxEvidenceDocs]
	}
	recs := make([]int32, len(evs))
	for i, e := range evs {
		recs[i] = e.rec
	}
	return recs
}

// ids are the ids of recs.
func (ix *Index) ids(recs []int32) []string {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = ix.ds.Records[r].ID
	}
	return ids
}
