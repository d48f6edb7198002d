package index

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
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
	MaxTextBytes = 8 << 10
)

// Result is one page of hits with facet counts over all matches.
type Result struct {
	Total  int
	Hits   []Hit
	Facets Facets
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

// Search runs q against the index.
func (ix *Index) Search(ctx context.Context, q Query) (*Result, error) {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = min(max(q.Offset, 0), MaxOffset)

	req := bleve.NewSearchRequestOptions(ix.query(q, true), q.Limit, q.Offset, false)
	req.SortBy([]string{"-_score", "_id"})
	req.Highlight = bleve.NewHighlightWithStyle("html")
	req.Highlight.AddField(fieldMessage)
	req.Highlight.AddField(fieldDoc)
	req.AddFacet(fieldRepo, bleve.NewFacetRequest(fieldRepo, 20))
	req.AddFacet(fieldTags, bleve.NewFacetRequest(fieldTags, 20))
	req.AddFacet(fieldSeverity, bleve.NewFacetRequest(fieldSeverity, 10))

	res, err := ix.bi.SearchInContext(ctx, req)
	if err != nil && ctx.Err() == nil {
		// Typo-tolerant terms can expand past the clause limit on a large
		// dataset; the exact query still answers.
		req.Query = ix.query(q, false)
		res, err = ix.bi.SearchInContext(ctx, req)
	}
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", q.Text, err)
	}
	out := &Result{Total: int(res.Total)}
	for _, h := range res.Hits {
		r, ok := ix.ds.ByID(h.ID)
		if !ok {
			continue
		}
		out.Hits = append(out.Hits, Hit{Record: r, Score: h.Score, Highlights: h.Fragments})
	}
	out.Facets = Facets{
		Repo:     facetCounts(res.Facets[fieldRepo]),
		Tag:      facetCounts(res.Facets[fieldTags]),
		Severity: facetCounts(res.Facets[fieldSeverity]),
	}
	return out, nil
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

// query builds the bleve query in code; user text is never parsed as
// bleve's query-string syntax, in which ':', '/', '~' and quotes, all
// common in log lines, are operators.
func (ix *Index) query(q Query, fuzzy bool) query.Query {
	var must []query.Query
	if text := strings.TrimSpace(q.Text); text != "" {
		must = append(must, textQuery(text, fuzzy))
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
	if len(must) == 0 {
		return bleve.NewMatchAllQuery()
	}
	return bleve.NewConjunctionQuery(must...)
}

// textQuery matches free text against every field, weighted so that an
// exact identifier beats a message match, which beats prose.
func textQuery(text string, fuzzy bool) query.Query {
	term := func(field, v string, boost float64) query.Query {
		t := bleve.NewTermQuery(v)
		t.SetField(field)
		t.SetBoost(boost)
		return t
	}
	words := boundText(text)
	match := func(field string, boost float64) *query.MatchQuery {
		m := bleve.NewMatchQuery(words)
		m.SetField(field)
		m.SetBoost(boost)
		return m
	}
	parts := []query.Query{
		term(fieldID, text, 20),
		term(fieldCode, NormalizeCode(text), 20),
		term(fieldClass, strings.ToLower(text), 15),
		match(fieldMessage, 4),
		match(fieldCodeText, 3),
		match(fieldPattern, 1),
		match(fieldDoc, 1),
		match(fieldProse, 0.5),
		match(fieldCodeBody, 0.5),
	}
	// Typos: fuzzy matching costs a term expansion per word, so only short
	// queries get it.
	if fuzzy && fuzzyAllowed(words, 8) {
		for _, field := range []string{fieldMessage, fieldCodeText} {
			m := match(field, 0.3)
			m.SetFuzziness(1)
			parts = append(parts, m)
		}
	}
	return bleve.NewDisjunctionQuery(parts...)
}
