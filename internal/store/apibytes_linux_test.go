//go:build linux

package store_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
	"github.com/errkb/errkb/internal/store"
)

// TestRawJSONIsTheFilesBytes checks what the API serves of each record,
// RawJSON, on a first start (records spilled) and on a restart (records
// read from the snapshot): the bytes of the record object in its file,
// for generated records and for the shipped dataset.
func TestRawJSONIsTheFilesBytes(t *testing.T) {
	gen := t.TempDir()
	if err := kbgen.Write(gen, 1500, 3); err != nil {
		t.Fatal(err)
	}
	for _, src := range []errkb.Source{
		{Name: "gen", FS: os.DirFS(gen)},
		{Name: "dataset", FS: os.DirFS("../../dataset")},
	} {
		t.Run(src.Name, func(t *testing.T) {
			dir := t.TempDir()
			for _, wantSnapshot := range []bool{false, true} {
				ds, err := store.Load(dir, src)
				if err != nil {
					t.Fatal(err)
				}
				if err := ds.SpillError(); err != nil || ds.FromSnapshot() != wantSnapshot {
					t.Fatalf("spill error %v, from snapshot %v; want %v", err, ds.FromSnapshot(), wantSnapshot)
				}
				if ds.Len() == 0 {
					t.Fatal("no records")
				}
				holed := 0
				for _, r := range ds.Records {
					if len(r.RawHoles()) > 0 {
						holed++
					}
					file := strings.TrimPrefix(r.Source.File, src.Name+"/")
					data, err := os.ReadFile(filepath.Join(map[string]string{"gen": gen, "dataset": "../../dataset"}[src.Name], file))
					if err != nil {
						t.Fatal(err)
					}
					raw := r.RawJSON()
					if !bytes.Contains(data, raw) || !bytes.HasPrefix(raw, []byte("{")) || !bytes.HasSuffix(raw, []byte("}")) {
						t.Fatalf("record %s (%s): RawJSON is not the record's bytes in its file:\n%.300s", r.ID, r.Source, raw)
					}
					if r.Source.Line > 0 && strings.HasSuffix(file, ".jsonl") {
						line := bytes.Split(data, []byte("\n"))[r.Source.Line-1]
						if !bytes.Contains(line, raw) {
							t.Fatalf("record %s: RawJSON is not on its line %d", r.ID, r.Source.Line)
						}
					}
				}
				if holed == 0 {
					t.Error("no record's raw JSON has holes: the snapshot keeps it twice")
				}
			}
		})
	}
}
