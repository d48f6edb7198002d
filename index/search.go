package index

import (
	"context"
	"sort"
	"strings"

	"github.com/errkb/errkb"
)

// Search: the pipeline's entry point for a query with text (understand,
// candidates, evidence, rank), and the answer it gives: a page of hits,
// the total, facets and did-you-mean. See doc.go for the stages.

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
// messages inside log lines and JSON, typos), the candidates are the
// records the lookup tables name and the best text matches, and they are
// ranked by evidence (see computeScore). Without text, the records under
// q's filters are listed (see list).
func (ix *Index) Search(ctx context.Context, q Query) (*Result, error) {
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = min(max(q.Offset, 0), MaxOffset)
	if strings.TrimSpace(q.Text) == "" {
		return ix.list(ctx, q) // filterlist.go
	}
	c, err := ix.candidates(ctx, understand(q.Text), q, max(rerankWindow, q.Offset+q.Limit)) // understand.go, candidates.go
	if err != nil {
		return nil, err
	}
	ranked := ix.rank(ix.weigh(c)) // evidence.go, rank.go
	return &Result{Total: c.total, Hits: ix.page(c, ranked, q), Facets: ix.facets(ranked), DidYouMean: ix.didYouMean(c, ranked)}, nil
}

// page is the page of ranked hits q asks for, highlighted.
func (ix *Index) page(c *candidates, ranked []*evidence, q Query) []Hit {
	page := ranked[min(q.Offset, len(ranked)):min(q.Offset+q.Limit, len(ranked))]
	if len(page) == 0 {
		return nil
	}
	terms := markedWords(c)
	out := make([]Hit, 0, len(page))
	for _, e := range page {
		r := ix.ds.Records[e.rec]
		out = append(out, Hit{Record: r, Score: e.score, Highlights: marks(terms, r)})
	}
	return out
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
