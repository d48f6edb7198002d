package index

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index/internal/persist"
	"github.com/errkb/errkb/internal/kbgen"
)

func genDataset(t *testing.T, n int, seed uint64) *errkb.Dataset {
	t.Helper()
	dir := t.TempDir()
	if err := kbgen.Write(dir, n, seed); err != nil {
		t.Fatal(err)
	}
	ds, err := errkb.Load(errkb.Folder{Name: "gen", FS: os.DirFS(dir)})
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
			seg := largestFile(t, filepath.Join(folder, persist.BleveDir))
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
			if err := os.Truncate(largestFile(t, filepath.Join(folder, persist.BleveDir)), 100); err != nil {
				t.Fatal(err)
			}
		}},
		{"flipped byte in the lookup tables", func(t *testing.T, folder string) {
			path := filepath.Join(folder, persist.TablesName)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0xff
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"truncated lookup tables", func(t *testing.T, folder string) {
			if err := os.Truncate(filepath.Join(folder, persist.TablesName), 100); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing lookup tables", func(t *testing.T, folder string) {
			if err := os.Remove(filepath.Join(folder, persist.TablesName)); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing manifest (crash before the build finished)", func(t *testing.T, folder string) {
			if err := os.Remove(filepath.Join(folder, persist.ManifestName)); err != nil {
				t.Fatal(err)
			}
		}},
		{"garbage manifest", func(t *testing.T, folder string) {
			if err := os.WriteFile(filepath.Join(folder, persist.ManifestName), []byte("{not json"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"extra file", func(t *testing.T, folder string) {
			if err := os.WriteFile(filepath.Join(folder, persist.BleveDir, "store", "stray.zap"), []byte("x"), 0o644); err != nil {
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
			if !strings.Contains(log, "lookup tables built") {
				t.Errorf("rebuild did not rebuild the lookup tables:\n%s", log)
			}
			if log := openAndCheck(t, ds, dir); !strings.Contains(log, "index reused") {
				t.Errorf("rebuilt index was not reused afterwards:\n%s", log)
			}
		})
	}
}

// TestRestartMapsTheTables checks that a restart reads the lookup tables
// from disk instead of building them, and that the index it opens answers
// exactly as one built in memory: every kind of query the tables serve
// (id, code, class, identifier, pattern, template, typo) gives the same
// hits in the same order with the same scores.
func TestRestartMapsTheTables(t *testing.T) {
	ds := genDataset(t, 300, 3)
	dir := t.TempDir()
	openAndCheck(t, ds, dir)
	var log strings.Builder
	reopened, err := Open(context.Background(), ds, dir, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	if !strings.Contains(log.String(), "index reused") || strings.Contains(log.String(), "lookup tables built") {
		t.Fatalf("restart rebuilt the tables:\n%s", log.String())
	}
	if reopened.unmap == nil {
		t.Error("restart did not map the tables file")
	}
	built, err := Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer built.Close()
	var queries []string
	for _, r := range ds.Records[:40] {
		queries = append(queries, r.ID, r.ErrorCode, r.ErrorClass, r.ErrorMessage, r.MessagePattern,
			typo(r.ErrorMessage), logLine(r), strings.ToLower(r.Repo)+" "+firstWords(r.ErrorMessage, 3))
	}
	for _, q := range queries {
		a, err := built.Search(context.Background(), Query{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		b, err := reopened.Search(context.Background(), Query{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := hitList(b), hitList(a); got != want {
			t.Errorf("Search(%q) after restart:\n%s\nbuilt in memory:\n%s", q, got, want)
		}
		la, _ := built.Lookup(context.Background(), q)
		lb, _ := reopened.Lookup(context.Background(), q)
		if fmt.Sprint(la) != fmt.Sprint(lb) {
			t.Errorf("Lookup(%q) after restart %v, built in memory %v", q, lb, la)
		}
	}
}

func hitList(r *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "total %d\n", r.Total)
	for _, h := range r.Hits {
		fmt.Fprintf(&b, "%s %.6f\n", h.Record.ID, h.Score)
	}
	return b.String()
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
	var best string
	var size int64 = -1
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil && info.Size() > size {
			best, size = p, info.Size()
		}
		return err
	})
	if err != nil || best == "" {
		t.Fatalf("no file under %s: %v", dir, err)
	}
	return best
}
