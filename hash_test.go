package errkb

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestDatasetHash(t *testing.T) {
	rec := func(id, msg string) string {
		return `{"id":"` + id + `","repo":"acme/widget","slug":"s-` + id + `","errorCode":"E` + id + `","errorMessage":"` + msg + `","severity":"error"}`
	}
	load := func(files map[string]string) *Dataset {
		t.Helper()
		fsys := fstest.MapFS{}
		for name, data := range files {
			fsys[name] = &fstest.MapFile{Data: []byte(data)}
		}
		ds, err := Load(Source{Name: "t", FS: fsys})
		if err != nil {
			t.Fatal(err)
		}
		return ds
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
