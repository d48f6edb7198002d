//go:build !linux

package persist

// ReleasePages does nothing where madvise is not at hand.
func ReleasePages(m []byte) {}

// smallPages does nothing where madvise is not at hand.
func smallPages(m []byte) {}
