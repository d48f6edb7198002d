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

func (*spillFile) done() {}

func filesKey([]errkb.Source) string { return "" }

func loadSnapshot(string, string) (*errkb.Dataset, error) { return nil, errors.New("no snapshots") }

func saveSnapshot(string, string, *errkb.Dataset, *spillFile, map[*errkb.Record][32]byte) error {
	return nil
}
