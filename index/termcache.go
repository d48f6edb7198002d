package index

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// termCache keeps the postings of the longest terms bleve's relevance
// reads (document, frequency and norm of each), so that scoreText finds
// a candidate's entry by binary search instead of walking the postings up
// to it. Zap decodes frequencies and norms in order, so advancing a
// term's iterator to a document visits every posting before it: for a
// word most records hold, tens of thousands per term and query, which
// was most of scoreText's time at 100,000 records. The copies hold what
// bleve's reader returns, bit for bit, and bleve's own term searchers and
// scorers read them (see cachingReader), so the scores are unchanged.
// The index never changes once built, so the copies never go stale.
type termCache struct {
	mu          sync.Mutex
	terms       map[termKey]*cachedTerm
	bytes       int
	clock       uint64
	maxSize     int    // maxTermCacheBytes
	minPostings uint64 // minCachedPostings
}

// Cache sizing: a term is copied when its postings are at least
// minCachedPostings long (shorter ones are cheap to walk), and the copies
// take at most maxTermCacheBytes (12 bytes a posting: 16 MB hold about
// 1.4 million postings, the 30 to 60 most common terms of 100,000
// records), the least recently used dropped first.
const (
	minCachedPostings = 2048
	maxTermCacheBytes = 16 << 20
)

type termKey struct{ field, term string }

// cachedTerm is one term's postings in one field, in document order.
type cachedTerm struct {
	docs  []uint32
	freq  []uint32
	norm  []float32
	count uint64 // the reader's Count
	used  uint64 // the cache's clock when last read
}

func (t *cachedTerm) size() int { return 12*len(t.docs) + 64 }

func newTermCache(maxSize int, minPostings uint64) *termCache {
	return &termCache{terms: map[termKey]*cachedTerm{}, maxSize: maxSize, minPostings: minPostings}
}

// termCache returns ix's cache of long terms' postings, made empty on
// first use.
func (ix *Index) termCache() *termCache {
	ix.termsOnce.Do(func() {
		ix.terms = newTermCache(maxTermCacheBytes, minCachedPostings)
	})
	return ix.terms
}

func (c *termCache) get(k termKey) *cachedTerm {
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
func (c *termCache) put(k termKey, t *cachedTerm) {
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

// readTerm copies the postings of r, which it reads to the end. It
// returns nil when a document number or frequency does not fit 32 bits.
func readTerm(r bleveindex.TermFieldReader) (*cachedTerm, error) {
	n := r.Count()
	t := &cachedTerm{count: n, docs: make([]uint32, 0, n), freq: make([]uint32, 0, n), norm: make([]float32, 0, n)}
	var d bleveindex.TermFieldDoc
	for {
		p, err := r.Next(d.Reset())
		if err != nil {
			return nil, err
		}
		if p == nil {
			return t, nil
		}
		doc := p.ID.Value()
		if doc > math.MaxUint32 || p.Freq > math.MaxUint32 || float64(float32(p.Norm)) != p.Norm {
			return nil, nil
		}
		t.docs = append(t.docs, uint32(doc))
		t.freq = append(t.freq, uint32(p.Freq))
		t.norm = append(t.norm, float32(p.Norm))
	}
}

// cachedQuery runs q with its term readers taken from c where c holds
// them (or should: see cachingReader).
type cachedQuery struct {
	q query.Query
	c *termCache
}

func (q cachedQuery) Searcher(ctx context.Context, r bleveindex.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return q.q.Searcher(ctx, cachingReader{IndexReader: r, c: q.c}, m, o)
}

// cachingReader is bleve's index reader with the term readers of long
// terms served from the cache. Only readers with frequencies and norms
// and without term vectors, what scoring reads, are cached.
type cachingReader struct {
	bleveindex.IndexReader
	c *termCache
}

func (r cachingReader) TermFieldReader(ctx context.Context, term []byte, field string, freq, norm, vectors bool) (bleveindex.TermFieldReader, error) {
	if !freq || !norm || vectors {
		return r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	}
	k := termKey{field, string(term)}
	if t := r.c.get(k); t != nil {
		return &cachedReader{t: t}, nil
	}
	tfr, err := r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	if err != nil || tfr.Count() < r.c.minPostings {
		return tfr, err
	}
	t, err := readTerm(tfr)
	tfr.Close()
	if err != nil {
		return nil, err
	}
	if t == nil {
		return r.IndexReader.TermFieldReader(ctx, term, field, freq, norm, vectors)
	}
	r.c.put(k, t)
	return &cachedReader{t: t}, nil
}

// cachedReader reads one cachedTerm as bleve's term field reader would:
// next is the posting Next returns.
type cachedReader struct {
	t    *cachedTerm
	next int
}

func (r *cachedReader) Next(pre *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	if r.next >= len(r.t.docs) {
		return nil, nil
	}
	r.next++
	return r.at(r.next-1, pre), nil
}

// Advance returns the first posting at or after id, wherever the reader
// stood (bleve's reader restarts when asked to go back).
func (r *cachedReader) Advance(id bleveindex.IndexInternalID, pre *bleveindex.TermFieldDoc) (*bleveindex.TermFieldDoc, error) {
	i := len(r.t.docs)
	if target := id.Value(); target <= math.MaxUint32 {
		i, _ = slices.BinarySearch(r.t.docs, uint32(target))
	}
	if i >= len(r.t.docs) {
		r.next = i
		return nil, nil
	}
	r.next = i + 1
	return r.at(i, pre), nil
}

func (r *cachedReader) at(i int, pre *bleveindex.TermFieldDoc) *bleveindex.TermFieldDoc {
	if pre == nil {
		pre = &bleveindex.TermFieldDoc{}
	}
	pre.ID = bleveindex.NewIndexInternalID(pre.ID, uint64(r.t.docs[i]))
	pre.Freq = uint64(r.t.freq[i])
	pre.Norm = float64(r.t.norm[i])
	return pre
}

func (r *cachedReader) Count() uint64 { return r.t.count }
func (r *cachedReader) Close() error  { return nil }
func (r *cachedReader) Size() int     { return 64 }
