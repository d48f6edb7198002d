package index

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/errkb/errkb"
)

// batchSize is how many records go into one bleve batch, that is one
// segment. Larger batches build fewer, larger segments but hold more
// analysed documents in memory at once.
var batchSize = 1000

// progressEvery is how often, in records, the build logs its progress.
const progressEvery = 10000

// buildWorkers is how many batches are built at once.
var buildWorkers = runtime.GOMAXPROCS(0)

// indexRecords adds every record of ds to bi. Each bleve batch analyses its
// documents in parallel but builds its segment on one core, so batches are
// sent from one goroutine per CPU to use them all. With onDisk, batches do
// not wait for their segment to be written (bleve's "unsafe_batch"), and
// indexRecords waits for all of them at the end instead.
func indexRecords(ctx context.Context, bi bleve.Index, ds *errkb.Dataset, onDisk bool, log *slog.Logger) error {
	start := time.Now()
	recs := ds.Records
	var (
		next       atomic.Int64 // first record of the next batch
		done       atomic.Int64 // records indexed
		persisted  sync.WaitGroup
		wg         sync.WaitGroup
		failed     atomic.Pointer[error] // the first error of any batch
		persistErr atomic.Pointer[error]
	)
	fail := func(err error) { failed.CompareAndSwap(nil, &err) }
	for range buildWorkers {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(batchSize))) - batchSize
				if lo >= len(recs) || ctx.Err() != nil || failed.Load() != nil {
					return
				}
				hi := min(lo+batchSize, len(recs))
				b := bi.NewBatch()
				for _, r := range recs[lo:hi] {
					if err := b.Index(r.ID, document(r)); err != nil {
						fail(fmt.Errorf("index record %s (%s): %w", r.ID, r.Source, err))
						return
					}
				}
				if onDisk {
					persisted.Add(1)
					b.SetPersistedCallback(func(err error) {
						if err != nil {
							persistErr.CompareAndSwap(nil, &err)
						}
						persisted.Done()
					})
				}
				if err := bi.Batch(b); err != nil {
					fail(fmt.Errorf("index batch: %w", err))
					return
				}
				n := done.Add(int64(hi - lo))
				if n/progressEvery != (n-int64(hi-lo))/progressEvery {
					// Indexing read these records' text; it need not stay
					// resident (see errkb.Options.SpillDir).
					ds.ReleasePages()
					el := time.Since(start)
					log.Info("indexing", "records", n, "of", len(recs), "records_per_s", int(float64(n)/el.Seconds()), "elapsed", el.Round(time.Millisecond))
				}
			}
		})
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		return *p
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if onDisk {
		persisted.Wait()
		if p := persistErr.Load(); p != nil {
			return fmt.Errorf("persist index: %w", *p)
		}
	}
	ds.ReleasePages()
	el := time.Since(start)
	log.Info("index built", "records", len(recs), "took", el.Round(time.Millisecond), "records_per_s", int(float64(len(recs))/max(el.Seconds(), 1e-9)))
	return nil
}
