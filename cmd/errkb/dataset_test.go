package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/errkb/errkb"
)

// TestOneShotCommandsOpenThePrebuiltIndex: lookup, annotate and export on
// the embedded dataset open the index shipped in the binary, as the server
// does, instead of building one per command, and leave nothing behind.
func TestOneShotCommandsOpenThePrebuiltIndex(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	_, ix, done, err := loadIndexed(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The shipped tables are in the folder opened, byte for byte: a build
	// would have written its own.
	want, err := fs.ReadFile(errkb.EmbeddedIndex(), "tables.bin")
	if err != nil {
		t.Fatal(err)
	}
	found, _ := filepath.Glob(filepath.Join(tmp, "errkb-index-*", "*", "tables.bin"))
	if len(found) != 1 {
		t.Fatalf("tables in the temporary folder: %v", found)
	}
	if got, err := os.ReadFile(found[0]); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not the shipped tables (%v)", found[0], err)
	}
	res, err := ix.Lookup(t.Context(), "nats: consumer is offline")
	if err != nil || res.Match == nil || res.Match.ID != "dabd815d1877efcd" {
		t.Errorf("lookup on the prebuilt index: %+v, %v", res, err)
	}
	done()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary folder after the command: %v", left)
	}
}
