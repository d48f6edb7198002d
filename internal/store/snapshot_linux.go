//go:build linux

package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/safefile"
)

// A snapshot is a loaded dataset saved next to the index, so that a
// restart with the same files need not parse and validate 450 MB of JSON
// again: records-{key}.bin is the spill file (see spillFile) kept under a
// name, and records-{key}.idx is the record table: for each record an
// entry saying where its fields are in the .bin (codec_linux.go), and the
// raw JSON's holes as one flat array. A restart maps both files and points
// the records' strings into the .bin: nothing is decoded but the entries'
// varints, and no text is copied.
//
// The .idx also lists the dataset files and the binary the snapshot was
// made from (manifest.go): a restart uses the snapshot only when the same
// files are there, unchanged. It is written last, checks the .bin's size
// and CRC-32C and ends with its own, so a crash or a damaged file means
// loading from the files.
//
// The .idx layout: magic, version and header length (uint32s), the
// header (varints), the entries, and the CRC-32C of all that (uint32).
// Version 3 holds each record's shape as errkb walks its field table, and
// its raw JSON's holes in the .bin.
const snapshotVersion = 3

const (
	snapshotPrefix = "records-"
	snapshotMagic  = "errkbsnp"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type snapshotHeader struct {
	Key     string
	BinSize uint64
	BinCRC  uint32
	Count   uint64
	Hash    string // the dataset's Hash
	Files   manifest
}

// loadSnapshot returns the dataset saved in dir for files, if there is
// one and the files are unchanged.
func loadSnapshot(dir string, files []datasetFile) (*errkb.Dataset, error) {
	idxs, _ := filepath.Glob(filepath.Join(dir, snapshotPrefix+"*.idx"))
	err := errors.New("no snapshot")
	for _, name := range idxs {
		var ds *errkb.Dataset
		if ds, err = loadSnapshotFile(name, files); err == nil {
			return ds, nil
		}
	}
	return nil, err
}

func loadSnapshotFile(idxName string, files []datasetFile) (*errkb.Dataset, error) {
	idx, err := mapFile(idxName)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			unmap(idx)
		}
	}()
	hdr, entries, err := parseIndex(idx)
	if err != nil {
		return nil, fmt.Errorf("snapshot %s: %w", idxName, err)
	}
	if !strings.HasSuffix(idxName, snapshotPrefix+hdr.Key+".idx") {
		return nil, errors.New("snapshot under another name")
	}
	if err := hdr.Files.check(files); err != nil {
		return nil, err
	}
	bin, err := os.Open(strings.TrimSuffix(idxName, ".idx") + ".bin")
	if err != nil {
		return nil, err
	}
	defer bin.Close()
	if info, err := bin.Stat(); err != nil || uint64(info.Size()) != hdr.BinSize {
		return nil, fmt.Errorf("snapshot data damaged (size, want %d; %v)", hdr.BinSize, err)
	}
	// The checksum reads the whole file; it runs on another core while
	// the record table decodes, and nothing reads the records before both
	// are done.
	crcDone := make(chan error, 1)
	go func() {
		sum, n, err := safefile.CRC(bin)
		if err == nil && (uint64(n) != hdr.BinSize || sum != hdr.BinCRC) {
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
		randomPages(mem)
	}
	records, offs, err := decodeRecords(mem, entries, hdr.Count)
	checked = true
	if cerr := <-crcDone; err != nil || cerr != nil {
		unmap(mem)
		return nil, fmt.Errorf("snapshot data damaged: %w", errors.Join(err, cerr))
	}
	ok = true
	ds := errkb.NewDataset(slices.Clone(records))
	st := &storage{release: (&spillFile{maps: [][]byte{mem, idx}}).release, hash: hdr.Hash}
	// The records were saved sorted, as NewDataset leaves them, so each
	// keeps its entry's place and offs[i] is that of ds.Records[i].
	if slices.Equal(ds.Records, records) {
		st.order = func() []int { return offsetOrder(offs) }
	}
	ds.SetStorage(st)
	return ds, nil
}

// offsetOrder lists the indices of records, read from one mapping, in
// the order of their blobs' offsets in it: that of the spill file the
// snapshot was made of (see errkb.Storage).
func offsetOrder(offs []uint64) []int {
	order := make([]int, len(offs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(offs[a], offs[b]) })
	return order
}

// decodeRecords makes count records of the entries, pointing into mem,
// with their blobs' offsets.
func decodeRecords(mem []byte, entries []byte, count uint64) ([]*errkb.Record, []uint64, error) {
	d := decoder{mem: mem, heapShort: true}
	return d.decodeAll(entries, count)
}

// decodeAll makes count records of the entries, with their blobs' offsets.
func (d *decoder) decodeAll(entries []byte, count uint64) ([]*errkb.Record, []uint64, error) {
	if count > uint64(len(entries)) {
		return nil, nil, errEntry
	}
	recs := make([]errkb.Record, count)
	ptrs := make([]*errkb.Record, count)
	offs := make([]uint64, count)
	var err error
	for i := range recs {
		if entries, offs[i], err = d.decode(&recs[i], entries); err != nil {
			return nil, nil, err
		}
		ptrs[i] = &recs[i]
	}
	if len(entries) != 0 {
		return nil, nil, errEntry
	}
	return ptrs, offs, nil
}

// parseIndex checks an .idx file's frame and checksum and splits it.
func parseIndex(b []byte) (hdr snapshotHeader, entries []byte, err error) {
	if len(b) < 20 || string(b[:8]) != snapshotMagic {
		return hdr, nil, errors.New("not a snapshot")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != snapshotVersion {
		return hdr, nil, fmt.Errorf("snapshot version %d, want %d", v, snapshotVersion)
	}
	body := b[:len(b)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return hdr, nil, errors.New("snapshot table damaged (checksum)")
	}
	hlen := uint64(binary.LittleEndian.Uint32(b[12:]))
	if hlen > uint64(len(body)-16) {
		return hdr, nil, errEntry
	}
	rd := entryReader{b: body[16 : 16+hlen]}
	hdr.Key = rd.string()
	hdr.BinSize, hdr.Count = rd.uint(), rd.uint()
	hdr.BinCRC = uint32(rd.uint())
	hdr.Hash = rd.string()
	hdr.Files = readManifest(&rd)
	if rd.err || len(rd.b) != 0 {
		return hdr, nil, errEntry
	}
	return hdr, body[16+hlen:], nil
}

// saveSnapshot keeps sf under key as the snapshot of ds, made from files,
// and removes the snapshots of other keys in dir.
func saveSnapshot(dir, key string, ds *errkb.Dataset, sf *spillFile, files manifest) error {
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
	hdr := appendString(nil, key)
	for _, v := range []uint64{uint64(n), uint64(ds.Len()), uint64(sum)} {
		hdr = binary.AppendUvarint(hdr, v)
	}
	hdr = appendString(hdr, ds.Hash())
	hdr = files.append(hdr)
	err = safefile.Write(filepath.Join(dir, snapshotPrefix+key+".idx"), func(w io.Writer) error {
		h := crc32.New(castagnoli)
		w = io.MultiWriter(w, h)
		head := append([]byte(snapshotMagic), make([]byte, 8)...)
		binary.LittleEndian.PutUint32(head[8:], snapshotVersion)
		binary.LittleEndian.PutUint32(head[12:], uint32(len(hdr)))
		head = append(head, hdr...)
		if _, err := w.Write(head); err != nil {
			return err
		}
		for _, r := range ds.Records {
			e, ok := sf.saved[r]
			if !ok {
				return fmt.Errorf("record %s was not spilled", r.ID)
			}
			if _, err := w.Write(e); err != nil {
				return err
			}
		}
		_, err := w.Write(binary.LittleEndian.AppendUint32(nil, h.Sum32()))
		return err
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
		// Snapshot tables of processes that ended while writing them.
		ours = ours || strings.HasPrefix(name, "."+snapshotPrefix)
		if ours && !own && !e.IsDir() {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
}

// mapFile maps the whole file at path read-only.
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.Size() == 0 {
		return nil, errors.New("empty file")
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	smallPages(m)
	randomPages(m)
	return m, nil
}

func unmap(m []byte) {
	if m != nil {
		_ = syscall.Munmap(m)
	}
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func (rd *entryReader) string() string {
	n := rd.uint()
	if rd.err || n > uint64(len(rd.b)) {
		rd.err = true
		return ""
	}
	s := string(rd.b[:n])
	rd.b = rd.b[n:]
	return s
}
