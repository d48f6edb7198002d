package index

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
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
	zaps, _ := filepath.Glob(filepath.Join(dir, Key(ds)[:32], bleveDirName, "store", "*.zap"))
	if len(zaps) != 1 {
		t.Errorf("compacted index holds %d segments, want 1: %v", len(zaps), zaps)
	}
	if log := openAndCheck(t, ds, dir); !strings.Contains(log, "index reused") {
		t.Fatalf("Open after Compact did not reuse the index:\n%s", log)
	}
}
