package errkbtest

import (
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

// BenchSizes are the dataset sizes benchmarks run at; Generated skips 100k
// with -short.
var BenchSizes = []int{1000, 10000, 100000}

var (
	generatedMu sync.Mutex
	generated   = map[int]*errkb.Dataset{}
)

// Generated is a dataset of n records made by kbgen (seed 1), loaded once
// per test binary and shared: callers must not change it.
func Generated(tb testing.TB, n int) *errkb.Dataset {
	tb.Helper()
	if n >= 100000 && testing.Short() {
		tb.Skip("100k records skipped with -short")
	}
	generatedMu.Lock()
	defer generatedMu.Unlock()
	if ds, ok := generated[n]; ok {
		return ds
	}
	ds, err := errkb.Load(errkb.Folder{Name: "gen", FS: kbgen.FS(n, 1)})
	if err != nil {
		tb.Fatalf("load %d generated records: %v", n, err)
	}
	generated[n] = ds
	return ds
}
