package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/store"
)

// datasetFlag collects repeated --dataset flags.
type datasetFlag []string

func (d *datasetFlag) String() string { return strings.Join(*d, string(os.PathListSeparator)) }
func (d *datasetFlag) Set(v string) error {
	*d = append(*d, v)
	return nil
}

// datasetPaths is --dataset if given, else $ERRKB_DATASET split on the OS
// list separator; empty means the embedded dataset.
func datasetPaths(flagged []string, getenv func(string) string) []string {
	if len(flagged) > 0 {
		return flagged
	}
	var paths []string
	for _, p := range filepath.SplitList(getenv("ERRKB_DATASET")) {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// folders opens each dataset folder through os.Root, so no file name or
// symlink inside it can lead outside the folder.
func folders(paths []string) ([]errkb.Folder, error) {
	if len(paths) == 0 {
		return []errkb.Folder{errkb.Embedded()}, nil
	}
	var dirs []errkb.Folder
	for _, p := range paths {
		root, err := os.OpenRoot(p)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", p, err)
		}
		dirs = append(dirs, errkb.Folder{Name: filepath.ToSlash(filepath.Clean(p)), FS: root.FS()})
	}
	return dirs, nil
}

// loadDataset loads the datasets. With skipInvalid, bad records are logged
// and left out; without it, any problem is an error listing them all. A
// non-empty spillDir moves the records' text out of the heap (see
// internal/store). The embedded dataset is read from the snapshot shipped
// with it, whose bytes are the binary's own, and parsed only when that
// snapshot is not of these files. fromSnapshot says whether the records
// came from a snapshot, shipped or saved in spillDir by an earlier start.
func loadDataset(paths []string, skipInvalid bool, spillDir string, log *slog.Logger) (ds *errkb.Dataset, fromSnapshot bool, err error) {
	dirs, err := folders(paths)
	if err != nil {
		return nil, false, err
	}
	if len(paths) == 0 {
		idx, data := errkb.EmbeddedSnapshot()
		ds, err := store.OpenShipped(idx, data, dirs...)
		if err == nil {
			return ds, true, nil
		}
		log.Warn("shipped snapshot not used; parsing the embedded dataset", "err", err)
		spillDir = ""
	}
	ds, report, err := load(spillDir, dirs)
	if report.Err != nil {
		log.Warn("records kept on the heap or not saved for the next start", "err", report.Err)
	}
	if err == nil {
		return ds, report.FromSnapshot, nil
	}
	probs, ok := err.(errkb.Problems)
	if !ok || !skipInvalid {
		return nil, false, err
	}
	for _, p := range probs {
		log.Warn("record left out", "problem", p.String())
	}
	log.Warn("serving without the records left out", "problems", len(probs), "records", ds.Len())
	return ds, report.FromSnapshot, nil
}

// prebuiltIndex is the index shipped for the embedded dataset when it is
// the one served, so a start copies it instead of building (see
// index.OpenSeeded); nil for dataset folders.
func prebuiltIndex(paths []string) fs.FS {
	if len(paths) > 0 {
		return nil
	}
	return errkb.EmbeddedIndex()
}

// loadIndexed loads the datasets and opens their index, for the commands
// that answer once and exit (lookup, annotate, export). The embedded
// dataset's index ships prebuilt: it is copied into a temporary folder and
// opened, which takes milliseconds where building it took half a second
// per command. Dataset folders are indexed in memory. Bad records are an
// error; nothing is logged. done closes the index and removes its folder.
func loadIndexed(ctx context.Context, paths []string) (ds *errkb.Dataset, ix *index.Index, done func(), err error) {
	quiet := slog.New(slog.DiscardHandler)
	ds, _, err = loadDataset(paths, false, "", quiet)
	if err != nil {
		return nil, nil, nil, err
	}
	if seed := prebuiltIndex(paths); seed != nil {
		if dir, cleanup, err := indexFolder(""); err == nil {
			ix, err := index.OpenSeeded(ctx, ds, dir, seed, quiet)
			if err == nil {
				return ds, ix, func() { ix.Close(); cleanup() }, nil
			}
			cleanup()
		}
		// No temporary folder, or the copy failed: build, as for folders.
	}
	ix, err = index.Build(ctx, ds, quiet)
	if err != nil {
		return nil, nil, nil, err
	}
	return ds, ix, func() { ix.Close() }, nil
}

// load loads the folders, spilling their text into spillDir when one is
// given (see internal/store).
func load(spillDir string, dirs []errkb.Folder) (*errkb.Dataset, store.Report, error) {
	if spillDir == "" {
		ds, err := errkb.Load(dirs...)
		return ds, store.Report{}, err
	}
	return store.Load(spillDir, dirs...)
}
