package index

import (
	"context"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bleveanalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/errkb/errkb"
)

// Query is one search: free text plus optional filters.
type Query struct {
	Text     string
	Repo     string
	Tag      string
	Severity string
	Limit    int // 0 means DefaultLimit
	Offset   int
}

// Limits on a query, so no request can ask for unbounded work.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	MaxOffset    = 10000
	// MaxQueryBytes caps the text of one query or lookup: understand reads
	// no more, and the web and command-line edges refuse longer text. A
	// record's own fields have their caps in the root package
	// (errkb.MaxTextBytes and its neighbours).
	MaxQueryBytes = 8 << 10
)

// Result is one page of hits with facet counts over all matches.
type Result struct {
	Total  int
	Hits   []Hit
	Facets Facets
	// DidYouMean proposes corrected queries, near codes and near messages
	// when nothing matched well.
	DidYouMean []Suggestion
}

// Hit is one matching record with its score and highlighted fragments
// (HTML-escaped text with <mark> around matched terms).
type Hit struct {
	Record     *errkb.Record
	Score      float64
	Highlights map[string][]string
}

// Facets counts matches by project, tag and severity.
type Facets struct {
	Repo     []FacetCount
	Tag      []FacetCount
	Severity []FacetCount
}

// FacetCount is one facet value and how many matches have it.
type FacetCount struct {
	Value string
	Count int
}

// rerankWindow is how many bleve hits are re-ranked. The evidence that
// decides the first places (ids, codes, patterns) is gathered outside
// bleve and forced into the window, so bleve only has to bring the best
// text matches into it.
const rerankWindow = 200

// Search runs q against the index. Text is first understood (codes, ids,
// messages inside log lines and JSON, typos), bleve then finds text
// matches, and the union is ranked by evidence; see evidence.computeScore.
func (ix *Index) Search(ctx context.Context, q Query) (*Result, error) {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = min(max(q.Offset, 0), MaxOffset)
	if strings.TrimSpace(q.Text) == "" {
		return ix.browse(ctx, q)
	}
	c, err := ix.candidates(ctx, understand(q.Text), q, max(rerankWindow, q.Offset+q.Limit))
	if err != nil {
		return nil, err
	}
	ranked := ix.rank(ix.weigh(c))
	out := &Result{Total: c.total}
	page := ranked[min(q.Offset, len(ranked)):min(q.Offset+q.Limit, len(ranked))]
	if len(page) > 0 {
		terms := highlightWords(c)
		out.Hits = make([]Hit, 0, len(page))
		for _, e := range page {
			r := ix.ds.Records[e.rec]
			out.Hits = append(out.Hits, Hit{Record: r, Score: e.score, Highlights: highlightTerms(terms, r)})
		}
	}
	out.Facets = ix.facets(ranked)
	out.DidYouMean = ix.didYouMean(c, ranked)
	return out, nil
}

// facets counts projects, tags and severities among the ranked results,
// the best rerankWindow matches or more. Counting bleve's every match
// instead made facets the largest cost of a query: a pasted log line
// shares a word or two with much of a dataset, and those records are not
// results anyone would page to.
func (ix *Index) facets(ranked []*evidence) Facets {
	repo, tag, sev := map[string]int{}, map[string]int{}, map[string]int{}
	for _, e := range ranked {
		r := ix.ds.Records[e.rec]
		repo[r.Repo]++
		sev[r.Severity]++
		for _, t := range r.Tags {
			tag[t]++
		}
	}
	return Facets{Repo: topCounts(repo, 20), Tag: topCounts(tag, 20), Severity: topCounts(sev, 10)}
}

// topCounts lists the n most frequent values, ties in value order.
func topCounts(m map[string]int, n int) []FacetCount {
	out := make([]FacetCount, 0, len(m))
	for v, c := range m {
		if v != "" {
			out = append(out, FacetCount{Value: v, Count: c})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Value < out[j].Value
	})
	return out[:min(n, len(out))]
}

func addFacets(req *bleve.SearchRequest) {
	req.AddFacet(fieldRepo, bleve.NewFacetRequest(fieldRepo, 20))
	req.AddFacet(fieldTags, bleve.NewFacetRequest(fieldTags, 20))
	req.AddFacet(fieldSeverity, bleve.NewFacetRequest(fieldSeverity, 10))
}

func facetsOf(res *bleve.SearchResult) Facets {
	return Facets{
		Repo:     facetCounts(res.Facets[fieldRepo]),
		Tag:      facetCounts(res.Facets[fieldTags]),
		Severity: facetCounts(res.Facets[fieldSeverity]),
	}
}

func facetCounts(f *search.FacetResult) []FacetCount {
	if f == nil || f.Terms == nil {
		return nil
	}
	var out []FacetCount
	for _, t := range f.Terms.Terms() {
		out = append(out, FacetCount{Value: t.Term, Count: t.Count})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out
}

// filtered combines a text query (nil for all records) with q's filters.
// Queries are built in code; user text is never parsed as bleve's
// query-string syntax, in which ':', '/', '~' and quotes, all common in
// log lines, are operators.
func (ix *Index) filtered(q Query, text query.Query) query.Query {
	var must []query.Query
	if text != nil {
		must = append(must, text)
	}
	for _, f := range []struct{ field, value string }{
		{fieldRepo, q.Repo}, {fieldTags, q.Tag}, {fieldSeverity, q.Severity},
	} {
		if f.value != "" {
			t := bleve.NewTermQuery(f.value)
			t.SetField(f.field)
			must = append(must, t)
		}
	}
	switch len(must) {
	case 0:
		return bleve.NewMatchAllQuery()
	case 1:
		return must[0]
	}
	return bleve.NewConjunctionQuery(must...)
}

// textQuery matches words against the message, names and prose, weighted
// so that a message match beats a mention in prose. Typos are corrected
// before, so no fuzzy expansion is needed here. A record must contain two
// of the words when there are four or more: a log line's every word
// ("not", "request") would otherwise match most records, which costs
// time (facets visit every match) and makes totals meaningless.
func textQuery(words []string) query.Query {
	plan := planText(words)
	if len(plan.words) == 0 {
		return nil
	}
	perWord := make([]query.Query, 0, len(plan.words))
	for _, w := range plan.words {
		parts := make([]query.Query, 0, len(plan.fields))
		for _, f := range plan.fields {
			m := bleve.NewMatchQuery(w)
			m.SetField(f.field)
			m.SetBoost(f.boost)
			parts = append(parts, m)
		}
		perWord = append(perWord, bleve.NewDisjunctionQuery(parts...))
	}
	d := bleve.NewDisjunctionQuery(perWord...)
	if plan.min > 0 {
		d.SetMin(float64(plan.min))
	}
	return d
}

// textPlan is what textQuery asks of bleve: each of words in any of
// fields, at least min of the words when min > 0.
type textPlan struct {
	words  []string
	fields []fieldBoost
	min    int
}

type fieldBoost struct {
	field string
	boost float64
}

func planText(words []string) textPlan {
	if len(words) == 0 {
		return textPlan{}
	}
	fields := []fieldBoost{
		{fieldMessage, 4}, {fieldCodeText, 3}, {fieldPattern, 1}, {fieldDoc, 1}, {fieldProse, 0.5}, {fieldCodeBody, 0.5},
	}
	if contentWords(words) > maxProseWords {
		// A long text is a pasted message or log line: its record is
		// found by message, names and documentation. Prose and snippets
		// are asked for short descriptions typed by hand ("disk full on
		// replica"); for long texts their postings were a quarter to a
		// third of the query's CPU, for one first hit of the real-record
		// suite's 4,033 queries (see docs/search.md).
		fields = fields[:4]
	}
	p := textPlan{fields: fields}
	seen := map[string]bool{}
	content := contentWords(words) > 0
	for _, w := range words {
		if seen[w] || content && englishStop[w] {
			// Stop words match nothing in the English fields and, in the
			// code and pattern fields, most records: their postings were
			// the longest a query walked.
			continue
		}
		seen[w] = true
		p.words = append(p.words, w)
	}
	if n := contentWords(words); n >= 4 {
		// A record must hold a third of a long text's words: one that
		// shares two words with a pasted log line is no candidate, and
		// visiting every such record was most of the cost of a query.
		p.min = max(2, n/3)
	}
	return p
}

// maxProseWords is the most words a query may have for prose and source
// snippets to be searched.
const maxProseWords = 3

// englishStop holds the stop words bleve's English analyzer drops: they
// match nothing in message and prose fields, so they must not count
// toward the two words a record must contain ("machine is not on the"
// has one word that can match).
var englishStop = func() map[string]bool {
	m := map[string]bool{}
	tm := bleveanalysis.NewTokenMap()
	if err := tm.LoadBytes(en.EnglishStopWords); err == nil {
		for w := range tm {
			m[w] = true
		}
	}
	return m
}()

// contentWords counts the distinct words that are not stop words.
func contentWords(words []string) int {
	seen := map[string]bool{}
	for _, w := range words {
		if !englishStop[w] {
			seen[w] = true
		}
	}
	return len(seen)
}
