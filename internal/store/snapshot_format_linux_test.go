//go:build linux

package store

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

// snapshotFixture writes a small generated dataset and saves its snapshot.
func snapshotFixture(t *testing.T, n int) (src errkb.Folder, data, dir string) {
	t.Helper()
	data = t.TempDir()
	if err := kbgen.Write(data, n, 2); err != nil {
		t.Fatal(err)
	}
	src = errkb.Folder{Name: "gen", FS: os.DirFS(data)}
	dir = t.TempDir()
	if _, fromSnapshot := mustLoad(t, dir, src); fromSnapshot {
		t.Fatal("first load came from a snapshot")
	}
	return src, data, dir
}

// mustLoad loads src with dir as the spill and snapshot folder, and says
// whether the records came from a snapshot.
func mustLoad(t *testing.T, dir string, src errkb.Folder) (*errkb.Dataset, bool) {
	t.Helper()
	ds, report, err := Load(dir, src)
	if err != nil {
		t.Fatal(err)
	}
	if report.Err != nil {
		t.Fatal(report.Err)
	}
	return ds, report.FromSnapshot
}

func snapshotTable(t *testing.T, dir string) string {
	t.Helper()
	idxs, _ := filepath.Glob(filepath.Join(dir, snapshotPrefix+"*.idx"))
	if len(idxs) != 1 {
		t.Fatalf("snapshot tables %v, want one", idxs)
	}
	return idxs[0]
}

// TestSnapshotOfAnotherFormatIsRebuilt checks that a record table of an
// older version (the gob table of version 1 has no magic at all), a
// damaged or a truncated one is not read, and that the load that follows
// saves a snapshot a restart uses.
func TestSnapshotOfAnotherFormatIsRebuilt(t *testing.T) {
	src, _, dir := snapshotFixture(t, 300)
	good, err := os.ReadFile(snapshotTable(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	older := bytes.Clone(good)
	binary.LittleEndian.PutUint32(older[8:], snapshotVersion-1)
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x10
	for name, b := range map[string][]byte{
		"older version":  older,
		"gob table":      []byte("\x1f\xff\x81\x03\x01\x01\x0esnapshotHeader\x01\xff\x82\x00\x01\x05\x01\x07Version\x01\x04\x00"),
		"damaged":        flipped,
		"truncated":      good[:len(good)/3],
		"empty":          nil,
		"only the frame": good[:20],
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(snapshotTable(t, dir), b, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, fromSnapshot := mustLoad(t, dir, src); fromSnapshot {
				t.Fatal("used a snapshot table of another format or a damaged one")
			}
			if _, fromSnapshot := mustLoad(t, dir, src); !fromSnapshot {
				t.Fatal("the load after did not save a snapshot that the next one uses")
			}
		})
	}
}

// TestSnapshotTrustsOnlyUnchangedStat checks the manifest once stat is
// trusted (files older than racyWindow): a restart reads the snapshot
// without hashing the files, yet a file rewritten with the same size and
// its old modification time is still read again, since its change time
// moved.
func TestSnapshotTrustsOnlyUnchangedStat(t *testing.T) {
	old := racyWindow
	racyWindow = -time.Hour // every file's stat is trusted at once
	defer func() { racyWindow = old }()
	src, data, dir := snapshotFixture(t, 300)
	files, err := listFiles([]errkb.Folder{src})
	if err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(snapshotTable(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	hdr, _, err := parseIndex(idx)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range hdr.Files {
		if !e.trusted || e.stat != files[i].stat {
			t.Fatalf("manifest entry %q: trusted %v, stat %+v; want trusted, %+v", e.name, e.trusted, e.stat, files[i].stat)
		}
	}
	if _, fromSnapshot := mustLoad(t, dir, src); !fromSnapshot {
		t.Fatal("restart did not use the snapshot")
	}

	part := filepath.Join(data, "part-00000.jsonl")
	info, err := os.Stat(part)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, []byte(`"severity":"error"`))
	if i < 0 {
		t.Fatal("no severity to change")
	}
	copy(b[i:], `"severity":"fatal"`)
	if err := os.WriteFile(part, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(part, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	ds, fromSnapshot := mustLoad(t, dir, src)
	if fromSnapshot {
		t.Fatal("snapshot used although a file changed (same size and modification time)")
	}
	plain, err := errkb.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Hash() != plain.Hash() {
		t.Fatal("dataset after the change differs from the files")
	}
}
