package index

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/store"
)

// BenchmarkStartup measures what `errkb serve --dataset D --index-dir X`
// does before it is ready, on a dataset folder named by
// ERRKB_BENCH_DATASET (e.g. `go run ./cmd/kbgen -n 100000 -out /tmp/kb`):
// "first" loads, snapshots, builds and persists into an empty folder;
// "restart" then loads and opens the same folder again. Run it with
// -benchtime 1x and -cpuprofile/-memprofile to profile start-up; see
// BENCHMARKS.md.
func BenchmarkStartup(b *testing.B) {
	path := os.Getenv("ERRKB_BENCH_DATASET")
	if path == "" {
		b.Skip("set ERRKB_BENCH_DATASET to a dataset folder")
	}
	// ERRKB_BENCH_INDEX_DIR keeps the index between runs, to profile
	// restarts alone: -bench Startup/restart builds it on its first run.
	dir := os.Getenv("ERRKB_BENCH_INDEX_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("ERRKB_BENCH_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	start := func(b *testing.B, dir string) {
		ds, _, err := store.Load(dir, errkb.Folder{Name: "bench", FS: os.DirFS(path)})
		if err != nil {
			b.Fatal(err)
		}
		ix, err := Open(context.Background(), ds, dir, log)
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			os.RemoveAll(dir)
			os.MkdirAll(dir, 0o755)
			b.StartTimer()
			start(b, dir)
		}
	})
	b.Run("restart", func(b *testing.B) {
		for b.Loop() {
			start(b, dir)
		}
	})
}
