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
// for generated records and for the shipped dataset; a curated record
// merged with an extracted one has the extracted facts after them.
func TestRawJSONIsTheFilesBytes(t *testing.T) {
	gen := t.TempDir()
	if err := kbgen.Write(gen, 1500, 3); err != nil {
		t.Fatal(err)
	}
	for _, src := range []errkb.Folder{
		{Name: "gen", FS: os.DirFS(gen)},
		{Name: "dataset", FS: os.DirFS("../../dataset")},
	} {
		t.Run(src.Name, func(t *testing.T) {
			dir := t.TempDir()
			for _, wantSnapshot := range []bool{false, true} {
				ds, report, err := store.Load(dir, src)
				if err != nil {
					t.Fatal(err)
				}
				if report.Err != nil || report.FromSnapshot != wantSnapshot {
					t.Fatalf("spill error %v, from snapshot %v; want %v", report.Err, report.FromSnapshot, wantSnapshot)
				}
				if ds.Len() == 0 {
					t.Fatal("no records")
				}
				rawBytes := 0
				for _, r := range ds.Records {
					file := strings.TrimPrefix(r.Location.File, src.Name+"/")
					data, err := os.ReadFile(filepath.Join(map[string]string{"gen": gen, "dataset": "../../dataset"}[src.Name], file))
					if err != nil {
						t.Fatal(err)
					}
					raw := r.RawJSON()
					rawBytes += len(raw)
					if r.Extracted != nil {
						// A curated record merged with its extracted twin:
						// its own bytes, then the extracted facts.
						own, _, ok := bytes.Cut(raw, []byte(`,"extracted":{`))
						if !ok {
							t.Fatalf("record %s: merged, and no extracted facts in its raw JSON", r.ID)
						}
						raw = append(own, '}')
					}
					if !bytes.Contains(data, raw) || !bytes.HasPrefix(raw, []byte("{")) || !bytes.HasSuffix(raw, []byte("}")) {
						t.Fatalf("record %s (%s): RawJSON is not the record's bytes in its file:\n%.300s", r.ID, r.Location, raw)
					}
					if r.Location.Line > 0 && strings.HasSuffix(file, ".jsonl") {
						line := bytes.Split(data, []byte("\n"))[r.Location.Line-1]
						if !bytes.Contains(line, raw) {
							t.Fatalf("record %s: RawJSON is not on its line %d", r.ID, r.Location.Line)
						}
					}
				}
				// With the known keys and the escaped text cut out of the
				// raw JSON, and the text held once, the snapshot is smaller
				// than the raw JSON alone. (The shipped dataset, a file a
				// record, is mostly each batch's padding to a page.)
				if bin := snapshotBytes(t, dir); src.Name == "gen" && bin >= int64(rawBytes) {
					t.Errorf("the snapshot holds %d bytes, the records' raw JSON %d: it keeps the text twice", bin, rawBytes)
				}
			}
		})
	}
}

// snapshotBytes is the size of the snapshot's .bin in dir.
func snapshotBytes(t *testing.T, dir string) int64 {
	t.Helper()
	bins, _ := filepath.Glob(filepath.Join(dir, "records-*.bin"))
	if len(bins) != 1 {
		t.Fatalf("snapshot data files %v, want one", bins)
	}
	info, err := os.Stat(bins[0])
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}
