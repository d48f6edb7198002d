package errkb_test

import (
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

func TestDatasetHash(t *testing.T) {
	rec := func(id, msg string) string {
		return string(errkbtest.Bare(errkbtest.Record(errkbtest.ID("r"+id), func(r *errkb.Record) { r.ErrorMessage = msg })))
	}
	load := func(files map[string]string) *errkb.Dataset {
		t.Helper()
		return errkbtest.Load(t, errkb.Folder{Name: "t", FS: errkbtest.Files(files)})
	}
	base := load(map[string]string{"a.jsonl": rec("1", "one") + "\n" + rec("2", "two") + "\n"})
	tests := []struct {
		name  string
		files map[string]string
		same  bool
	}{
		{"same records in other files", map[string]string{"x/b.json": rec("2", "two"), "c.json": "[" + rec("1", "one") + "]"}, true},
		{"one message changed", map[string]string{"a.jsonl": rec("1", "one") + "\n" + rec("2", "tw0") + "\n"}, false},
		{"record added", map[string]string{"a.jsonl": rec("1", "one") + "\n" + rec("2", "two") + "\n" + rec("3", "three")}, false},
		{"dataset version added", map[string]string{"a.jsonl": `{"record":` + rec("1", "one") + `,"datasetVersion":"v2"}` + "\n" + rec("2", "two")}, false},
		{"white space inside a record", map[string]string{"a.jsonl": strings.Replace(rec("1", "one"), ",", ", ", 1) + "\n" + rec("2", "two")}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := load(tc.files).Hash() == base.Hash(); got != tc.same {
				t.Errorf("same hash = %v, want %v", got, tc.same)
			}
		})
	}
	if len(base.Hash()) != 64 {
		t.Errorf("hash %q is not hex SHA-256", base.Hash())
	}
}
