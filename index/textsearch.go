package index

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	bleveanalysis "github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Part of the candidates stage: bleve's text search over the query's
// words, under the query's filters, with the records the tables found
// forced into its hits. cover.go answers the same from the word postings
// when it can; this is the plain path, and the one every total is checked
// against.

// textMatches asks bleve for the size best text matches plus the records
// the tables found, under q's filters.
func (ix *Index) textMatches(ctx context.Context, c *candidates, q Query, size int) error {
	if !textFromBleveOnly && ix.coverMatches(ctx, c, q, size) {
		return nil
	}
	var should []query.Query
	text := textQuery(c.searched)
	if text != nil {
		should = append(should, text)
	}
	var byEvidence query.Query
	if ids := ix.ids(c.strongest); len(ids) > 0 {
		d := bleve.NewDocIDQuery(ids)
		d.SetBoost(100)
		byEvidence = d
		should = append(should, d)
		size += len(ids)
	}
	if len(should) == 0 {
		return nil
	}
	// Sorted by score alone: a tie-break on _id would load every match's id
	// from doc values, the largest cost of a broad query; ties are broken
	// after re-ranking instead.
	req := bleve.NewSearchRequestOptions(ix.filtered(q, bleve.NewDisjunctionQuery(should...)), size, 0, false)
	res, err := ix.bi.SearchInContext(ctx, req)
	if err != nil && ctx.Err() == nil && text != nil {
		// Words are bounded (see searchWords), but should some text still
		// expand past bleve's clause limit, the evidence alone answers.
		if byEvidence == nil {
			byEvidence = bleve.NewMatchNoneQuery()
		}
		req.Query = ix.filtered(q, byEvidence)
		res, err = ix.bi.SearchInContext(ctx, req)
	}
	if err != nil {
		return fmt.Errorf("search %q: %w", q.Text, err)
	}
	c.total = int(res.Total)
	c.hits = make([]textHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		if i, ok := ix.t.Record(h.ID); ok {
			c.hits = append(c.hits, textHit{rec: i, score: h.Score})
		}
	}
	return nil
}

// textFromBleveOnly turns coverMatches off, for tests comparing it with
// bleve's text search.
var textFromBleveOnly = false

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

// textFields are the fields text is searched in, weighted so that a
// message match beats a mention in prose; a long text is searched in the
// first four only (see planText). textFieldNames are their names. Both
// are shared by every query and never changed.
var (
	textFields = []fieldBoost{
		{fieldMessage, 4}, {fieldCodeText, 3}, {fieldPattern, 1}, {fieldDoc, 1}, {fieldProse, 0.5}, {fieldCodeBody, 0.5},
	}
	textFieldNames = func() []string {
		names := make([]string, len(textFields))
		for i, f := range textFields {
			names[i] = f.field
		}
		return names
	}()
)

func planText(words []string) textPlan {
	if len(words) == 0 {
		return textPlan{}
	}
	fields := textFields
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

// countByBleve counts the records the text query matches, as Search
// reports them, without scoring any.
func (ix *Index) countByBleve(ctx context.Context, c *candidates, q Query) (int, error) {
	should := []query.Query{}
	if text := textQuery(c.searched); text != nil {
		should = append(should, text)
	}
	if ids := ix.ids(c.strongest); len(ids) > 0 {
		should = append(should, bleve.NewDocIDQuery(ids))
	}
	if len(should) == 0 {
		return 0, nil
	}
	req := bleve.NewSearchRequestOptions(ix.filtered(q, bleve.NewDisjunctionQuery(should...)), 0, 0, false)
	req.Score = "none"
	res, err := ix.bi.SearchInContext(ctx, req)
	if err != nil {
		return 0, err
	}
	return int(res.Total), nil
}
