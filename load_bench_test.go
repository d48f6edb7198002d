package errkb_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/internal/kbgen"
)

// benchSizes are the dataset sizes of every benchmark; 100k is skipped with
// -short.
var benchSizes = errkbtest.BenchSizes

var (
	genMu   sync.Mutex
	genDirs = map[int]string{}
)

// generated returns a folder holding n kbgen records (seed 1), generated
// once per test binary run in a shared temporary folder.
func generated(b *testing.B, n int) string {
	b.Helper()
	genMu.Lock()
	defer genMu.Unlock()
	if d, ok := genDirs[n]; ok {
		return d
	}
	d := filepath.Join(os.TempDir(), fmt.Sprintf("errkb-bench-%d-%d", os.Getpid(), n))
	if err := kbgen.Write(d, n, 1); err != nil {
		b.Fatal(err)
	}
	genDirs[n] = d
	return d
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range genDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// BenchmarkLoad reads and validates a whole dataset.
func BenchmarkLoad(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			if n >= 100000 && testing.Short() {
				b.Skip("100k records skipped with -short")
			}
			dir := generated(b, n)
			b.ResetTimer()
			for b.Loop() {
				ds, err := errkb.Load(errkb.Folder{Name: "bench", FS: os.DirFS(dir)})
				if err != nil || ds.Len() != n {
					b.Fatalf("loaded %d records: %v", ds.Len(), err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkHash computes the dataset hash that keys the persisted index,
// as a restart does after loading.
func BenchmarkHash(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			if n >= 100000 && testing.Short() {
				b.Skip("100k records skipped with -short")
			}
			ds, err := errkb.Load(errkb.Folder{Name: "bench", FS: os.DirFS(generated(b, n))})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				ds.ResetHashForBenchmark()
				_ = ds.Hash()
			}
		})
	}
}
