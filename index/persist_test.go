package index

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

func genDataset(t *testing.T, n int, seed uint64) *errkb.Dataset {
	t.Helper()
	dir := t.TempDir()
	if err := kbgen.Write(dir, n, seed); err != nil {
		t.Fatal(err)
	}
	ds, err := errkb.Load(errkb.Source{Name: "gen", FS: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// openAndCheck opens the persisted index and checks it answers a lookup of
// a record by code; it returns what the log said.
func openAndCheck(t *testing.T, ds *errkb.Dataset, dir string) string {
	t.Helper()
	var log strings.Builder
	ix, err := Open(context.Background(), ds, dir, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatalf("Open: %v\n%s", err, log.String())
	}
	defer ix.Close()
	want := ds.Records[len(ds.Records)/2]
	res, err := ix.Search(context.Background(), Query{Text: want.ErrorMessage, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total == 0 {
		t.Fatalf("search for %q found nothing", want.ErrorMessage)
	}
	return log.String()
}

func TestOpenReusesOnlyTheSameIndex(t *testing.T) {
	dir := t.TempDir()
	ds := genDataset(t, 300, 1)
	if log := openAndCheck(t, ds, dir); !strings.Contains(log, "building") {
		t.Fatalf("first Open did not build:\n%s", log)
	}
	if log := openAndCheck(t, ds, dir); !strings.Contains(log, "index reused") {
		t.Fatalf("second Open with the same dataset did not reuse the index:\n%s", log)
	}

	changed := genDataset(t, 300, 2)
	if Key(changed) == Key(ds) {
		t.Fatal("different datasets share an index key")
	}
	if log := openAndCheck(t, changed, dir); !strings.Contains(log, "building") {
		t.Fatalf("Open with a changed dataset did not rebuild:\n%s", log)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != Key(changed)[:32] {
		t.Errorf("index dir holds %v, want only the current index", entries)
	}
}

func TestOpenRebuildsADamagedIndex(t *testing.T) {
	ds := genDataset(t, 300, 1)
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, folder string)
	}{
		{"flipped byte in a segment", func(t *testing.T, folder string) {
			seg := largestFile(t, filepath.Join(folder, bleveDirName))
			data, err := os.ReadFile(seg)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0xff
			if err := os.WriteFile(seg, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated segment", func(t *testing.T, folder string) {
			if err := os.Truncate(largestFile(t, filepath.Join(folder, bleveDirName)), 100); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing manifest (crash before the build finished)", func(t *testing.T, folder string) {
			if err := os.Remove(filepath.Join(folder, manifestName)); err != nil {
				t.Fatal(err)
			}
		}},
		{"garbage manifest", func(t *testing.T, folder string) {
			if err := os.WriteFile(filepath.Join(folder, manifestName), []byte("{not json"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"extra file", func(t *testing.T, folder string) {
			if err := os.WriteFile(filepath.Join(folder, bleveDirName, "store", "stray.zap"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			openAndCheck(t, ds, dir)
			tc.damage(t, filepath.Join(dir, Key(ds)[:32]))
			log := openAndCheck(t, ds, dir)
			if !strings.Contains(log, "rebuilding") && !strings.Contains(log, "building") {
				t.Fatalf("damaged index was not rebuilt:\n%s", log)
			}
			if log := openAndCheck(t, ds, dir); !strings.Contains(log, "index reused") {
				t.Errorf("rebuilt index was not reused afterwards:\n%s", log)
			}
		})
	}
}

func TestOpenStopsWhenCancelled(t *testing.T) {
	ds := genDataset(t, 300, 1)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Open(ctx, ds, dir, slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("Open with a cancelled context succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("a cancelled build left %v behind", entries)
	}
}

func largestFile(t *testing.T, dir string) string {
	t.Helper()
	files, err := listFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	best := files[0]
	for _, f := range files {
		if f.Size > best.Size {
			best = f
		}
	}
	return filepath.Join(dir, filepath.FromSlash(best.Name))
}
