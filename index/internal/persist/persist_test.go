package persist

import (
	"bytes"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

var (
	key    = strings.Repeat("ab", 32)
	tables = bytes.Repeat([]byte("tables!!"), 64) // a multiple of 8, as the file is
)

// built finishes a build of key in dir with a small bleve folder.
func built(t *testing.T, dir string) string {
	t.Helper()
	b, err := NewBuild(dir, key)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abandon()
	for name, data := range map[string]string{"index_meta.json": `{"storage":"scorch"}`, "store/000000000001.zap": strings.Repeat("z", 4096)} {
		p := filepath.Join(b.BleveDir(), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(tables, 3); err != nil {
		t.Fatal(err)
	}
	if b.Folder() != Folder(dir, key) || b.Files() != 2 {
		t.Fatalf("finished in %s with %d files", b.Folder(), b.Files())
	}
	return b.Folder()
}

func TestCheckRefusesWhatChanged(t *testing.T) {
	flip := func(name string) func(t *testing.T, folder string) {
		return func(t *testing.T, folder string) {
			p := filepath.Join(folder, filepath.FromSlash(name))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0xff
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name     string
		damage   func(t *testing.T, folder string)
		key      string
		records  int
		notExist bool // Check's error wraps fs.ErrNotExist: no index, build one
	}{
		{name: "intact", damage: func(*testing.T, string) {}},
		{name: "flipped byte in a segment", damage: flip("bleve/store/000000000001.zap")},
		{name: "flipped byte in the tables", damage: flip(TablesName)},
		{name: "truncated tables", damage: func(t *testing.T, folder string) { os.Truncate(filepath.Join(folder, TablesName), 8) }},
		{name: "extra file", damage: func(t *testing.T, folder string) {
			os.WriteFile(filepath.Join(folder, BleveDir, "store", "stray.zap"), []byte("x"), 0o644)
		}},
		{name: "missing manifest", damage: func(t *testing.T, folder string) { os.Remove(filepath.Join(folder, ManifestName)) }, notExist: true},
		{name: "garbage manifest", damage: func(t *testing.T, folder string) {
			os.WriteFile(filepath.Join(folder, ManifestName), []byte("{not json"), 0o644)
		}},
		{name: "another key", damage: func(*testing.T, string) {}, key: strings.Repeat("cd", 32)},
		{name: "another dataset size", damage: func(*testing.T, string) {}, records: 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			folder := built(t, t.TempDir())
			tc.damage(t, folder)
			k, records := key, 3
			if tc.key != "" {
				k = tc.key
			}
			if tc.records != 0 {
				records = tc.records
			}
			m, err := Check(folder, k, records)
			if err == nil {
				var mem []byte
				var unmap func() error
				if mem, unmap, err = MapTables(folder, m); err == nil {
					if !bytes.Equal(mem, tables) {
						t.Error("mapped tables differ from those written")
					}
					unmap()
				}
			}
			switch {
			case tc.name == "intact" && err != nil:
				t.Fatalf("intact index refused: %v", err)
			case tc.name != "intact" && err == nil:
				t.Fatal("damaged index accepted")
			case tc.notExist != errors.Is(err, fs.ErrNotExist):
				t.Fatalf("error %v: wraps fs.ErrNotExist = %v, want %v", err, errors.Is(err, fs.ErrNotExist), tc.notExist)
			}
		})
	}
}

func TestRemoveOthersKeepsOnlyTheIndexAndForeignNames(t *testing.T) {
	dir := t.TempDir()
	built(t, dir)
	other := strings.Repeat("cd", 16)
	for _, name := range []string{other, buildPrefix + "abababababab-123", "not-an-index", strings.Repeat("zz", 16)} {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	RemoveOthers(dir, key[:32], slog.New(slog.DiscardHandler))
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := []string{key[:32], "not-an-index", strings.Repeat("zz", 16)}; !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
}

func TestPlantSeedCopiesOnlyASeedOfTheKey(t *testing.T) {
	folder := built(t, t.TempDir())
	seed := fstest.MapFS{}
	err := filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(folder, p)
		seed[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if k, err := SeedKey(seed); err != nil || k != key {
		t.Fatalf("SeedKey = %q, %v", k, err)
	}
	log := slog.New(slog.DiscardHandler)
	dir := t.TempDir()
	if err := PlantSeed(dir, strings.Repeat("cd", 32), seed, log); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("a seed of another key was copied: %v", entries)
	}
	if err := PlantSeed(dir, key, seed, log); err != nil {
		t.Fatal(err)
	}
	if _, err := Check(Folder(dir, key), key, 3); err != nil {
		t.Fatalf("planted seed does not check: %v", err)
	}
}
