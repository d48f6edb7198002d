//go:build linux

package store_test

import (
	"slices"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
	"github.com/errkb/errkb/internal/store"
)

// TestReadOrderFollowsTheFile checks the order a first start gives for
// reading every record: each record once, and the records of each
// dataset file together and in their file's order, as they were spilled.
func TestReadOrderFollowsTheFile(t *testing.T) {
	dir, src := t.TempDir(), errkb.Folder{Name: "gen", FS: kbgen.FS(3000, 5)}
	ds, report, err := store.Load(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	if report.Err != nil {
		t.Fatal(report.Err)
	}
	checkFileOrder(t, ds)
	// A restart reads the records from the snapshot of that file, in the
	// same order.
	again, report, err := store.Load(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	if !report.FromSnapshot {
		t.Fatal("the second load did not read the snapshot")
	}
	if !slices.Equal(again.ReadOrder(), ds.ReadOrder()) {
		t.Error("a restart's read order differs from the first start's")
	}
}

func checkFileOrder(t *testing.T, ds *errkb.Dataset) {
	t.Helper()
	order := ds.ReadOrder()
	if len(order) != ds.Len() {
		t.Fatalf("order of %d records, want %d", len(order), ds.Len())
	}
	seen := make([]bool, ds.Len())
	done := map[string]bool{} // files whose records the order has left
	var last errkb.Location
	inOrder := true
	for k, i := range order {
		if i < 0 || i >= ds.Len() || seen[i] {
			t.Fatalf("order[%d] = %d: out of range or repeated", k, i)
		}
		seen[i] = true
		at := ds.Records[i].Location
		if at.File != last.File {
			if done[at.File] {
				t.Fatalf("the records of %s are not together in the order (at %d)", at.File, k)
			}
			done[last.File] = true
		} else if at.Line <= last.Line {
			t.Fatalf("%s: line %d comes after line %d", at.File, at.Line, last.Line)
		}
		last = at
		inOrder = inOrder && i == k
	}
	if inOrder {
		t.Error("the order is the dataset's own; the generated files do not hold the records sorted, so it should not be")
	}
}
