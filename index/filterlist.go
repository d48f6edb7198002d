package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
)

// Listing without text: a search with filters and no text lists the
// records under the filters, best score first. It is no part of the
// pipeline of a text query.

// list lists records under q's filters when there is no text. Under one
// filter (a tag, a project or a severity) the page, total and facets come
// from the records themselves (filterList), the same as bleve's answer;
// bleve's sorted listing visited and faceted every match of the filter on
// each query, the largest cost of browsing a tag. Other combinations ask
// bleve.
func (ix *Index) list(ctx context.Context, q Query) (*Result, error) {
	field, value, ok := oneFilter(q)
	if !ok {
		return ix.listByBleve(ctx, q)
	}
	l, err := ix.filterList(field, value)
	if err != nil {
		return nil, err
	}
	out := &Result{Total: len(l.recs), Facets: Facets{
		Repo: slices.Clone(l.facets.Repo), Tag: slices.Clone(l.facets.Tag), Severity: slices.Clone(l.facets.Severity),
	}}
	for i := q.Offset; i < min(q.Offset+q.Limit, len(l.recs)); i++ {
		out.Hits = append(out.Hits, Hit{Record: ix.ds.Records[l.recs[i]], Score: l.scores[i]})
	}
	return out, nil
}

// listByBleve lists records under q's filters with bleve's sorted search:
// best score first (a term query's tf-idf), then id.
func (ix *Index) listByBleve(ctx context.Context, q Query) (*Result, error) {
	req := bleve.NewSearchRequestOptions(ix.filtered(q, nil), q.Limit, q.Offset, false)
	req.SortBy([]string{"-_score", "_id"})
	addFacets(req)
	res, err := ix.bi.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("list records: %w", err)
	}
	out := &Result{Total: int(res.Total), Facets: facetsOf(res)}
	for _, h := range res.Hits {
		if r, ok := ix.ds.ByID(h.ID); ok {
			out.Hits = append(out.Hits, Hit{Record: r, Score: h.Score})
		}
	}
	return out, nil
}

// oneFilter reports the field and value of q's only filter.
func oneFilter(q Query) (field, value string, ok bool) {
	n := 0
	for _, f := range []struct{ field, value string }{
		{fieldRepo, q.Repo}, {fieldTags, q.Tag}, {fieldSeverity, q.Severity},
	} {
		if f.value != "" {
			field, value = f.field, f.value
			n++
		}
	}
	return field, value, n == 1
}

// filterList is every record under one filter in bleve's order, with the
// scores bleve gives and the facets it counts over them.
type filterList struct {
	recs   []int32 // record numbers, best score first, then by id
	scores []float64
	facets Facets
}

// filterLists keeps the records under each tag, project and severity in
// id order, made in one pass over the records on the first listing, and
// the lists asked for so far in bleve's order with their facets; a list
// costs 12 bytes per record under its filter.
type filterLists struct {
	once  sync.Once
	docs  uint64 // documents in the bleve index, for the idf
	err   error
	byID  map[string]map[string][]int32 // field -> value -> record numbers in id order
	mu    sync.Mutex
	lists map[string]*filterList // by field and value
}

// filterList returns the records under field = value in bleve's order,
// computing them on first use.
func (ix *Index) filterList(field, value string) (*filterList, error) {
	b := &ix.lists
	b.once.Do(func() {
		b.docs, b.err = ix.bi.DocCount()
		b.byID = ix.filterPostings()
		b.lists = map[string]*filterList{}
	})
	if b.err != nil {
		return nil, fmt.Errorf("count documents: %w", b.err)
	}
	key := field + "\x00" + value
	b.mu.Lock()
	l := b.lists[key]
	b.mu.Unlock()
	if l != nil {
		return l, nil
	}
	recs := b.byID[field][value]
	l = ix.newFilterList(field, value, recs, b.docs)
	if len(recs) == 0 {
		// Filter values come from requests: only values some record
		// holds are kept, so the lists stay bounded by the dataset.
		return l, nil
	}
	b.mu.Lock()
	b.lists[key] = l
	b.mu.Unlock()
	return l, nil
}

// filterPostings lists the records of each tag, project and severity in
// id order, bleve's order among equal scores.
func (ix *Index) filterPostings() map[string]map[string][]int32 {
	recs := ix.ds.Records
	order := make([]int32, len(recs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(recs[x].ID, recs[y].ID) })
	out := map[string]map[string][]int32{fieldRepo: {}, fieldTags: {}, fieldSeverity: {}}
	for _, rec := range order {
		r := recs[rec]
		out[fieldRepo][r.Repo] = append(out[fieldRepo][r.Repo], rec)
		out[fieldSeverity][r.Severity] = append(out[fieldSeverity][r.Severity], rec)
		for i, t := range r.Tags {
			if !slices.Contains(r.Tags[:i], t) {
				out[fieldTags][t] = append(out[fieldTags][t], rec)
			}
		}
	}
	return out
}

// newFilterList scores as bleve's term query over a keyword field does
// (zap's norm, bleve's TermQueryScorer with tf-idf): sqrt(tf) times
// 1/sqrt(the field's values in the record), rounded to float32 as zap
// stores it, times idf = 1 + ln(docs / (matches+1)). Repo and severity
// hold one value, so their matches tie and keep id order.
func (ix *Index) newFilterList(field, value string, recs []int32, docs uint64) *filterList {
	type match struct {
		rec   int32
		tf    int
		count int
	}
	ms := make([]match, len(recs))
	for i, rec := range recs {
		ms[i] = match{rec, 1, 1}
		if r := ix.ds.Records[rec]; field == fieldTags {
			ms[i].tf, ms[i].count = countOf(r.Tags, value), len(r.Tags)
		}
	}
	idf := 1.0 + math.Log(float64(docs)/float64(uint64(len(ms))+1.0))
	l := &filterList{recs: make([]int32, len(ms)), scores: make([]float64, len(ms))}
	order := make([]int, len(ms))
	scores := make([]float64, len(ms))
	for i, m := range ms {
		norm := float64(float32(1.0 / math.Sqrt(float64(m.count))))
		scores[i] = math.Sqrt(float64(m.tf)) * norm * idf
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	for i, j := range order {
		l.recs[i], l.scores[i] = ms[j].rec, scores[j]
	}
	l.facets = ix.countFacets(l.recs)
	return l
}

func countOf(values []string, v string) int {
	n := 0
	for _, x := range values {
		if x == v {
			n++
		}
	}
	return n
}

// countFacets counts the records' projects, tags and severities as
// bleve's term facets do: each distinct value once per record, the most
// frequent first, ties in value order.
func (ix *Index) countFacets(recs []int32) Facets {
	repo, tag, sev := map[string]int{}, map[string]int{}, map[string]int{}
	for _, rec := range recs {
		r := ix.ds.Records[rec]
		repo[r.Repo]++
		sev[r.Severity]++
		for i, t := range r.Tags {
			if !slices.Contains(r.Tags[:i], t) {
				tag[t]++
			}
		}
	}
	return Facets{Repo: termFacets(repo, 20), Tag: termFacets(tag, 20), Severity: termFacets(sev, 10)}
}

// termFacets is bleve's order of facet terms: count, then term; nil when
// nothing matched.
func termFacets(m map[string]int, n int) []FacetCount {
	var out []FacetCount
	for v, c := range m {
		out = append(out, FacetCount{Value: v, Count: c})
	}
	slices.SortFunc(out, func(a, b FacetCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Value, b.Value))
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
