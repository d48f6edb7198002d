//go:build linux

package store_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
	"github.com/errkb/errkb/internal/store"
)

// TestShippedSnapshotIsCurrent fails while prebuilt/records.* is not the
// snapshot this code makes of the embedded dataset: a start would then
// parse the JSON (slow), or, were the files the same and the parsing
// changed, serve records as the old code read them.
func TestShippedSnapshotIsCurrent(t *testing.T) {
	want, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	idx, data := errkb.EmbeddedSnapshot()
	got, err := store.OpenShipped(idx, data, errkb.Embedded())
	if err != nil {
		t.Fatalf("%v; run `make prebuilt` and commit prebuilt/", err)
	}
	sameRecords(t, got, want)
	if !reflect.DeepEqual(got.Provenance, want.Provenance) {
		t.Errorf("provenance from the snapshot:\n%+v\nwant %+v", got.Provenance, want.Provenance)
	}
}

func TestShippedSnapshot(t *testing.T) {
	data := t.TempDir()
	if err := kbgen.Write(data, 1500, 3); err != nil {
		t.Fatal(err)
	}
	src := errkb.Folder{Name: "gen", FS: os.DirFS(data)}
	want, err := errkb.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := store.SaveShipped(dir, src); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	idx, bin := read(store.ShippedIndexFile), read(store.ShippedDataFile)
	got, err := store.OpenShipped(idx, bin, src)
	if err != nil {
		t.Fatal(err)
	}
	sameRecords(t, got, want)
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}

	t.Run("the same files make the same bytes", func(t *testing.T) {
		again := t.TempDir()
		if err := store.SaveShipped(again, src); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]string{store.ShippedIndexFile: idx, store.ShippedDataFile: bin} {
			if got, err := os.ReadFile(filepath.Join(again, name)); err != nil || string(got) != want {
				t.Errorf("%s differs between two saves of the same files (%v)", name, err)
			}
		}
	})
	t.Run("a truncated record file is refused", func(t *testing.T) {
		if _, err := store.OpenShipped(idx, bin[:len(bin)-1], src); err == nil {
			t.Fatal("opened")
		}
	})
	t.Run("a damaged table is refused", func(t *testing.T) {
		b := []byte(idx)
		b[len(b)/2] ^= 0xff
		if _, err := store.OpenShipped(string(b), bin, src); err == nil {
			t.Fatal("opened")
		}
	})
	t.Run("no snapshot is refused", func(t *testing.T) {
		if _, err := store.OpenShipped("", "", src); err == nil {
			t.Fatal("opened")
		}
	})
	t.Run("a changed file is refused", func(t *testing.T) {
		names, err := src.Files()
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(data, filepath.FromSlash(names[0]))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// The same size, so only the bytes tell.
		changed := strings.Replace(string(b), `"severity": "error"`, `"severity": "fatal"`, 1)
		if changed == string(b) {
			changed = strings.Replace(string(b), "a", "b", 1)
		}
		if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = store.OpenShipped(idx, bin, src)
		if err == nil || !strings.Contains(err.Error(), "changed") {
			t.Fatalf("err = %v, want the files changed", err)
		}
	})
}
