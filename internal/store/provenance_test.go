package store

import (
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
)

// TestProvenanceFromSnapshot: a dataset read back from its snapshot still
// knows where its records came from.
func TestProvenanceFromSnapshot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("snapshots are Linux only")
	}
	src := errkb.Folder{Name: "ds", FS: fstest.MapFS{
		"x/acme-labs/widget/_source.json": {Data: []byte(`{"repo":"acme-labs/widget","module":"example.com/acme/widget","version":"v1.2.0","license":"MIT","licenseFile":"LICENSE","tool":"errkb extract"}`)},
		"x/acme-labs/widget/a.json":       {Data: []byte(`{"id":"e1","repo":"acme-labs/widget","slug":"gear-jammed","errorCode":"GEAR_JAMMED","errorMessage":"widget: gear jammed","severity":"error"}`)},
	}}
	dir := t.TempDir()
	for i := range 2 {
		ds, report, err := Load(dir, src)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 && !report.FromSnapshot {
			t.Fatal("second load did not read the snapshot")
		}
		if ds.Provenance["acme-labs/widget"].Module != "example.com/acme/widget" {
			t.Errorf("load %d: provenance %+v", i, ds.Provenance)
		}
	}
}
