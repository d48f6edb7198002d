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
	a := ix.analyze(understand(q.Text))
	ranked, out, err := ix.rank(ctx, a, q, max(rerankWindow, q.Offset+q.Limit))
	if err != nil {
		return nil, err
	}
	for _, e := range ranked[min(q.Offset, len(ranked)):min(q.Offset+q.Limit, len(ranked))] {
		r := ix.ds.Records[e.rec]
		out.Hits = append(out.Hits, Hit{Record: r, Score: e.score, Highlights: ix.highlight(a, r)})
	}
	out.Facets = ix.facets(ranked)
	out.DidYouMean = ix.didYouMean(a, ranked)
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

// rank asks bleve for the size best text matches plus the records with
// evidence, under q's filters, and orders them by evidence score. The
// Result carries the total; its Hits and Facets are left to the caller.
func (ix *Index) rank(ctx context.Context, a *analysis, q Query, size int) ([]*evidence, *Result, error) {
	var should []query.Query
	text := textQuery(a.searchWords())
	if text != nil {
		should = append(should, text)
	}
	var byEvidence query.Query
	if ids := ix.evidenceIDs(a); len(ids) > 0 {
		d := bleve.NewDocIDQuery(ids)
		d.SetBoost(100)
		byEvidence = d
		should = append(should, d)
		size += len(ids)
	}
	if len(should) == 0 {
		return nil, &Result{}, nil
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
		return nil, nil, fmt.Errorf("search %q: %w", q.Text, err)
	}
	maxText := 0.0
	for _, h := range res.Hits {
		if i, _ := ix.t.record(h.ID); a.ev[i] == nil {
			maxText = max(maxText, h.Score)
		}
	}
	ranked := make([]*evidence, 0, len(res.Hits))
	for _, h := range res.Hits {
		i, ok := ix.t.record(h.ID)
		if !ok {
			continue
		}
		e, found := a.ev[i]
		if !found {
			e = &evidence{rec: i}
			if maxText > 0 {
				e.bleve = h.Score / maxText
			}
		}
		ix.textCover(a, e)
		e.project = a.projects[strings.ToLower(ix.ds.Records[i].Repo)]
		e.computeScore()
		ranked = append(ranked, e)
	}
	ix.evenSharedCodes(ranked)
	sort.SliceStable(ranked, func(i, j int) bool { return ix.before(ranked[i], ranked[j]) })
	return ranked, &Result{Total: int(res.Total)}, nil
}

// maxEvidenceDocs bounds how many records found by evidence outside bleve
// join bleve's hits; a common identifier ("err_code" in many guards) can
// point at thousands.
const maxEvidenceDocs = 100

// evidenceIDs returns the ids of the records with the strongest evidence
// gathered before bleve, at most maxEvidenceDocs. The window of hits grows
// by as many, so text matches keep their places.
func (ix *Index) evidenceIDs(a *analysis) []string {
	evs := make([]*evidence, 0, len(a.ev))
	for _, e := range a.ev {
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
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = ix.ds.Records[e.rec].ID
	}
	return ids
}

// before orders ranked records: by score, and records with equal evidence
// (several records sharing the code or class that was asked for) by
// severity, then by the shorter slug, since records sharing a code tend to
// name the special cases with longer slugs ("lock-serialization-conflict"
// beside "serialization-conflict"), then by dataset order.
func (ix *Index) before(a, b *evidence) bool {
	if a.sortScore != b.sortScore {
		return a.sortScore > b.sortScore
	}
	ra, rb := ix.ds.Records[a.rec], ix.ds.Records[b.rec]
	if sa, sb := severityRank(ra.Severity), severityRank(rb.Severity); sa != sb {
		return sa > sb
	}
	if len(ra.Slug) != len(rb.Slug) {
		return len(ra.Slug) < len(rb.Slug)
	}
	return a.rec < b.rec
}

// evenSharedCodes sets sortScore. Records sharing a code or a class that
// the query matches with the same evidence apart from message length and
// bleve's length-normalized score are made equal, so that the shorter
// message does not win only for being shorter, and before's order among
// one error family applies.
func (ix *Index) evenSharedCodes(ranked []*evidence) {
	type key struct {
		name string
		core float64
	}
	names := func(e *evidence) [2]string {
		r := ix.ds.Records[e.rec]
		return [2]string{"code:" + NormalizeCode(r.ErrorCode), "class:" + strings.ToLower(r.ErrorClass)}
	}
	best := map[key]float64{}
	for _, e := range ranked {
		e.sortScore = e.score
		core := round3(e.score - 100*e.textLen - 10*e.bleve)
		for _, n := range names(e) {
			if !strings.HasSuffix(n, ":") {
				k := key{n, core}
				best[k] = max(best[k], e.score)
			}
		}
	}
	for _, e := range ranked {
		core := round3(e.score - 100*e.textLen - 10*e.bleve)
		for _, n := range names(e) {
			if !strings.HasSuffix(n, ":") {
				e.sortScore = max(e.sortScore, best[key{n, core}])
			}
		}
	}
}

func severityRank(s string) int {
	switch strings.ToLower(s) {
	case "fatal", "critical", "panic":
		return 4
	case "error":
		return 3
	case "warning", "warn":
		return 2
	case "info", "notice":
		return 1
	}
	return 0
}

// browse lists records under q's filters when there is no text.
func (ix *Index) browse(ctx context.Context, q Query) (*Result, error) {
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
	if len(words) == 0 {
		return nil
	}
	fields := []struct {
		field string
		boost float64
	}{
		{fieldMessage, 4}, {fieldCodeText, 3}, {fieldPattern, 1}, {fieldDoc, 1}, {fieldProse, 0.5}, {fieldCodeBody, 0.5},
	}
	perWord := make([]query.Query, 0, len(words))
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		parts := make([]query.Query, 0, len(fields))
		for _, f := range fields {
			m := bleve.NewMatchQuery(w)
			m.SetField(f.field)
			m.SetBoost(f.boost)
			parts = append(parts, m)
		}
		perWord = append(perWord, bleve.NewDisjunctionQuery(parts...))
	}
	d := bleve.NewDisjunctionQuery(perWord...)
	if len(perWord) >= 4 {
		d.SetMin(2)
	}
	return d
}
