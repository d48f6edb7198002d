package kbgen

import (
	"os"
	"testing"

	"github.com/errkb/errkb"
)

// TestWriteLoadsClean checks the generated dataset the way errkb serves it:
// every record passes errkb's validation, ids and paths are unique, and
// records come back with their dataset version.
func TestWriteLoadsClean(t *testing.T) {
	dir := t.TempDir()
	const n = 3000
	if err := Write(dir, n, 3); err != nil {
		t.Fatal(err)
	}
	ds, err := errkb.Load(errkb.Folder{Name: "gen", FS: os.DirFS(dir)})
	if err != nil {
		t.Fatalf("generated dataset does not validate: %v", err)
	}
	if ds.Len() != n {
		t.Fatalf("loaded %d records, want %d", ds.Len(), n)
	}
	if got := ds.Version(); got != "kbgen-seed-3" {
		t.Errorf("dataset version %q, want kbgen-seed-3", got)
	}
	if len(ds.Projects()) < 100 {
		t.Errorf("%d projects, want hundreds for realistic facets", len(ds.Projects()))
	}
	if err := Write(dir, 1, 3); err == nil {
		t.Error("Write into a non-empty folder succeeded; it must refuse to mix datasets")
	}
}

func TestFSMatchesWrite(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, 2500, 5); err != nil {
		t.Fatal(err)
	}
	mem := FS(2500, 5)
	if len(mem) != 3 {
		t.Fatalf("FS holds %d files, want 3", len(mem))
	}
	for name, f := range mem {
		disk, err := os.ReadFile(dir + "/" + name)
		if err != nil || string(disk) != string(f.Data) {
			t.Errorf("%s differs between FS and Write (%v)", name, err)
		}
	}
}
