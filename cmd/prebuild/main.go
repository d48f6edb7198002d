// Command prebuild writes the search index and lookup tables of the
// embedded dataset into prebuilt/, with the snapshot of its records
// (internal/store's SaveShipped), which the binary embeds so that
// `errkb serve` on the embedded dataset copies them instead of building
// them, and reads the records without parsing JSON, on every start:
//
//	go run ./cmd/prebuild [-out prebuilt]
//
// Run it (or `make prebuilt`) after changing dataset/, the index mapping,
// how records become documents or the lookup tables; a test fails while
// prebuilt/ is stale. It reads the dataset this command was compiled with,
// which `go run` compiles from the files on disk.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/store"
)

func main() {
	out := flag.String("out", "prebuilt", "folder to write the prebuilt index into; its contents are replaced")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintf(os.Stderr, "prebuild: %v\n", err)
		os.Exit(1)
	}
}

func run(out string) error {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		return fmt.Errorf("embedded dataset: %w", err)
	}
	work, err := os.MkdirTemp(filepath.Dir(filepath.Clean(out)), ".prebuild-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	ix, err := index.Open(context.Background(), ds, work, log)
	if err != nil {
		return err
	}
	if err := ix.Close(); err != nil {
		return err
	}
	if err := index.Compact(context.Background(), ds, work); err != nil {
		return err
	}
	built := filepath.Join(work, index.Key(ds)[:32])
	// The files are embedded read-only; make them readable to whoever
	// builds the binary from a clone.
	if err := filepath.WalkDir(built, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chmod(p, 0o644)
	}); err != nil {
		return err
	}
	// The records' snapshot goes beside the index, so that a start reads
	// neither JSON nor index files it has to build.
	if err := store.SaveShipped(built, errkb.Embedded()); err != nil {
		return err
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	return os.Rename(built, out)
}
