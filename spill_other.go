//go:build !linux

package errkb

import "errors"

// spillFile is unavailable without mmap: records stay on the heap.
type spillFile struct{}

func newSpillFile(string) (*spillFile, error) {
	return nil, errors.New("moving records out of the heap is only implemented on Linux")
}

func (*spillFile) spill([]*Record) error { return nil }

func (*spillFile) release() {}

func filesKey([]Source) string { return "" }

func loadSnapshot(string, string) (*Dataset, error) { return nil, errors.New("no snapshots") }

func saveSnapshot(string, string, *Dataset, *spillFile) error { return nil }

func (*spillFile) done() {}
