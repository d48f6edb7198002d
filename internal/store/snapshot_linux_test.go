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

// sameRecords compares datasets record by record; a snapshot may turn an
// empty list into a nil one, which reads the same.
func sameRecords(t *testing.T, got, want *errkb.Dataset) {
	t.Helper()
	if got.Len() != want.Len() || got.Hash() != want.Hash() {
		t.Fatalf("%d records, hash %.12s; want %d, %.12s", got.Len(), got.Hash(), want.Len(), want.Hash())
	}
	for i, w := range want.Records {
		g := *got.Records[i]
		w := *w
		g.SetRawWithHoles(g.RawJSON(), nil)
		w.SetRawWithHoles(w.RawJSON(), nil)
		for _, l := range []*[]string{&g.Solutions, &g.PreventionTips, &g.Tags, &w.Solutions, &w.PreventionTips, &w.Tags} {
			if len(*l) == 0 {
				*l = nil
			}
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("record %s differs:\ngot  %+v\nwant %+v", w.ID, g, w)
		}
	}
}

func TestSnapshot(t *testing.T) {
	data := t.TempDir()
	if err := kbgen.Write(data, 2500, 6); err != nil {
		t.Fatal(err)
	}
	src := errkb.Source{Name: "gen", FS: os.DirFS(data)}
	want, err := errkb.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	load := func() *errkb.Dataset {
		t.Helper()
		ds, err := store.Load(dir, src)
		if err != nil {
			t.Fatal(err)
		}
		if err := ds.SpillError(); err != nil {
			t.Fatal(err)
		}
		return ds
	}

	first := load()
	if first.FromSnapshot() {
		t.Fatal("first load came from a snapshot")
	}
	sameRecords(t, first, want)
	second := load()
	if !second.FromSnapshot() {
		t.Fatal("second load of the same files did not use the snapshot")
	}
	sameRecords(t, second, want)

	t.Run("damaged data is not used", func(t *testing.T) {
		bins, _ := filepath.Glob(filepath.Join(dir, "records-*.bin"))
		if len(bins) != 1 {
			t.Fatalf("snapshot files %v", bins)
		}
		b, err := os.ReadFile(bins[0])
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 1
		if err := os.WriteFile(bins[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
		ds := load()
		if ds.FromSnapshot() {
			t.Fatal("a damaged snapshot was used")
		}
		sameRecords(t, ds, want)
	})

	t.Run("changed file is read again", func(t *testing.T) {
		part := filepath.Join(data, "part-00001.jsonl")
		b, err := os.ReadFile(part)
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(b), `"severity":"`, `"severity":"x`, 1)
		if err := os.WriteFile(part, []byte(changed), 0o644); err != nil {
			t.Fatal(err)
		}
		ds := load()
		if ds.FromSnapshot() {
			t.Fatal("snapshot used although a file changed")
		}
		plain, err := errkb.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		sameRecords(t, ds, plain)
		if ds.Hash() == want.Hash() {
			t.Error("changed dataset kept its hash")
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "records-*")); len(files) != 2 {
			t.Errorf("snapshot files after the change: %v, want one .bin and one .idx", files)
		}
	})

	t.Run("no snapshot of a dataset with problems", func(t *testing.T) {
		bad := t.TempDir()
		if err := os.WriteFile(filepath.Join(bad, "a.json"), []byte(`{"id":"x"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		sdir := t.TempDir()
		for range 2 {
			ds, err := store.Load(sdir, errkb.Source{Name: "bad", FS: os.DirFS(bad)})
			if err == nil || ds.FromSnapshot() {
				t.Fatalf("bad dataset: err %v, from snapshot %v", err, ds.FromSnapshot())
			}
		}
		if files, _ := os.ReadDir(sdir); len(files) != 0 {
			t.Errorf("files left for a bad dataset: %v", files)
		}
	})
}
