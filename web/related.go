package web

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
)

const (
	// maxRelated is how many related errors a record page lists.
	maxRelated = 6
	// maxTagFanout skips tags carried by more records than this when
	// looking for related errors: a tag on thousands of records says
	// little, and scanning them would make the first view slow.
	maxTagFanout = 5000
	// similarHits is how many search hits for the message are considered.
	similarHits = 8
)

// candidate is a record that may be related, with why.
type candidate struct {
	rec      *errkb.Record
	score    float64
	tags     []string
	sameRepo bool
	similar  bool
}

// related lists errors a reader of r may want next: records sharing its
// tags (more when in the same project) and records with a similar message,
// found by search when the index is ready. Best first, at most limit.
func (s *Server) related(ctx context.Context, r *errkb.Record, limit int) []templates.RecordItem {
	cands := map[*errkb.Record]*candidate{}
	get := func(o *errkb.Record) *candidate {
		c, ok := cands[o]
		if !ok {
			c = &candidate{rec: o, sameRepo: strings.EqualFold(o.Repo, r.Repo)}
			cands[o] = c
		}
		return c
	}
	for _, t := range uniq(r.Tags) {
		recs := s.ds.ByTag(t)
		if len(recs) > maxTagFanout {
			continue
		}
		for _, o := range recs {
			if o != r {
				c := get(o)
				c.tags = append(c.tags, t)
				c.score++
			}
		}
	}
	for i, o := range s.similar(ctx, r) {
		c := get(o)
		c.similar = true
		c.score += 2 - 0.15*float64(i) // search's order: best match first
	}
	// The best limit of them, in order. A tag shared by hundreds of
	// records (the standard library's "net") brings that many candidates:
	// keeping the best few is linear, sorting them all was a tenth of a
	// page's render.
	better := func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.rec.Repo, b.rec.Repo), strings.Compare(a.rec.Slug, b.rec.Slug))
	}
	list := make([]*candidate, 0, limit+1)
	for _, c := range cands {
		if c.sameRepo && len(c.tags) > 0 {
			c.score += 0.5
		}
		if len(list) == limit && (limit == 0 || better(c, list[limit-1]) >= 0) {
			continue
		}
		i, _ := slices.BinarySearchFunc(list, c, better)
		list = slices.Insert(list, i, c)
		if len(list) > limit {
			list = list[:limit]
		}
	}
	var items []templates.RecordItem
	for _, c := range list {
		it := recordItem(c.rec, nil)
		it.Note = c.note()
		items = append(items, it)
	}
	return items
}

// similar returns records whose message search finds for r's message, or
// none while the index is still building.
func (s *Server) similar(ctx context.Context, r *errkb.Record) []*errkb.Record {
	sr, err := s.search()
	if err != nil || strings.TrimSpace(r.ErrorMessage) == "" {
		return nil
	}
	res, err := sr.Search(ctx, index.Query{Text: r.ErrorMessage, Limit: similarHits})
	if err != nil {
		s.log.Warn("related errors: search failed", "record", r.ID, "err", err)
		return nil
	}
	var out []*errkb.Record
	for _, h := range res.Hits {
		if h.Record != nil && h.Record != r && h.Record.ID != r.ID {
			out = append(out, h.Record)
		}
	}
	return out
}

func (c *candidate) note() string {
	var parts []string
	if c.sameRepo {
		parts = append(parts, "same project")
	}
	if c.similar {
		parts = append(parts, "similar message")
	}
	if len(c.tags) == 1 {
		parts = append(parts, "tag "+c.tags[0])
	} else if len(c.tags) > 1 {
		parts = append(parts, "tags "+strings.Join(c.tags, ", "))
	}
	s := strings.Join(parts, " · ")
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func uniq(xs []string) []string {
	seen := make(map[string]bool, len(xs))
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
