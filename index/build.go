package index

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/errkb/errkb"
)

// batchSize is how many records go into one bleve batch, that is one
// segment. Each batch holds its analysed documents in memory; measured at
// 30,000 records on two cores, batches of 1,000 peaked at 850 MB of RSS
// and batches of 250 at 540 MB, in the same time.
const batchSize = 250

// progressEvery is how often, in records, the build logs its progress.
const progressEvery = 10000

// indexRecords adds every record of ds to bi and returns every record's
// part of the lookup tables (see tablebuild.go), both made in one pass
// over the records. A bleve batch analyses its documents in parallel but builds its
// segment on one core, and on disk waits for the segment to be written,
// so one goroutine per CPU sends batches to keep every core busy; each
// also extracts its records' part of the tables.
//
// On disk, w (see diskWrites) tracks the batches bleve has yet to write;
// in memory it is nil.
func indexRecords(ctx context.Context, bi bleve.Index, ds *errkb.Dataset, w *diskWrites, log *slog.Logger) (*tableParts, error) {
	start := time.Now()
	recs := ds.Records
	parts := make([]recordTables, len(recs))
	wrapped := wrappedRecords(recs)
	var (
		next   atomic.Int64 // first record of the next batch
		done   atomic.Int64 // records indexed
		failed atomic.Pointer[error]
		wg     sync.WaitGroup
	)
	fail := func(err error) { failed.CompareAndSwap(nil, &err) }
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				lo := int(next.Add(batchSize)) - batchSize
				if lo >= len(recs) || ctx.Err() != nil || failed.Load() != nil {
					return
				}
				hi := min(lo+batchSize, len(recs))
				b := bi.NewBatch()
				for i, r := range recs[lo:hi] {
					if err := b.Index(r.ID, document(r)); err != nil {
						fail(fmt.Errorf("index record %s (%s): %w", r.ID, r.Source, err))
						return
					}
					parts[lo+i] = newRecordTables(r, wrapped)
				}
				w.track(b)
				if err := bi.Batch(b); err != nil {
					w.untrack()
					fail(fmt.Errorf("index batch: %w", err))
					return
				}
				// Indexing read these records' text; it need not stay
				// resident (see internal/store).
				ds.ReleasePages()
				n := done.Add(int64(hi - lo))
				if n/progressEvery != (n-int64(hi-lo))/progressEvery {
					el := time.Since(start)
					log.Info("indexing", "records", n, "of", len(recs), "records_per_s", int(float64(n)/el.Seconds()), "elapsed", el.Round(time.Millisecond))
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() == nil {
		if err := w.wait(ctx); err != nil {
			return nil, err
		}
	}
	if p := failed.Load(); p != nil {
		return nil, *p
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ds.ReleasePages()
	el := time.Since(start)
	log.Info("index built", "records", len(recs), "took", el.Round(time.Millisecond), "records_per_s", int(float64(len(recs))/max(el.Seconds(), 1e-9)))
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.ID
	}
	return &tableParts{ids: ids, parts: parts}, nil
}

// tableParts are the records' parts of the lookup tables, with their ids.
type tableParts struct {
	ids   []string
	parts []recordTables
}

// assemble lays out the tables file.
func (tp *tableParts) assemble(log *slog.Logger) ([]byte, error) {
	start := time.Now()
	data, err := assembleTables(tp.ids, tp.parts)
	if err != nil {
		return nil, fmt.Errorf("build lookup tables: %w", err)
	}
	log.Info("lookup tables built", "records", len(tp.ids), "bytes", len(data), "took", time.Since(start).Round(time.Millisecond))
	return data, nil
}

// buildGC sets the garbage collector for a build of n records and returns
// what restores it. Building allocates about 200 KB per record (analysis,
// segments, merges) while the live heap grows to about 5 KB per record
// (the records, the tables' parts, bleve's state). Go's default collects
// whenever the heap doubles; at 100,000 records that marked the live heap
// over a hundred times and let the heap reach twice its live size. Here
// the heap may triple between collections, but not exceed a limit of
// 256 MiB plus 6 KiB per record: measured at 100,000 records, the same CPU
// as the default and 230 MB less peak RSS (a limit of 700 MiB with the
// default growth cost 11% more CPU). GOGC or GOMEMLIMIT in the
// environment leave the collector as they set it.
func buildGC(n int) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	pct := debug.SetGCPercent(200)
	limit := debug.SetMemoryLimit(256<<20 + 6<<10*int64(n))
	return func() {
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	}
}
