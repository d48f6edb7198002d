package index

import (
	bleveindex "github.com/blevesearch/bleve_index_api"
	"github.com/errkb/errkb/index/internal/bleveshim"
)

// termCache returns ix's cache of long terms' postings, made empty on
// first use.
func (ix *Index) termCache() *bleveshim.TermCache {
	ix.termsOnce.Do(func() {
		ix.terms = bleveshim.NewTermCache(bleveshim.MaxTermCacheBytes, bleveshim.MinCachedPostings, ix.reader)
	})
	return ix.terms
}

// reader opens a reader of ix's bleve index.
func (ix *Index) reader() (bleveindex.IndexReader, error) {
	adv, err := ix.bi.Advanced()
	if err != nil {
		return nil, err
	}
	return adv.Reader()
}
