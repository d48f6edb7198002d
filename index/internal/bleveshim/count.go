package bleveshim

import (
	"errors"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// Count is a text query to count the matches of, as CountMatches counts
// them: the documents holding at least Min (1 when 0) of Words, each
// analysed as a match query over Fields analyses it and found in any of
// them, or whose id is one of IDs; each of Filters, when its Value is
// set, must hold too.
type Count struct {
	Words   []string
	Fields  []string
	Min     int
	IDs     []string
	Filters []FieldValue
}

// FieldValue is a term a keyword field must hold.
type FieldValue struct{ Field, Value string }

// ErrNoBitmaps: the index is not a scorch index of zap segments, whose
// postings CountMatches reads.
var ErrNoBitmaps = errors.New("postings bitmaps unavailable")

// CountMatches counts the documents of bi that c matches, exactly as
// bleve's search would count them (the disjunction of match queries, at
// least Min of them, or'ed with a document-id query and and'ed with term
// queries), but from the postings' bitmaps: bleve's collector visits
// every match one by one, which for a common word is tens of thousands
// of documents to count. It returns ErrNoBitmaps when bi is not the kind
// of index it knows, and the caller asks bleve instead.
func CountMatches(bi bleve.Index, c Count) (int, error) {
	adv, err := bi.Advanced()
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
		return 0, ErrNoBitmaps
	}
	m := bi.Mapping()
	// Each word's terms per field, as its MatchQuery analyzes it.
	terms := make([][][]string, len(c.Words))
	for i, w := range c.Words {
		terms[i] = make([][]string, len(c.Fields))
		for j, f := range c.Fields {
			a := m.AnalyzerNamed(m.AnalyzerNameForPath(f))
			if a == nil {
				return 0, ErrNoBitmaps
			}
			for _, tok := range a.Analyze([]byte(w)) {
				terms[i][j] = append(terms[i][j], string(tok.Term))
			}
		}
	}
	need := max(c.Min, 1)
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
					return ErrNoBitmaps
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
		for i := range c.Words {
			// With one word needed, a word's records go straight into
			// atLeast[1], not through a bitmap of their own.
			word := atLeast[1]
			if need > 1 {
				word = roaring.New()
			}
			for j, f := range c.Fields {
				if err := orPostings(word, f, terms[i][j]...); err != nil {
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
		if len(c.Words) == 0 {
			match = roaring.New()
		}
		if len(c.IDs) > 0 {
			bm, err := postings("_id", c.IDs...)
			if err != nil {
				return 0, err
			}
			match.Or(bm)
		}
		for _, f := range c.Filters {
			if f.Value != "" {
				bm, err := postings(f.Field, f.Value)
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
