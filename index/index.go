package index

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search/searcher"

	"github.com/errkb/errkb"
)

// maxClauses bounds how many terms one query may expand to. bleve's default
// is unlimited, which lets fuzzy or long queries take seconds and gigabytes.
const maxClauses = 1024

// Index answers searches and lookups over one dataset.
type Index struct {
	ds *errkb.Dataset
	bi bleve.Index

	byCode  map[string][]*errkb.Record // NormalizeCode(errorCode)
	byClass map[string][]*errkb.Record // lower-case errorClass

	t *tables // patterns, vocabulary and identifiers; see tables
}

// Build indexes every record of ds in memory. It logs progress for large
// datasets and stops early when ctx is cancelled.
func Build(ctx context.Context, ds *errkb.Dataset, log *slog.Logger) (*Index, error) {
	searcher.DisjunctionMaxClauseCount = maxClauses
	start := time.Now()
	// The lookup tables need only the records, so they are built while
	// bleve indexes, on another core when there is one.
	type built struct {
		t    *tables
		err  error
		took time.Duration
	}
	tablesDone := make(chan built, 1)
	go func() {
		t, err := newTables(ds.Records)
		tablesDone <- built{t, err, time.Since(start)}
	}()
	// An empty path gives an in-memory scorch index, many times faster to
	// build than bleve's NewMemOnly.
	bi, err := bleve.NewUsing("", newMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	ix := &Index{
		ds:      ds,
		bi:      bi,
		byCode:  make(map[string][]*errkb.Record),
		byClass: make(map[string][]*errkb.Record),
	}
	const batchSize = 1000
	batch := bi.NewBatch()
	for i, r := range ds.Records {
		if err := ctx.Err(); err != nil {
			bi.Close()
			return nil, err
		}
		if err := batch.Index(r.ID, document(r)); err != nil {
			bi.Close()
			return nil, fmt.Errorf("index record %s (%s): %w", r.ID, r.Source, err)
		}
		ix.addLookups(r)
		if batch.Size() >= batchSize || i == len(ds.Records)-1 {
			if err := bi.Batch(batch); err != nil {
				bi.Close()
				return nil, fmt.Errorf("index batch: %w", err)
			}
			batch.Reset()
			if n := i + 1; n%10000 == 0 {
				log.Info("indexing", "records", n, "of", ds.Len(), "records_per_s", int(float64(n)/time.Since(start).Seconds()))
			}
		}
	}
	tb := <-tablesDone
	if tb.err != nil {
		bi.Close()
		return nil, fmt.Errorf("build lookup tables: %w", tb.err)
	}
	ix.t = tb.t
	log.Info("index built", "records", ds.Len(), "took", time.Since(start).Round(time.Millisecond), "tables_took", tb.took.Round(time.Millisecond))
	return ix, nil
}

func (ix *Index) addLookups(r *errkb.Record) {
	if c := NormalizeCode(r.ErrorCode); c != "" {
		ix.byCode[c] = append(ix.byCode[c], r)
	}
	if c := strings.ToLower(r.ErrorClass); c != "" {
		ix.byClass[c] = append(ix.byClass[c], r)
	}
}

// Close releases the index.
func (ix *Index) Close() error { return ix.bi.Close() }

// Dataset is the dataset this index was built from.
func (ix *Index) Dataset() *errkb.Dataset { return ix.ds }
