//go:build linux

package store

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"

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
	mu    sync.Mutex
	f     *os.File
	off   int64
	maps  [][]byte
	saved map[*errkb.Record][]byte // each record's entry, for snapshots
}

// newSpillFile creates the file in dir. It keeps its name while loading
// so a snapshot can be made of it (see snapshot_linux.go); otherwise the
// caller unlinks it once loaded.
func newSpillFile(dir string) (*spillFile, error) {
	f, err := os.CreateTemp(dir, ".errkb-records-*")
	if err != nil {
		return nil, fmt.Errorf("spill file: %w", err)
	}
	return &spillFile{f: f, saved: make(map[*errkb.Record][]byte)}, nil
}

// spill moves recs' raw JSON and text fields into the file, laid out as
// a snapshot keeps them (encodeRecord), and points the records at a
// read-only mapping of it.
func (sf *spillFile) spill(recs []*errkb.Record) error {
	var (
		buf    []byte
		bodies = make([][]byte, len(recs))
		offs   = make([]int, len(recs))
		sc     scratch
	)
	// Sized up front: grown by append, the buffer cost five times the
	// bytes spilled in allocations. A blob is about its raw JSON's size.
	size := 0
	for _, r := range recs {
		size += len(r.RawJSON()) + len(r.RawJSON())/16 + 64
	}
	buf = make([]byte, 0, size)
	for i, r := range recs {
		blob, body := encodeRecord(r, &sc)
		offs[i] = len(buf)
		buf = append(buf, blob...)
		bodies[i] = body
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
	d := decoder{mem: mem, memOff: off}
	saved := make([][]byte, len(recs))
	var (
		tmp   errkb.Record
		texts []errkb.Text
	)
	for i, r := range recs {
		entry := binary.AppendUvarint(make([]byte, 0, len(bodies[i])+5), uint64(off)+uint64(offs[i]))
		entry = append(entry, bodies[i]...)
		// Decoded as a restart would, to check the entry; the record
		// takes the long fields and the raw JSON from the mapping and
		// keeps its short fields, which building the index reads all of,
		// on the heap.
		if _, _, err := d.decode(&tmp, entry); err != nil {
			return fmt.Errorf("spill file: %w", err) // a bug: the entry was just made
		}
		texts = errkb.AppendTexts(texts[:0], r)
		if len(texts) != len(d.texts) {
			return fmt.Errorf("spill file: record %s decodes to other fields", r.ID)
		}
		for k, t := range texts {
			if *t.P != *d.texts[k].P {
				return fmt.Errorf("spill file: record %s decodes to other text", r.ID)
			}
			if len(*t.P) >= spillMin {
				*t.P = *d.texts[k].P
			}
		}
		r.HoldRaw(d.held, rawHolder{})
		saved[i] = entry
	}
	// Checking the entries read every page of the batch. Left mapped,
	// the whole file would be resident by the end of loading (397 MiB of
	// 100,000 records), on top of the heap at its fullest.
	_ = syscall.Madvise(mem, syscall.MADV_DONTNEED)
	sf.mu.Lock()
	defer sf.mu.Unlock()
	sf.maps = append(sf.maps, mem)
	for i, r := range recs {
		sf.saved[r] = saved[i]
	}
	return nil
}

// smallPages asks the kernel to map m's file pages one by one. The page
// cache of a file read through (the snapshot's checksum) holds 2 MB
// folios, which a fault would otherwise map whole: every record served
// then cost 2 MB of resident memory instead of a few pages.
func smallPages(m []byte) {
	_ = syscall.Madvise(m, syscall.MADV_NOHUGEPAGE)
}

// randomPages also asks the kernel not to map a fault's neighbouring
// pages. A restarted server reads records at random, a few fields of
// each search candidate: with the kernel's fault-around, each such read
// mapped 64 KB (20,000 records: 147 MiB of file pages resident after 400
// requests, 51 MiB without). Building the index reads every record in
// order, where fault-around pays, so a first start keeps it.
func randomPages(m []byte) {
	_ = syscall.Madvise(m, syscall.MADV_RANDOM)
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

// order lists the indices of records, all spilled here, in the order of
// their bytes in the file (see errkb.Storage); nil when any was not
// spilled.
func (sf *spillFile) order(records []*errkb.Record) []int {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	offs := make([]uint64, len(records))
	for i, r := range records {
		e, ok := sf.saved[r]
		if !ok {
			return nil
		}
		offs[i], _ = binary.Uvarint(e) // the blob's offset (see spill)
	}
	order := make([]int, len(records))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(offs[a], offs[b]) })
	return order
}

// done ends loading: the file loses its name unless saveSnapshot renamed
// it (the mapping stays valid either way) and the entries are dropped.
func (sf *spillFile) done() {
	_ = os.Remove(sf.f.Name())
	sf.saved = nil
}
