package index

import (
	"context"
	"errors"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// countText counts the records the text query and the evidence match
// under q's filters, the total Search reports, exactly as bleve would
// (see countByBleve) but from the postings' bitmaps: bleve's collector
// visits every match one by one, which for a common word is tens of
// thousands of records to count. It falls back to bleve when the index is
// not the kind it knows.
func (ix *Index) countText(ctx context.Context, c *candidates, q Query) (int, error) {
	if n, err := ix.countBitmaps(c, q); err == nil {
		return n, nil
	}
	return ix.countByBleve(ctx, c, q)
}

// errNoBitmaps: the index is not a scorch index of zap segments.
var errNoBitmaps = errors.New("postings bitmaps unavailable")

func (ix *Index) countBitmaps(c *candidates, q Query) (int, error) {
	adv, err := ix.bi.Advanced()
	if err != nil {
		return 0, err
	}
	r, err := adv.Reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return 0, errNoBitmaps
	}
	plan := planText(c.searchWords())
	m := ix.bi.Mapping()
	// Each word's terms per field, as its MatchQuery analyzes it.
	terms := make([][][]string, len(plan.words))
	for i, w := range plan.words {
		terms[i] = make([][]string, len(plan.fields))
		for j, f := range plan.fields {
			a := m.AnalyzerNamed(m.AnalyzerNameForPath(f.field))
			if a == nil {
				return 0, errNoBitmaps
			}
			for _, tok := range a.Analyze([]byte(w)) {
				terms[i][j] = append(terms[i][j], string(tok.Term))
			}
		}
	}
	ids := ix.evidenceIDs(c)
	need := max(plan.min, 1)
	total := 0
	for _, ss := range snap.Segments() {
		seg := ss.Segment()
		// A segment's dictionaries, posting list and iterator are opened
		// once per field and reused across terms: a query asks for up to
		// forty (word, field) pairs.
		dicts := map[string]segment.TermDictionary{}
		var pl segment.PostingsList
		var it segment.PostingsIterator
		// orPostings adds the records holding any of terms in field to dst.
		orPostings := func(dst *roaring.Bitmap, field string, terms ...string) error {
			d, ok := dicts[field]
			if !ok {
				var err error
				if d, err = seg.Dictionary(field); err != nil {
					return err
				}
				dicts[field] = d
			}
			for _, t := range terms {
				next, err := d.PostingsList([]byte(t), nil, pl)
				if err != nil {
					return err
				}
				if next == nil {
					continue
				}
				pl = next
				it = pl.Iterator(false, false, false, it)
				o, ok := it.(segment.OptimizablePostingsIterator)
				if !ok {
					return errNoBitmaps
				}
				if n, ok := o.DocNum1Hit(); ok {
					dst.Add(uint32(n))
				} else if bm := o.ActualBitmap(); bm != nil {
					dst.Or(bm)
				}
			}
			return nil
		}
		postings := func(field string, terms ...string) (*roaring.Bitmap, error) {
			out := roaring.New()
			return out, orPostings(out, field, terms...)
		}
		// atLeast[k] holds the records matching k or more of the words.
		atLeast := make([]*roaring.Bitmap, need+1)
		for k := range atLeast {
			atLeast[k] = roaring.New()
		}
		for i := range plan.words {
			// With one word needed, a word's records go straight into
			// atLeast[1], not through a bitmap of their own.
			word := atLeast[1]
			if need > 1 {
				word = roaring.New()
			}
			for j, f := range plan.fields {
				if err := orPostings(word, f.field, terms[i][j]...); err != nil {
					return 0, err
				}
			}
			for k := need; k >= 2; k-- {
				atLeast[k].Or(roaring.And(atLeast[k-1], word))
			}
			if need > 1 {
				atLeast[1].Or(word)
			}
		}
		match := atLeast[need]
		if len(plan.words) == 0 {
			match = roaring.New()
		}
		if len(ids) > 0 {
			bm, err := postings("_id", ids...)
			if err != nil {
				return 0, err
			}
			match.Or(bm)
		}
		for _, f := range []struct{ field, value string }{
			{fieldRepo, q.Repo}, {fieldTags, q.Tag}, {fieldSeverity, q.Severity},
		} {
			if f.value != "" {
				bm, err := postings(f.field, f.value)
				if err != nil {
					return 0, err
				}
				match.And(bm)
			}
		}
		if del := ss.Deleted(); del != nil {
			match.AndNot(del)
		}
		total += int(match.GetCardinality())
	}
	return total, nil
}
