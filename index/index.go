package index

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

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
	t  *tables // records by id and code, patterns, vocabulary, identifiers; see tables

	unmap func() error // releases the mapped tables file, if any
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
	parts, err := indexRecords(ctx, bi, ds, log)
	if err != nil {
		bi.Close()
		return nil, err
	}
	data, err := parts.assemble(log)
	if err != nil {
		bi.Close()
		return nil, err
	}
	t, err := readTables(data, ds.Len())
	if err != nil {
		bi.Close()
		return nil, fmt.Errorf("lookup tables: %w", err)
	}
	return &Index{ds: ds, bi: bi, t: t}, nil
}

// Close releases the index. Nothing it returned may be used after.
func (ix *Index) Close() error {
	err := ix.bi.Close()
	if ix.unmap != nil {
		err = errors.Join(err, ix.unmap())
	}
	return err
}

// Dataset is the dataset this index was built from.
func (ix *Index) Dataset() *errkb.Dataset { return ix.ds }
