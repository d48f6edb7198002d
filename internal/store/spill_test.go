//go:build linux

package store_test

import (
	"runtime"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
	"github.com/errkb/errkb/internal/store"
)

// TestSpillKeepsRecordsAndFreesTheHeap loads the same dataset with and
// without spilling: the records must read the same, byte for byte, while
// the spilled ones leave most of their bytes off the Go heap.
func TestSpillKeepsRecordsAndFreesTheHeap(t *testing.T) {
	fsys := kbgen.FS(3000, 4)
	src := errkb.Folder{Name: "gen", FS: fsys}

	heapAfter := func(load func() (*errkb.Dataset, error)) (*errkb.Dataset, uint64) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ds, err := load()
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		return ds, after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	plain, plainHeap := heapAfter(func() (*errkb.Dataset, error) { return errkb.Load(src) })
	var report store.Report
	spilled, spilledHeap := heapAfter(func() (ds *errkb.Dataset, err error) {
		ds, report, err = store.Load(t.TempDir(), src)
		return ds, err
	})
	if report.Err != nil {
		t.Fatalf("spill failed: %v", report.Err)
	}
	if plain.Len() != spilled.Len() || plain.Hash() != spilled.Hash() {
		t.Fatalf("spilled dataset differs: %d records, hash %s; want %d, %s", spilled.Len(), spilled.Hash(), plain.Len(), plain.Hash())
	}
	sameRecords(t, spilled, plain)
	if spilledHeap*3 > plainHeap {
		t.Errorf("spilled dataset holds %d KB of heap, plain %d KB; want under a third", spilledHeap>>10, plainHeap>>10)
	}
	t.Logf("heap: plain %d KB, spilled %d KB", plainHeap>>10, spilledHeap>>10)
	runtime.KeepAlive(plain)
	runtime.KeepAlive(spilled)
	runtime.KeepAlive(fsys)
}
