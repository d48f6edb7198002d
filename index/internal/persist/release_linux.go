package persist

import "syscall"

// ReleasePages drops the pages of a read-only file mapping from the
// process's resident set once reading the whole of it (checking the
// tables) is done; they stay in the page cache, and queries map back only
// those they touch.
func ReleasePages(m []byte) {
	if len(m) > 0 {
		_ = syscall.Madvise(m, syscall.MADV_DONTNEED)
	}
}

// smallPages asks the kernel to map m's pages one by one: the page cache
// of a file just read through holds 2 MB folios, which a fault would
// otherwise map whole, so a query touching a few entries would make
// megabytes resident.
func smallPages(m []byte) {
	if len(m) > 0 {
		_ = syscall.Madvise(m, syscall.MADV_NOHUGEPAGE)
	}
}
