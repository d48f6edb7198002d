package index

import (
	"context"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
)

// Part of the candidates stage: the text matches found in the lookup
// tables' word postings instead of bleve, the fast path of textMatches
// (textsearch.go). It answers only when it can tell that the records it
// finds are the ones bleve's text search would rank first, and asks bleve
// for the relevance of just the records that can still reach the page
// (through the term cache) and for the total (from the postings'
// bitmaps). TestWordPostingsAtScale and TestCountBitmapsAsBleve compare
// it with the plain path.

// maxIdleScratches bounds the scratches kept between queries: as many as
// queries usually run at once on a small server (3 MB each at 100,000
// records).
const maxIdleScratches = 4

// coverScratch is one query's per-record accumulators, reused across
// queries so that a query touching tens of thousands of records allocates
// nothing per record.
type coverScratch struct {
	inMsg, inCode, inAny []float64
	stamp                []int32 // 1 + the last query word counted in inAny
	content              []uint8 // distinct content words matched, saturating
	touched              []int32
}

// scratches are the idle scratches between queries. They are kept here
// rather than in a sync.Pool, which every collection empties: at 100,000
// records a scratch is 3 MB, and making one per query made collections
// the largest cost of a query.
type scratches chan *coverScratch

func newScratches() scratches { return make(scratches, maxIdleScratches) }

// get takes an idle scratch, or makes one.
func (p scratches) get(records int) *coverScratch {
	select {
	case s := <-p:
		return s
	default:
	}
	return &coverScratch{
		inMsg: make([]float64, records), inCode: make([]float64, records), inAny: make([]float64, records),
		stamp: make([]int32, records), content: make([]uint8, records),
	}
}

// put clears what the query touched and keeps s for the next one.
func (p scratches) put(s *coverScratch) {
	for _, r := range s.touched {
		s.inMsg[r], s.inCode[r], s.inAny[r], s.stamp[r], s.content[r] = 0, 0, 0, 0, 0
	}
	s.touched = s.touched[:0]
	select {
	case p <- s:
	default:
	}
}

// coverDecides is the word cover above which a record outranks every
// record the word postings do not find: those share no word with the
// query in their message or names, so they score at most bleve's
// relevance and the project named, that is a cover of 0.25.
const coverDecides = (weightBleve + weightProject) / weightText

// coverMatches finds the text matches of c from the word postings instead
// of bleve: every record whose message or names hold a third of the
// query's content words (one when it has fewer than four, as textQuery
// asks of bleve), the size with the best word cover kept, and the records
// the tables found. It declines (false) when fewer than the records of
// the page asked for cover the query well enough to outrank any record it
// cannot see, such as a description matching documentation only: bleve
// then answers. So bleve is asked only for prose-like queries the tables
// do not decide, and for small datasets.
func (ix *Index) coverMatches(ctx context.Context, c *candidates, q Query, size int) bool {
	if len(c.words) == 0 {
		return false
	}
	p := ix.t.WordPostings()
	s := ix.scratches.get(len(ix.ds.Records))
	defer ix.scratches.put(s)
	nContent := contentWords(c.words)
	minContent := 1
	if nContent >= 4 {
		minContent = max(2, nContent/3)
	}
	// Never fewer than the text query asks of bleve, whose words add the
	// corrections to the words as typed ("BAAd CAAe" asks two of "bad",
	// "case", "baad", "caae"): a record found here is then one the total,
	// which counts that query's matches, counts too.
	minContent = max(minContent, planText(c.searched).min)
	qIDF := 0.0
	counted := make(map[string]bool, len(c.words))
	for i, w := range c.words {
		qIDF += c.idf[i]
		id, ok := ix.t.Words().Number(w)
		if !ok {
			continue
		}
		idf, stamp := c.idf[i], int32(i+1)
		content := (nContent == 0 || !englishStop[w]) && !counted[w]
		counted[w] = true
		msg, code := p.Of(id)
		for _, r := range msg {
			s.inMsg[r] += idf
			s.count(r, stamp, idf, content)
		}
		for _, r := range code {
			s.inCode[r] += idf
			s.count(r, stamp, idf, content)
		}
	}
	if qIDF <= 0 {
		return false
	}
	need := q.Offset + q.Limit
	if q.Limit <= 0 {
		need = q.Offset + DefaultLimit
	}
	best := newTopCover(size)
	strong := 0
	filtered := q.Repo != "" || q.Tag != "" || q.Severity != ""
	matched := 0 // records meeting minContent, for a text of stop words only
	for _, r := range s.touched {
		if int(s.content[r]) < minContent || filtered && !passes(ix.ds.Records[r], q) {
			continue
		}
		matched++
		// The word cover, as textCover computes it.
		text := coverOfQuery * s.inAny[r] / qIDF
		if m := ix.t.MsgIDF(r); m > 0 {
			text += coverOfMessage * s.inMsg[r] / m
		}
		if cw := ix.t.CodeIDF(r); cw > 0 {
			text += coverOfNames * s.inCode[r] / cw
		}
		if text > coverDecides {
			strong++
		}
		best.push(r, text)
	}
	if strong < need {
		return false
	}
	hits := make([]textHit, 0, len(best.recs)+maxEvidenceDocs)
	for _, r := range c.strongest {
		if filtered && !passes(ix.ds.Records[r], q) {
			continue
		}
		hits = append(hits, textHit{rec: r})
		if int(s.content[r]) < minContent {
			matched++
		}
	}
	// Bleve's relevance adds at most weightBleve to a record's score: a
	// record whose score without it is lower by more than that than the
	// page's last one cannot reach the page, and its relevance is not
	// asked for.
	base := make([]float64, len(best.recs))
	for i, cr := range best.recs {
		base[i] = weightText * cr.text
		if len(c.words) >= 2 && strings.Contains(ix.t.MsgSeq(cr.rec), c.phrase) {
			base[i] += weightPhrase
		}
		if c.projects != nil && c.projects[strings.ToLower(ix.ds.Records[cr.rec].Repo)] {
			base[i] += weightProject
		}
	}
	cut := nth(base, need) - weightBleve - 1e-6
	asked := map[string]int32{}
	for i, cr := range best.recs {
		if _, found := c.found[cr.rec]; !found {
			hits = append(hits, textHit{rec: cr.rec})
			if base[i] >= cut {
				asked[ix.ds.Records[cr.rec].ID] = cr.rec
			}
		}
	}
	c.hits = hits
	if ix.scoreText(ctx, c, q, asked) != nil {
		return false
	}
	total, err := ix.countText(ctx, c, q)
	if nContent == 0 || matched > total {
		// The total counts bleve's text query, which asks for the six
		// rarest words only (searchWords), while the cover counts every
		// word: a record holding three of a long line's words, one of
		// them common, is found here and not there. A text of stop words
		// only ("is not") counts nothing in bleve, whose analyzers drop
		// them. Either way the hits shown are counted here, and the
		// total is never less than them.
		total = matched
	}
	c.total = total
	return err == nil
}

// scoreText asks bleve for its relevance of the records asked only
// (their record number by id), which orders records the tables cannot
// tell apart (a stem in common, a word in the documentation). The ids
// clause weighs nothing, so each score is the text query's alone, up to
// the scale that weigh divides out.
func (ix *Index) scoreText(ctx context.Context, c *candidates, q Query, asked map[string]int32) error {
	text := textQuery(c.searched)
	if text == nil || len(asked) == 0 {
		return nil
	}
	ids := make([]string, 0, len(asked))
	for id := range asked {
		ids = append(ids, id)
	}
	only := bleve.NewDocIDQuery(ids)
	only.SetBoost(0)
	scored := ix.termCache().Query(bleve.NewConjunctionQuery(only, text))
	req := bleve.NewSearchRequestOptions(ix.filtered(q, scored), len(ids), 0, false)
	res, err := ix.bi.SearchInContext(ctx, req)
	if err != nil {
		return err
	}
	score := make(map[int32]float64, len(res.Hits))
	for _, h := range res.Hits {
		if i, ok := asked[h.ID]; ok {
			score[i] = h.Score
		}
	}
	for i := range c.hits {
		c.hits[i].score = score[c.hits[i].rec]
	}
	return nil
}

// count notes that query word stamp-1, of weight idf, is in record r.
func (s *coverScratch) count(r, stamp int32, idf float64, content bool) {
	switch s.stamp[r] {
	case stamp:
		return
	case 0:
		s.touched = append(s.touched, r)
	}
	s.stamp[r] = stamp
	s.inAny[r] += idf
	if content && s.content[r] < 255 {
		s.content[r]++
	}
}

// passes reports whether r meets q's filters, as the keyword fields that
// bleve filters on hold them (whole values).
func passes(r *errkb.Record, q Query) bool {
	return (q.Repo == "" || r.Repo == q.Repo) && (q.Severity == "" || r.Severity == q.Severity) &&
		(q.Tag == "" || slices.Contains(r.Tags, q.Tag))
}

// coverRec is a record with its word cover.
type coverRec struct {
	rec  int32
	text float64
}

// topCover keeps the n records with the best cover, ties to the earlier
// record, in a min-heap: a common word matches tens of thousands of
// records, of which a page shows twenty.
type topCover struct {
	n    int
	recs []coverRec
}

func newTopCover(n int) *topCover { return &topCover{n: n, recs: make([]coverRec, 0, n)} }

// worse orders the heap: the root is the record to drop first.
func worse(a, b coverRec) bool {
	if a.text != b.text {
		return a.text < b.text
	}
	return a.rec > b.rec
}

// nth returns the n-th largest of v (the smallest when fewer).
func nth(v []float64, n int) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[max(len(s)-n, 0)]
}

func (h *topCover) push(rec int32, text float64) {
	c := coverRec{rec, text}
	if len(h.recs) < h.n {
		h.recs = append(h.recs, c)
		for i := len(h.recs) - 1; i > 0; {
			parent := (i - 1) / 2
			if !worse(h.recs[i], h.recs[parent]) {
				break
			}
			h.recs[i], h.recs[parent] = h.recs[parent], h.recs[i]
			i = parent
		}
		return
	}
	if h.n == 0 || !worse(h.recs[0], c) {
		return
	}
	h.recs[0] = c
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(h.recs) && worse(h.recs[l], h.recs[m]) {
			m = l
		}
		if l+1 < len(h.recs) && worse(h.recs[l+1], h.recs[m]) {
			m = l + 1
		}
		if m == i {
			return
		}
		h.recs[i], h.recs[m] = h.recs[m], h.recs[i]
		i = m
	}
}

// countText counts the records the text query and the evidence match
// under q's filters, the total Search reports, exactly as bleve would
// (see countByBleve) but from the postings' bitmaps (see
// bleveshim.CountMatches), falling back to bleve when the index is not
// the kind those know.
func (ix *Index) countText(ctx context.Context, c *candidates, q Query) (int, error) {
	if n, err := ix.countBitmaps(c, q); err == nil {
		return n, nil
	}
	return ix.countByBleve(ctx, c, q)
}

// countBitmaps is countByBleve's count, read from the postings' bitmaps.
func (ix *Index) countBitmaps(c *candidates, q Query) (int, error) {
	plan := planText(c.searched)
	return bleveshim.CountMatches(ix.bi, bleveshim.Count{
		Words: plan.words, Fields: textFieldNames[:len(plan.fields)], Min: plan.min, IDs: ix.ids(c.strongest),
		Filters: []bleveshim.FieldValue{{Field: fieldRepo, Value: q.Repo}, {Field: fieldTags, Value: q.Tag}, {Field: fieldSeverity, Value: q.Severity}},
	})
}
