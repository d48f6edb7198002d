//go:build !linux

package store

import (
	"errors"

	"github.com/errkb/errkb"
)

// spillFile is unavailable without mmap: records stay on the heap.
type spillFile struct{}

func newSpillFile(string) (*spillFile, error) {
	return nil, errors.New("moving records out of the heap is only implemented on Linux")
}

func (*spillFile) spill([]*errkb.Record) error { return nil }

func (*spillFile) release() {}

func (*spillFile) order([]*errkb.Record) []int { return nil }

func (*spillFile) done() {}

type datasetFile struct{}

type manifest struct{}

func listFiles([]errkb.Folder) ([]datasetFile, error) { return nil, errors.New("no snapshots") }

func hashFiles([]datasetFile) (manifest, string, error) {
	return manifest{}, "", errors.New("no snapshots")
}

func loadSnapshot(string, []datasetFile) (*errkb.Dataset, error) {
	return nil, errors.New("no snapshots")
}

func saveSnapshot(string, string, *errkb.Dataset, *spillFile, manifest) error { return nil }

func SaveShipped(string, ...errkb.Folder) error {
	return errors.New("the shipped snapshot is only made on Linux")
}

func OpenShipped(string, string, ...errkb.Folder) (*errkb.Dataset, error) {
	return nil, errors.New("the shipped snapshot is only read on Linux")
}
