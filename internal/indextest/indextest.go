// Package indextest builds real in-memory indexes for the tests of the
// packages above index (web, cmd). It is apart from errkbtest because
// index's own tests use errkbtest, and a package cannot import its
// importers.
package indextest

import (
	"context"
	"log/slog"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
)

// Build builds an index of ds, logging nowhere, and closes it when the
// test ends.
func Build(t testing.TB, ds *errkb.Dataset) *index.Index {
	t.Helper()
	ix, err := index.Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("build index: %v", err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
