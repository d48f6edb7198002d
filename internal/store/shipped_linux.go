//go:build linux

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"unsafe"

	"github.com/errkb/errkb"
)

// The shipped snapshot is the snapshot of the embedded dataset, made by
// cmd/prebuild and embedded in the binary beside the prebuilt index, so
// that a start on the embedded dataset reads no JSON: parsing and
// validating its 36 MB took a second of every `errkb lookup`. It is the
// snapshot format of snapshot_linux.go with two differences:
//
//   - its manifest lists the dataset files only, not the binary that made
//     it (the binary that reads it is another one), and none of them with
//     stat data, so every start hashes the embedded files and uses the
//     snapshot only when they are the ones it was made of;
//   - its record bytes are a string in the binary's read-only data, which
//     the records point into as they would into a mapping; nothing is
//     copied.
//
// A change to how records are parsed, with the dataset unchanged, is not
// seen by the hash: TestShippedSnapshotIsCurrent compares the snapshot
// with a parse of the embedded files and fails until `make prebuilt`
// writes it again.

// SaveShipped writes the snapshot of the folders' dataset into dir as
// ShippedIndexFile and ShippedDataFile. Any problem in a record is an
// error: a dataset that does not load cleanly is not shipped.
func SaveShipped(dir string, folders ...errkb.Folder) error {
	files, err := shippedFiles(folders)
	if err != nil {
		return err
	}
	madeOf, key, err := hashFiles(files)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp(dir, ".shipped-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	sf, err := newSpillFile(work)
	if err != nil {
		return err
	}
	defer sf.done()
	// Loaded first and spilled in the dataset's order, in one call, so
	// that the same files make the same bytes: parsing runs on every CPU
	// and would lay them out in whatever order the files finish.
	ds, err := errkb.Load(folders...)
	if err != nil {
		return fmt.Errorf("shipped snapshot: %w", err)
	}
	if err := sf.spill(ds.Records); err != nil {
		return fmt.Errorf("shipped snapshot: %w", err)
	}
	if err := saveSnapshot(work, key, ds, sf, madeOf); err != nil {
		return fmt.Errorf("shipped snapshot: %w", err)
	}
	for _, f := range [][2]string{{".idx", ShippedIndexFile}, {".bin", ShippedDataFile}} {
		if err := os.Rename(filepath.Join(work, snapshotPrefix+key+f[0]), filepath.Join(dir, f[1])); err != nil {
			return err
		}
		if err := os.Chmod(filepath.Join(dir, f[1]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// OpenShipped reads the dataset of folders from the shipped snapshot idx
// and bin (see SaveShipped), after checking that the folders hold exactly
// the files it was made of. An error means the caller loads the files.
func OpenShipped(idx, bin string, folders ...errkb.Folder) (*errkb.Dataset, error) {
	hdr, entries, err := parseIndex(stringBytes(idx))
	if err != nil {
		return nil, fmt.Errorf("shipped snapshot: %w", err)
	}
	if uint64(len(bin)) != hdr.BinSize {
		return nil, fmt.Errorf("shipped snapshot: %s holds %d bytes, its table wants %d", ShippedDataFile, len(bin), hdr.BinSize)
	}
	files, err := shippedFiles(folders)
	if err != nil {
		return nil, err
	}
	if err := hdr.Files.check(files); err != nil {
		return nil, fmt.Errorf("shipped snapshot: %w", err)
	}
	// Not the mapping's copy of short fields (heapShort): these pages
	// are the binary's own and are never released.
	d := decoder{mem: stringBytes(bin)}
	records, _, err := d.decodeAll(entries, hdr.Count)
	if err != nil {
		return nil, fmt.Errorf("shipped snapshot: %w", err)
	}
	ds := errkb.NewDataset(slices.Clone(records))
	ds.Provenance = errkb.ReadProvenance(folders...)
	ds.SetStorage(&storage{release: func() {}, hash: hdr.Hash})
	return ds, nil
}

// shippedFiles lists the folders' files without stat data, so that the
// manifest trusts none and every start hashes them (see above).
func shippedFiles(folders []errkb.Folder) ([]datasetFile, error) {
	files, err := listFolderFiles(folders)
	for i := range files {
		files[i].stat = fileStat{}
	}
	return files, err
}

// stringBytes is s's bytes, not copied; nothing writes to them.
func stringBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
