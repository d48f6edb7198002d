//go:build linux

package store

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/parallel"
	"github.com/errkb/errkb/internal/safefile"
)

// A snapshot is a loaded dataset saved next to the index, so that a
// restart with the same files need not parse and validate 450 MB of JSON
// again: records-{key}.bin is the spill file (see spillFile) kept under a
// name, and records-{key}.idx lists the records with their short fields
// and where their long ones are in the .bin. The key covers the binary
// (its parsing and validation rules) and every dataset file's name and
// bytes, so a changed file or a new release loads from the files again.
// The .idx is written last and checks the .bin's size and CRC-32C, so a
// crash or a damaged file also means loading from the files.
const snapshotVersion = 1

const snapshotPrefix = "records-"

type snapshotHeader struct {
	Version int
	Key     string
	BinSize int64
	BinCRC  uint32
	Count   int
}

type snapshotRecord struct {
	Rec    errkb.Record // long fields empty; Refs says where they are
	Refs   []spillRef
	Digest [32]byte
}

var executableHash = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
})

// filesKey hashes the binary and every dataset file, on every CPU. It
// returns "" when a file cannot be read: then there is no snapshot.
func filesKey(sources []errkb.Source) string {
	exe := executableHash()
	if exe == "" {
		return ""
	}
	type job struct {
		src  errkb.Source
		name string
	}
	var jobs []job
	for _, src := range sources {
		files, err := errkb.Files(src)
		if err != nil {
			return ""
		}
		for _, f := range files {
			jobs = append(jobs, job{src, f})
		}
	}
	sums := make([][]byte, len(jobs))
	parallel.For(len(jobs), func(i int) {
		if data, err := fs.ReadFile(jobs[i].src.FS, jobs[i].name); err == nil {
			h := sha256.New()
			writeField(h, []byte(jobs[i].src.Name+"/"+jobs[i].name))
			writeField(h, data)
			sums[i] = h.Sum(nil)
		}
	})
	if slices.ContainsFunc(sums, func(s []byte) bool { return s == nil }) {
		return "" // a file could not be read
	}
	h := sha256.New()
	fmt.Fprintf(h, "errkb snapshot %d\n%s\n%d\n", snapshotVersion, exe, len(jobs))
	for _, s := range sums {
		h.Write(s)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// loadSnapshot returns the dataset saved under key in dir.
func loadSnapshot(dir, key string) (*errkb.Dataset, error) {
	idx, err := os.Open(filepath.Join(dir, snapshotPrefix+key+".idx"))
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	dec := gob.NewDecoder(bufio.NewReaderSize(idx, 1<<20))
	var hdr snapshotHeader
	if err := dec.Decode(&hdr); err != nil {
		return nil, fmt.Errorf("snapshot header: %w", err)
	}
	if hdr.Version != snapshotVersion || hdr.Key != key {
		return nil, errors.New("snapshot of another version or key")
	}
	bin, err := os.Open(filepath.Join(dir, snapshotPrefix+key+".bin"))
	if err != nil {
		return nil, err
	}
	defer bin.Close()
	if info, err := bin.Stat(); err != nil || info.Size() != hdr.BinSize {
		return nil, fmt.Errorf("snapshot data damaged (size, want %d; %v)", hdr.BinSize, err)
	}
	// The checksum reads the whole file; it runs on another core while
	// the record table decodes, and nothing reads the mapping before both
	// are done.
	crcDone := make(chan error, 1)
	go func() {
		sum, n, err := safefile.CRC(bin)
		if err == nil && (n != hdr.BinSize || sum != hdr.BinCRC) {
			err = errors.New("checksum mismatch")
		}
		crcDone <- err
	}()
	checked := false
	defer func() {
		if !checked {
			<-crcDone // bin is closed on return
		}
	}()
	var mem []byte
	if hdr.BinSize > 0 {
		if mem, err = syscall.Mmap(int(bin.Fd()), 0, int(hdr.BinSize), syscall.PROT_READ, syscall.MAP_SHARED); err != nil {
			return nil, fmt.Errorf("snapshot: map: %w", err)
		}
		smallPages(mem)
	}
	records := make([]*errkb.Record, 0, hdr.Count)
	digests := make(map[*errkb.Record][32]byte, hdr.Count)
	for range hdr.Count {
		var sr snapshotRecord
		if err := dec.Decode(&sr); err != nil {
			return nil, fmt.Errorf("snapshot record: %w", err)
		}
		r := &sr.Rec
		strs := errkb.SpillableStrings(r)
		for _, ref := range sr.Refs {
			if ref.Off < 0 || ref.Len <= 0 || ref.Off+ref.Len > int64(len(mem)) || ref.Field < 0 || ref.Field > len(strs) {
				return nil, errors.New("snapshot reference out of range")
			}
			b := mem[ref.Off : ref.Off+ref.Len : ref.Off+ref.Len]
			if ref.Field == 0 {
				r.Raw = b
			} else {
				*strs[ref.Field-1] = unsafe.String(&b[0], len(b))
			}
		}
		records = append(records, r)
		digests[r] = sr.Digest
	}
	checked = true
	if err := <-crcDone; err != nil {
		if mem != nil {
			_ = syscall.Munmap(mem)
		}
		return nil, fmt.Errorf("snapshot data damaged: %w", err)
	}
	ds := errkb.NewDataset(records)
	ds.SetStorage(errkb.Storage{Release: (&spillFile{maps: [][]byte{mem}}).release, FromSnapshot: true, Digests: digests})
	return ds, nil
}

// saveSnapshot keeps sf under key as the snapshot of ds, and removes the
// snapshots of other keys in dir.
func saveSnapshot(dir, key string, ds *errkb.Dataset, sf *spillFile, digests map[*errkb.Record][32]byte) error {
	sf.mu.Lock()
	defer sf.mu.Unlock()
	if err := sf.f.Sync(); err != nil {
		return err
	}
	sum, n, err := safefile.CRC(io.NewSectionReader(sf.f, 0, 1<<62))
	if err != nil {
		return err
	}
	binName := filepath.Join(dir, snapshotPrefix+key+".bin")
	if err := os.Rename(sf.f.Name(), binName); err != nil {
		return err
	}
	err = safefile.Write(filepath.Join(dir, snapshotPrefix+key+".idx"), func(w io.Writer) error {
		enc := gob.NewEncoder(w)
		if err := enc.Encode(snapshotHeader{Version: snapshotVersion, Key: key, BinSize: n, BinCRC: sum, Count: ds.Len()}); err != nil {
			return err
		}
		for _, r := range ds.Records {
			sr := snapshotRecord{Rec: *r, Refs: sf.refs[r], Digest: digests[r]}
			sr.Rec.Raw = nil
			// The copy shares its slices with r; blanking must not reach r.
			sr.Rec.Solutions = slices.Clone(r.Solutions)
			sr.Rec.PreventionTips = slices.Clone(r.PreventionTips)
			strs := errkb.SpillableStrings(&sr.Rec)
			for _, ref := range sr.Refs {
				if ref.Field > 0 {
					*strs[ref.Field-1] = ""
				}
			}
			if err := enc.Encode(&sr); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	removeOtherSnapshots(dir, key)
	return nil
}

func removeOtherSnapshots(dir, key string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		name := e.Name()
		own := strings.HasPrefix(name, snapshotPrefix+key+".")
		ours := strings.HasPrefix(name, snapshotPrefix) && (strings.HasSuffix(name, ".bin") || strings.HasSuffix(name, ".idx"))
		// Spill files of processes that ended before renaming them.
		ours = ours || strings.HasPrefix(name, ".errkb-records-")
		// Snapshot lists of processes that ended while writing them.
		ours = ours || strings.HasPrefix(name, "."+snapshotPrefix)
		if ours && !own && !e.IsDir() {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
}

// writeField writes b with its length, so field boundaries cannot shift
// between files and still hash the same.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	_, _ = h.Write(n[:])
	_, _ = h.Write(b)
}
