package index

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
	"github.com/errkb/errkb/index/internal/persist"
	"github.com/errkb/errkb/index/internal/tables"
)

// The Index, its life (Build, Close) and what it keeps beside bleve and
// the tables: the caches made on first use and the release of the mapped
// pages queries read.

// maxClauses bounds how many terms one query may expand to. bleve's default
// is unlimited, which lets fuzzy or long queries take seconds and gigabytes.
const maxClauses = 1024

// Index answers searches and lookups over one dataset.
type Index struct {
	ds *errkb.Dataset
	bi bleve.Index
	t  *tables.Tables // records by id and code, patterns, vocabulary, identifiers

	lists filterLists // pages of records under one filter; see list

	familiesOnce sync.Once
	fam          *families // see families

	termsOnce sync.Once
	terms     *bleveshim.TermCache // see termCache

	scratches scratches // see coverMatches

	unmap func() error  // releases the mapped tables file, if any
	stop  chan struct{} // ends releasePagesAsNeeded
	done  sync.WaitGroup
}

// A serving index returns the mapped pages that queries read (records'
// text, the tables) to the page cache once they add up: every
// releaseCheck it reads how many file pages the process has resident, and
// releases when they grew by releaseSlack since the last release. A search
// reads a few fields of hundreds of candidate records, each a page fault
// of its own, so under traffic the file pages grew by 150-300 MiB between
// releases made every 2 s (100,000 records); checked every quarter second
// they stay within tens of MiB of what the index needs, and an idle server
// releases nothing. Where the resident file pages are not known, it
// releases every releaseInterval.
const (
	releaseCheck    = 250 * time.Millisecond
	releaseSlack    = 32 << 20
	releaseInterval = 2 * time.Second
)

// releasePagesAsNeeded drops the pages of the records' spilled text and of
// the mapped tables from the resident set when they grow (see
// releaseCheck). Queries read them through file mappings, and on recent
// kernels a read may map a large folio around it, so without this the
// resident set grows with traffic towards the size of the snapshot. The
// pages stay in the page cache; the next read maps them back, at the cost
// of a minor fault.
func (ix *Index) releasePagesAsNeeded() {
	ix.stop = make(chan struct{})
	ix.done.Go(func() {
		tick := time.NewTicker(releaseCheck)
		defer tick.Stop()
		var left int64 // what the last release left resident; the first check releases what opening read
		var since time.Duration
		for {
			select {
			case <-ix.stop:
				return
			case <-tick.C:
			}
			since += releaseCheck
			if !shouldRelease(fileResident(), left, since) {
				continue
			}
			ix.ds.ReleasePages()
			if ix.unmap != nil {
				persist.ReleasePages(ix.t.Data())
			}
			left, since = fileResident(), 0
		}
	})
}

// shouldRelease reports whether to release the mapped pages now, with now
// bytes of files resident, left after the last release, since that long
// ago; now is 0 where it is not known.
func shouldRelease(now, left int64, since time.Duration) bool {
	if now <= 0 {
		return since >= releaseInterval
	}
	return now-left >= releaseSlack
}

// Build indexes every record of ds in memory. It logs progress for large
// datasets and stops early when ctx is cancelled. Open builds the same
// index on disk and reuses it across restarts.
func Build(ctx context.Context, ds *errkb.Dataset, log *slog.Logger) (*Index, error) {
	searcher.DisjunctionMaxClauseCount = maxClauses
	// An empty path gives an in-memory scorch index, many times faster to
	// build than bleve's NewMemOnly.
	bi, err := bleve.NewUsing("", newMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	parts, err := indexRecords(ctx, bi, ds, nil, log)
	if err != nil {
		bi.Close()
		return nil, err
	}
	data, err := parts.assemble(log)
	if err != nil {
		bi.Close()
		return nil, err
	}
	t, err := tables.Read(data, ds.Len())
	if err != nil {
		bi.Close()
		return nil, fmt.Errorf("lookup tables: %w", err)
	}
	return newIndex(ds, bi, t, nil), nil
}

// newIndex serves ds from bi and t, t mapped from a file that unmap
// releases, if any.
func newIndex(ds *errkb.Dataset, bi bleve.Index, t *tables.Tables, unmap func() error) *Index {
	ix := &Index{ds: ds, bi: bi, t: t, unmap: unmap, scratches: newScratches()}
	ix.releasePagesAsNeeded()
	return ix
}

// Close releases the index. Nothing it returned may be used after.
func (ix *Index) Close() error {
	if ix.stop != nil {
		close(ix.stop)
		ix.done.Wait()
		ix.stop = nil
	}
	if ix.terms != nil {
		ix.terms.Close()
	}
	err := ix.bi.Close()
	if ix.unmap != nil {
		err = errors.Join(err, ix.unmap())
		ix.unmap = nil
	}
	return err
}

// Dataset is the dataset this index was built from.
func (ix *Index) Dataset() *errkb.Dataset { return ix.ds }

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
