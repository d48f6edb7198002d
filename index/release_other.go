//go:build !linux

package index

// releasePages does nothing where madvise is not at hand.
func releasePages(m []byte) {}

// smallPages does nothing where madvise is not at hand.
func smallPages(m []byte) {}
