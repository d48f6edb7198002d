//go:build linux

package store

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/errkb/errkb"
)

// spillMin is the shortest string worth moving out of the heap; shorter
// ones (ids, codes, severities) cost less to keep than to point at.
const spillMin = 64

// spillFile holds the bytes of records' large fields outside the Go heap.
// At 100,000 records a dataset is about 450 MB of JSON, and each record is
// held twice, as its raw JSON (served as is by the API) and as decoded
// fields (rendered into pages); on the heap that is near 1 GB before the
// garbage collector's headroom. In a read-only mapping of an unlinked file
// the same bytes are page cache: the kernel reads in only the pages of
// records being served and can drop them again under memory pressure.
// Record's fields keep their types and meaning; only where their bytes
// live changes.
type spillFile struct {
	mu   sync.Mutex
	f    *os.File
	off  int64
	maps [][]byte
	refs map[*errkb.Record][]spillRef // where each record's fields went, for snapshots
}

// spillRef places one spilled field: Field 0 is Raw, field k > 0 is
// errkb.SpillableStrings(r)[k-1].
type spillRef struct {
	Field    int
	Off, Len int64
}

// newSpillFile creates the file in dir. It keeps its name while loading
// so a snapshot can be made of it (see snapshot_linux.go); otherwise the
// caller unlinks it once loaded.
func newSpillFile(dir string) (*spillFile, error) {
	f, err := os.CreateTemp(dir, ".errkb-records-*")
	if err != nil {
		return nil, fmt.Errorf("spill file: %w", err)
	}
	return &spillFile{f: f, refs: make(map[*errkb.Record][]spillRef)}, nil
}

// spill moves recs' raw JSON and large text fields into the file and
// points the records at a read-only mapping of it.
func (sf *spillFile) spill(recs []*errkb.Record) error {
	type ref struct {
		rec      *errkb.Record
		str      *string // nil for Raw
		field    int
		off, len int
	}
	// Sized up front: grown by append, the buffer cost five times the
	// bytes spilled in allocations.
	size := 0
	for _, r := range recs {
		size += len(r.Raw)
		for _, p := range errkb.SpillableStrings(r) {
			if len(*p) >= spillMin {
				size += len(*p)
			}
		}
	}
	var (
		buf  = make([]byte, 0, size)
		refs []ref
	)
	for _, r := range recs {
		rawOff := len(buf)
		refs = append(refs, ref{rec: r, off: rawOff, len: len(r.Raw)})
		buf = append(buf, r.Raw...)
		for k, p := range errkb.SpillableStrings(r) {
			if len(*p) < spillMin {
				continue
			}
			// A field without JSON escapes (prose on one line, URLs) is
			// spelled out in the raw JSON already: point there.
			off := rawOff + indexIn(r.Raw, *p)
			if off < rawOff {
				off = len(buf)
				buf = append(buf, *p...)
			}
			refs = append(refs, ref{rec: r, str: p, field: k + 1, off: off, len: len(*p)})
		}
	}
	if len(buf) == 0 {
		return nil
	}
	page := int64(os.Getpagesize())
	sf.mu.Lock()
	off := sf.off
	sf.off += (int64(len(buf)) + page - 1) / page * page
	sf.mu.Unlock()
	if _, err := sf.f.WriteAt(buf, off); err != nil {
		return fmt.Errorf("spill file: %w", err)
	}
	mem, err := syscall.Mmap(int(sf.f.Fd()), off, len(buf), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return fmt.Errorf("spill file: map: %w", err)
	}
	smallPages(mem)
	sf.mu.Lock()
	sf.maps = append(sf.maps, mem)
	for _, rf := range refs {
		sf.refs[rf.rec] = append(sf.refs[rf.rec], spillRef{Field: rf.field, Off: off + int64(rf.off), Len: int64(rf.len)})
	}
	sf.mu.Unlock()
	for _, rf := range refs {
		b := mem[rf.off : rf.off+rf.len : rf.off+rf.len]
		if rf.str == nil {
			rf.rec.Raw = b
			continue
		}
		if rf.len > 0 {
			*rf.str = unsafe.String(&b[0], rf.len)
		}
	}
	return nil
}

// indexIn returns where s occurs in raw, or -1. It looks for a short
// prefix, which the runtime finds with vector instructions, and checks the
// rest only there.
func indexIn(raw []byte, s string) int {
	prefix := s[:min(len(s), 32)]
	for from := 0; ; {
		i := strings.Index(unsafe.String(unsafe.SliceData(raw[from:]), len(raw)-from), prefix)
		if i < 0 {
			return -1
		}
		i += from
		if len(raw)-i >= len(s) && string(raw[i:i+len(s)]) == s {
			return i
		}
		from = i + 1
	}
}

// smallPages asks the kernel to map m's file pages one by one. The page
// cache of a file read through (the snapshot's checksum) holds 2 MB
// folios, which a fault would otherwise map whole: every record served
// then cost 2 MB of resident memory instead of a few pages.
func smallPages(m []byte) {
	_ = syscall.Madvise(m, syscall.MADV_NOHUGEPAGE)
}

// release drops the mapped pages from the process's resident set. They
// stay in the page cache, and the next read of a record maps them back.
func (sf *spillFile) release() {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	for _, m := range sf.maps {
		_ = syscall.Madvise(m, syscall.MADV_DONTNEED)
	}
}

// done ends loading: the file loses its name unless saveSnapshot renamed
// it (the mapping stays valid either way) and the refs are dropped.
func (sf *spillFile) done() {
	_ = os.Remove(sf.f.Name())
	sf.refs = nil
}
