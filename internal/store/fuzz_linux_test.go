//go:build linux

package store

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

// FuzzReadSnapshot feeds damaged snapshot files to the reader: it must
// refuse them or return records whose every field and raw JSON can be
// read, in an order that lists each once, never panic or read outside
// the files.
func FuzzReadSnapshot(f *testing.F) {
	data, dir := f.TempDir(), f.TempDir()
	if err := kbgen.Write(data, 4, 1); err != nil {
		f.Fatal(err)
	}
	if _, _, err := Load(dir, errkb.Folder{Name: "gen", FS: os.DirFS(data)}); err != nil {
		f.Fatal(err)
	}
	idxs, _ := filepath.Glob(filepath.Join(dir, snapshotPrefix+"*.idx"))
	if len(idxs) != 1 {
		f.Fatalf("snapshot tables %v", idxs)
	}
	idx, err := os.ReadFile(idxs[0])
	if err != nil {
		f.Fatal(err)
	}
	bin, err := os.ReadFile(idxs[0][:len(idxs[0])-len(".idx")] + ".bin")
	if err != nil {
		f.Fatal(err)
	}
	// The fuzzer mutates the table without its checksum, which is added
	// before reading, so that damage reaches the decoder.
	body := idx[:len(idx)-4]
	f.Add(body, bin)
	f.Add(body, bin[:len(bin)/2])
	f.Fuzz(func(t *testing.T, body, bin []byte) {
		idx := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, castagnoli))
		hdr, entries, err := parseIndex(idx)
		if err != nil {
			return
		}
		recs, offs, err := decodeRecords(bin, entries, hdr.Count)
		if err != nil {
			return
		}
		for _, r := range recs {
			for _, t := range errkb.AppendTexts(nil, r) {
				_ = len(*t.P)
			}
			_ = r.RawJSON()
		}
		// The order a build would read them in lists each record once.
		seen := make([]bool, len(recs))
		for _, i := range offsetOrder(offs) {
			if seen[i] {
				t.Fatalf("read order lists record %d twice", i)
			}
			seen[i] = true
		}
	})
}
