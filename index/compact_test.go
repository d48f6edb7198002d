package index

import (
	"context"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/errkb/errkb/index/internal/persist"
)

// TestCompactLeavesOneReusableSegment compacts a persisted index and wants
// one bleve segment left, a manifest that still matches its files (the
// next Open reuses the index rather than rebuilding it) and searches that
// still find records.
func TestCompactLeavesOneReusableSegment(t *testing.T) {
	dir := t.TempDir()
	ds := genDataset(t, 300, 1)
	openAndCheck(t, ds, dir)
	if err := Compact(context.Background(), ds, dir); err != nil {
		t.Fatal(err)
	}
	zaps, _ := filepath.Glob(filepath.Join(dir, Key(ds)[:32], persist.BleveDir, "store", "*.zap"))
	if len(zaps) != 1 {
		t.Errorf("compacted index holds %d segments, want 1: %v", len(zaps), zaps)
	}
	if log := openAndCheck(t, ds, dir); !strings.Contains(log, "index reused") {
		t.Fatalf("Open after Compact did not reuse the index:\n%s", log)
	}
}

// TestOneSegmentAnswersAsMany compares an index persisted by Open, merged
// into one segment, with the same records indexed in memory in several:
// the kinds of query the benchmarks send get the same page, scores,
// total, facets and lookup from both. Bleve's relevance and the counts
// from posting bitmaps sum over segments, so merging them must change
// nothing a reader sees. Deep pages of one common word are left out:
// there bleve picks among records of exactly equal relevance by its
// internal document order, which an in-memory build, batches indexed
// concurrently, sets differently from one run to the next.
func TestOneSegmentAnswersAsMany(t *testing.T) {
	ds := genDataset(t, 3000, 7)
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	mem, err := Build(ctx, ds, log)
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	dir := t.TempDir()
	disk, err := Open(ctx, ds, dir, log)
	if err != nil {
		t.Fatal(err)
	}
	defer disk.Close()
	if zaps, _ := filepath.Glob(filepath.Join(dir, Key(ds)[:32], persist.BleveDir, "store", "*.zap")); len(zaps) != 1 {
		t.Fatalf("Open left %d segments, want 1", len(zaps))
	}
	for _, kind := range searchKinds {
		if kind.name == "page-10" {
			continue
		}
		for i := range 40 {
			q := kind.query(ds.Records[(i*7919)%ds.Len()])
			if kind.lookup {
				a, errA := mem.Lookup(ctx, q.Text)
				b, errB := disk.Lookup(ctx, q.Text)
				if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
					t.Errorf("%s %q: lookup differs (%v, %v)\nmemory: %+v\n  disk: %+v", kind.name, q.Text, errA, errB, a, b)
				}
				continue
			}
			a, errA := mem.Search(ctx, q)
			b, errB := disk.Search(ctx, q)
			if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
				t.Errorf("%s %+v: search differs (%v, %v)\nmemory: %+v\n  disk: %+v", kind.name, q, errA, errB, a, b)
			}
		}
	}
}
