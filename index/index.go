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
// datasets and stops early when ctx is cancelled. Open builds the same
// index on disk and reuses it across restarts.
func Build(ctx context.Context, ds *errkb.Dataset, log *slog.Logger) (*Index, error) {
	searcher.DisjunctionMaxClauseCount = maxClauses
	tables := startTables(ds)
	// An empty path gives an in-memory scorch index, many times faster to
	// build than bleve's NewMemOnly.
	bi, err := bleve.NewUsing("", newMapping(), scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	if err := indexRecords(ctx, bi, ds, log); err != nil {
		bi.Close()
		return nil, err
	}
	return newIndex(ds, bi, tables, log)
}

// builtTables is the outcome of building the lookup tables.
type builtTables struct {
	t    *tables
	err  error
	took time.Duration
}

// startTables builds the lookup tables on another goroutine: they need
// only the records, so they are built while bleve indexes or opens, on
// another core when there is one.
func startTables(ds *errkb.Dataset) <-chan builtTables {
	done := make(chan builtTables, 1)
	go func() {
		start := time.Now()
		t, err := newTables(ds.Records)
		done <- builtTables{t, err, time.Since(start)}
	}()
	return done
}

// newIndex wraps a built bleve index with the lookup tables once they are
// ready; it closes bi when they fail.
func newIndex(ds *errkb.Dataset, bi bleve.Index, tables <-chan builtTables, log *slog.Logger) (*Index, error) {
	ix := &Index{
		ds:      ds,
		bi:      bi,
		byCode:  make(map[string][]*errkb.Record),
		byClass: make(map[string][]*errkb.Record),
	}
	for _, r := range ds.Records {
		ix.addLookups(r)
	}
	tb := <-tables
	if tb.err != nil {
		bi.Close()
		return nil, fmt.Errorf("build lookup tables: %w", tb.err)
	}
	ix.t = tb.t
	// Building the tables read every record's text; let the kernel take
	// back those pages of the spill file until a request needs them.
	ds.ReleasePages()
	log.Info("lookup tables built", "records", ds.Len(), "took", tb.took.Round(time.Millisecond))
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
