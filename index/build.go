package index

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/bleveshim"
	"github.com/errkb/errkb/index/internal/pattern"
	"github.com/errkb/errkb/index/internal/tables"
)

// Building the index: every record's bleve document and its part of the
// lookup tables, made in one pass over the records, and the collector's
// settings while it runs.

// batchSize is how many records go into one bleve batch, that is one
// segment. Each batch holds its analysed documents in memory; measured at
// 30,000 records on two cores, batches of 1,000 peaked at 850 MB of RSS
// and batches of 250 at 540 MB, in the same time.
const batchSize = 250

// progressEvery is how often, in records, the build logs its progress.
const progressEvery = 10000

// indexRecords adds every record of ds to bi and returns every record's
// part of the lookup tables (see tables.Part), both made in one pass
// over the records. A bleve batch analyses its documents in parallel but builds its
// segment on one core, and on disk waits for the segment to be written,
// so one goroutine per CPU sends batches to keep every core busy; each
// also extracts its records' part of the tables.
//
// Batches follow ds.ReadOrder, the order of the records' bytes in their
// storage: each batch then reads one stretch of the spilled records,
// which it releases once indexed. In the dataset's own order (by repo and
// slug), each batch read records from all over the file, and with pages
// mapped a large folio at a time, the file's pages piled up between
// releases (250-270 MiB of 100,000 records' 397 MiB).
//
// On disk, w (see bleveshim.DiskWrites) tracks the batches bleve has yet to write;
// in memory it is nil.
func indexRecords(ctx context.Context, bi bleve.Index, ds *errkb.Dataset, w *bleveshim.DiskWrites, log *slog.Logger) (*tableParts, error) {
	start := time.Now()
	recs := ds.Records
	order := ds.ReadOrder()
	parts := make([]tables.Part, len(recs))
	shared := pattern.SharedOf(recs)
	dict := tables.NewDict()
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
				for _, i := range order[lo:hi] {
					r := recs[i]
					if err := b.Index(r.ID, document(r)); err != nil {
						fail(fmt.Errorf("index record %s (%s): %w", r.ID, r.Location, err))
						return
					}
					parts[i] = tables.NewPart(r, shared, dict)
				}
				w.Track(b)
				if err := bi.Batch(b); err != nil {
					w.Untrack()
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
		if err := w.Wait(ctx); err != nil {
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
	return &tableParts{ids: ids, parts: parts, dict: dict}, nil
}

// tableParts are the records' parts of the lookup tables, with their ids.
type tableParts struct {
	ids   []string
	parts []tables.Part
	dict  *tables.Dict
}

// assemble lays out the tables file.
func (tp *tableParts) assemble(log *slog.Logger) ([]byte, error) {
	start := time.Now()
	data, err := tables.Assemble(tp.ids, tp.parts, tp.dict)
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
// the heap may triple between collections, under a limit that keeps the
// process's resident memory within one budget (buildBudget: 812 MiB at
// 100,000 records): the heap gets the budget less the file pages resident
// at the moment (bleve's segments, mapped while they are merged, and the
// spilled records of the batches being indexed), read every 100 ms, but
// never less than the floor, about 1.6 times the live heap, below which
// collections would follow one another. The file pages come and go with
// the merges (20 to 80 MiB at 100,000 records since the records are read
// in file order, up to 400 MiB before), so a fixed limit had either to
// assume the worst, collecting more often all build long, or let the sum
// exceed the budget. GOGC or GOMEMLIMIT in the environment leave the
// collector as they set it.
func buildGC(n int) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	budget, floor := buildBudget(n)
	heapLimit := func() int64 { return max(floor, budget-fileResident()) }
	pct := debug.SetGCPercent(200)
	limit := debug.SetMemoryLimit(heapLimit())
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				debug.SetMemoryLimit(heapLimit())
			}
		}
	}()
	return func() {
		close(stop)
		<-stopped
		debug.SetGCPercent(pct)
		debug.SetMemoryLimit(limit)
	}
}

// buildBudget is a build's budget of heap and file pages for n records,
// and the heap's floor within it (see buildGC): 812 and 647 MiB at
// 100,000 records. The budget is what the first start's peak RSS comes
// to; the floor is what the heap keeps when file pages fill the rest.
func buildBudget(n int) (budget, floor int64) {
	return 128<<20 + 7<<10*int64(n), 256<<20 + 4<<10*int64(n)
}

// fileResident is how many bytes of files the process has resident
// (RssFile in /proc/self/status), or 0 where that is not known.
func fileResident() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	_, rest, ok := bytes.Cut(b, []byte("\nRssFile:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))), 10, 64)
	if err != nil {
		return 0
	}
	return kb << 10
}
