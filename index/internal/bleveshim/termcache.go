package bleveshim

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// TermCache keeps the postings of the longest terms bleve's relevance
// reads, so that a query scoring a few candidates (see Query) jumps to a candidate's entry instead of walking
// the postings up to it. Zap decodes frequencies and norms in order, so
// advancing a term's iterator to a document visits every posting before
// it: for a word most records hold, tens of thousands per term and query,
// which was most of scoreText's time at 100,000 records. A term is kept
// compactly: its documents as a roaring bitmap, the frequencies other
// than 1 apart, and the norms, which depend on the document and field
// only, in one table per field shared by every term. They hold what
// bleve's reader returns, bit for bit, and bleve's own term searchers and
// scorers read them (see cachingReader), so the scores are unchanged. The
// copies hold document numbers, which are those of one bleve segment
// (see onlySegment): they never go stale.
type TermCache struct {
	mu          sync.Mutex
	terms       map[termKey]*cachedTerm
	pending     map[termKey]bool // copies being made
	copying     sync.WaitGroup
	turn        chan struct{} // lets one copy run at a time
	closed      bool
	open        func() (bleveindex.IndexReader, error) // a reader of the index, for the copies
	norms       map[string][]float32                   // by field, then document; 0: not seen yet
	bytes       int
	clock       uint64
	maxSize     int             // MaxTermCacheBytes
	minPostings uint64          // MinCachedPostings
	seg         segment.Segment // the segment the copies number documents in
}

// onlySegment is the one segment of the index r reads, or nil when r is
// not a scorch snapshot of exactly one segment. Document numbers are a
// snapshot's: scorch renumbers documents when it merges segments, which
// it may do after opening an index of several segments, or while an index
// built in memory settles. One segment has nothing left to merge, so its
// numbers hold while the index is open. Builds on disk end with one (see
// the index's buildPersisted); elsewhere the cache is not used.
func onlySegment(r bleveindex.IndexReader) segment.Segment {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil
	}
	segs := snap.Segments()
	if len(segs) != 1 {
		return nil
	}
	return segs[0].Segment()
}

// serves reports whether the copies may be read for, and made from, a
// reader of seg: the first segment asked for is the cache's for good.
func (c *TermCache) serves(seg segment.Segment) bool {
	if seg == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seg == nil {
		c.seg = seg
	}
	return c.seg == seg
}

// Cache sizing: a term is copied when its postings are at least
// MinCachedPostings long (shorter ones are cheap to walk), and the copies
// take at most MaxTermCacheBytes, the least recently used dropped first.
// A common word's bitmap takes a few kilobytes, so the budget holds
// thousands of terms; the norm tables take 4 bytes per document and field
// read (2.4 MB at 100,000 records), outside the budget.
const (
	MinCachedPostings = 2048
	MaxTermCacheBytes = 16 << 20
)

type termKey struct{ field, term string }

// cachedTerm is one term's postings in one field.
type cachedTerm struct {
	docs     *roaring.Bitmap
	freqDocs []uint32 // the documents whose frequency is not 1, in order
	freqs    []uint32 // their frequencies
	norms    []float32
	count    uint64 // the reader's Count
	used     uint64 // the cache's clock when last read
}

func (t *cachedTerm) size() int { return int(t.docs.GetSizeInBytes()) + 8*len(t.freqDocs) + 96 }

func (t *cachedTerm) freq(doc uint32) uint64 {
	if i, ok := slices.BinarySearch(t.freqDocs, doc); ok {
		return uint64(t.freqs[i])
	}
	return 1
}

// NewTermCache returns an empty cache of the terms of at least
// minPostings postings, in at most maxSize bytes, copied from readers
// open returns.
func NewTermCache(maxSize int, minPostings uint64, open func() (bleveindex.IndexReader, error)) *TermCache {
	return &TermCache{
		terms: map[termKey]*cachedTerm{}, pending: map[termKey]bool{}, norms: map[string][]float32{},
		turn: make(chan struct{}, 1), maxSize: maxSize, minPostings: minPostings, open: open,
	}
}

// copyLater copies field's term in the background, one term at a time
// (a copy walks a long posting list, and the cores are the queries'), so
// that no query waits for a copy: the query that first reads a long term
// walks bleve's postings as before, and later ones read the copy.
func (c *TermCache) copyLater(k termKey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.pending[k] || c.terms[k] != nil {
		return
	}
	c.pending[k] = true
	c.copying.Add(1)
	go func() {
		defer c.copying.Done()
		c.turn <- struct{}{}
		defer func() { <-c.turn }()
		t, _ := c.copyTerm(k)
		c.mu.Lock()
		delete(c.pending, k)
		c.mu.Unlock()
		if t != nil {
			c.put(k, t)
		}
	}()
}

// copyTerm reads k's postings from a reader of its own.
func (c *TermCache) copyTerm(k termKey) (*cachedTerm, error) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, nil
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if !c.serves(onlySegment(r)) {
		return nil, nil
	}
	docs, err := r.DocCount()
	if err != nil {
		return nil, err
	}
	tfr, err := r.TermFieldReader(context.Background(), []byte(k.term), k.field, true, true, false)
	if err != nil {
		return nil, err
	}
	defer tfr.Close()
	return c.readTerm(tfr, k.field, docs)
}

// Close waits for the copies being made and stops new ones, before the
// index they read is closed.
func (c *TermCache) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.copying.Wait()
}

// Wait waits for the copies asked for so far to be made, for tests.
func (c *TermCache) Wait() { c.copying.Wait() }

// Len is how many terms the cache holds.
func (c *TermCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.terms)
}

// Query returns q with its term readers taken from c where c holds them
// (or should: see cachingReader). Its scores are q's, bit for bit.
func (c *TermCache) Query(q query.Query) query.Query { return cachedQuery{q, c} }

func (c *TermCache) get(k termKey) *cachedTerm {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.terms[k]
	if t != nil {
		c.clock++
		t.used = c.clock
	}
	return t
}

// put keeps t under k, dropping the least recently read terms to make
// room; a term larger than the whole cache is not kept.
func (c *TermCache) put(k termKey, t *cachedTerm) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.size() > c.maxSize || c.terms[k] != nil {
		return
	}
	for c.bytes+t.size() > c.maxSize {
		var oldest termKey
		first := true
		for k2, t2 := range c.terms {
			if first || t2.used < c.terms[oldest].used {
				oldest, first = k2, false
			}
		}
		c.bytes -= c.terms[oldest].size()
		delete(c.terms, oldest)
	}
	c.clock++
	t.used = c.clock
	c.terms[k] = t
	c.bytes += t.size()
}

// readTerm copies the postings of field's term read by r, which it reads
// to the end, noting their norms in the field's table of docs documents.
// It runs with the cache's turn.
// It returns nil when the postings do not fit the compact form: a
// document number beyond 32 bits, a norm not a float32, or one that
// differs from the norm another term gave the same document and field.
func (c *TermCache) readTerm(r bleveindex.TermFieldReader, field string, docs uint64) (*cachedTerm, error) {
	c.mu.Lock()
	norms := c.norms[field]
	if norms == nil {
		norms = make([]float32, docs)
		c.norms[field] = norms
	}
	c.mu.Unlock()
	t := &cachedTerm{count: r.Count(), docs: roaring.New(), norms: norms}
	var d bleveindex.TermFieldDoc
	var batch []uint32
	for {
		p, err := r.Next(d.Reset())
		if err != nil {
			return nil, err
		}
		if p == nil {
			break
		}
		doc := p.ID.Value()
		norm := float32(p.Norm)
		if doc >= uint64(len(norms)) || p.Freq > math.MaxUint32 || float64(norm) != p.Norm || norm == 0 {
			return nil, nil
		}
		// The tables are shared: one copy runs at a time (turn), so
		// this is their only writer, and cachedReader reads only the
		// documents of terms kept, written before the term was put.
		old := norms[doc]
		if old == 0 {
			norms[doc] = norm
		}
		if old != 0 && old != norm {
			return nil, nil
		}
		batch = append(batch, uint32(doc))
		if p.Freq != 1 {
			t.freqDocs = append(t.freqDocs, uint32(doc))
			t.freqs = append(t.freqs, uint32(p.Freq))
		}
	}
	t.docs.AddMany(batch)
	t.docs.RunOptimize()
	return t, nil
}

// cachedQuery runs q with its term readers taken from c where c holds
// them (or should: see cachingReader).
type cachedQuery struct {
	q query.Query
	c *TermCache
}

func (q cachedQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return q.q.Searcher(ctx, cachingReader{IndexReader: r, c: q.c}, m, o)
}

// cachingReader is bleve's index reader with the term readers of long
// terms served from the cache. Only readers with frequencies and norms
// and without term vectors, what scoring reads, are cached.
type cachingReader struct {
	bleveindex.IndexReader
	c *TermCache
}

func (r cachingReader) TermFieldReader(ctx context.Context, term []byte, field string, freq, norm, vectors bool) (bleveindex.TermFieldReader, error) {
	if !freq || !norm || vectors {
		return r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	}
	if !r.c.serves(onlySegment(r.IndexReader)) {
		return r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	}
	k := termKey{field, string(term)}
	if t := r.c.get(k); t != nil {
		return newCachedReader(t), nil
	}
	tfr, err := r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	if err == nil && tfr.Count() >= r.c.minPostings {
		r.c.copyLater(k)
	}
	return tfr, err
}

// cachedReader reads one cachedTerm as bleve's term field reader would.
type cachedReader struct {
	t    *cachedTerm
	it   roaring.IntPeekable
	last int64 // the document last returned; -1: none
}

func newCachedReader(t *cachedTerm) *cachedReader {
	return &cachedReader{t: t, it: t.docs.Iterator(), last: -1}
}

func (r *cachedReader) Next(pre *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	if !r.it.HasNext() {
		return nil, nil
	}
	doc := r.it.Next()
	r.last = int64(doc)
	return r.at(doc, pre), nil
}

// Advance returns the first posting at or after id, wherever the reader
// stood (bleve's reader restarts when asked to go back).
func (r *cachedReader) Advance(id bleveindex.IndexInternalID, pre *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	target := id.Value()
	if target > math.MaxUint32 {
		return nil, nil
	}
	if int64(target) <= r.last {
		r.it = r.t.docs.Iterator()
	}
	r.it.AdvanceIfNeeded(uint32(target))
	return r.Next(pre)
}

func (r *cachedReader) at(doc uint32, pre *bleveindex.TermFieldDoc) *bleveindex.TermFieldDoc {
	if pre == nil {
		pre = &bleveindex.TermFieldDoc{}
	}
	pre.ID = bleveindex.NewIndexInternalID(pre.ID, uint64(doc))
	pre.Freq = r.t.freq(doc)
	pre.Norm = float64(r.t.norms[doc])
	return pre
}

func (r *cachedReader) Count() uint64 { return r.t.count }
func (r *cachedReader) Close() error  { return nil }
func (r *cachedReader) Size() int     { return 64 }
