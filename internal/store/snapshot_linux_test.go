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

// sameRecords compares datasets record by record, raw JSON included; a
// snapshot may turn an empty list into a nil one, which reads the same.
func sameRecords(t *testing.T, got, want *errkb.Dataset) {
	t.Helper()
	if got.Len() != want.Len() || got.Hash() != want.Hash() {
		t.Fatalf("%d records, hash %.12s; want %d, %.12s", got.Len(), got.Hash(), want.Len(), want.Hash())
	}
	for i, w := range want.Records {
		g := *got.Records[i]
		w := *w
		// Raw JSON held in any form reads the same as the plain bytes.
		g.HoldRaw(g.RawJSON(), nil)
		w.HoldRaw(w.RawJSON(), nil)
		emptyListsNil(reflect.ValueOf(&g).Elem())
		emptyListsNil(reflect.ValueOf(&w).Elem())
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("record %s differs:\ngot  %+v\nwant %+v", w.ID, g, w)
		}
	}
}

// emptyListsNil sets every empty list reachable from v, a settable
// value, to nil.
func emptyListsNil(v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() == 0 {
			if v.CanSet() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			emptyListsNil(v.Index(i))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			emptyListsNil(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				emptyListsNil(f)
			}
		}
	}
}

func TestSnapshot(t *testing.T) {
	data := t.TempDir()
	if err := kbgen.Write(data, 2500, 6); err != nil {
		t.Fatal(err)
	}
	src := errkb.Folder{Name: "gen", FS: os.DirFS(data)}
	want, err := errkb.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	load := func() (*errkb.Dataset, bool) {
		t.Helper()
		ds, report, err := store.Load(dir, src)
		if err != nil {
			t.Fatal(err)
		}
		if report.Err != nil {
			t.Fatal(report.Err)
		}
		return ds, report.FromSnapshot
	}

	first, fromSnapshot := load()
	if fromSnapshot {
		t.Fatal("first load came from a snapshot")
	}
	sameRecords(t, first, want)
	second, fromSnapshot := load()
	if !fromSnapshot {
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
		ds, fromSnapshot := load()
		if fromSnapshot {
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
		ds, fromSnapshot := load()
		if fromSnapshot {
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
			_, report, err := store.Load(sdir, errkb.Folder{Name: "bad", FS: os.DirFS(bad)})
			if err == nil || report.FromSnapshot {
				t.Fatalf("bad dataset: err %v, from snapshot %v", err, report.FromSnapshot)
			}
		}
		if files, _ := os.ReadDir(sdir); len(files) != 0 {
			t.Errorf("files left for a bad dataset: %v", files)
		}
	})
}
