package web

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/kbgen"
)

// kbgenProjects is how many projects kbgen spreads records over: record i
// belongs to project i mod kbgenProjects.
const kbgenProjects = 420

// bigProject is the kbgen project grown to hundreds of errors; its index
// is a Go project with numeric codes, so its page has directories, HTTP
// statuses and numbers to show.
const bigProject = 7

// generatedFS is records 0..n-1 of kbgen's seed 1, as the issue's
// 3,000-record trial had them, plus further records of one project until
// it holds big records. They are kbgen's own records (record
// bigProject+420k is the project's k-th), so every one is as valid and
// unique as the rest. It returns the big project's repo.
func generatedFS(t testing.TB, n, big int) (fstest.MapFS, string) {
	t.Helper()
	g := kbgen.NewGenerator(1)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range n {
		if err := enc.Encode(g.Envelope(i)); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < big; k++ {
		if i := bigProject + kbgenProjects*k; i >= n {
			if err := enc.Encode(g.Envelope(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return fstest.MapFS{"generated.jsonl": {Data: buf.Bytes()}}, g.Record(bigProject).Repo
}

// generatedDataset loads generatedFS.
func generatedDataset(t testing.TB, n, big int) (*errkb.Dataset, string) {
	t.Helper()
	fsys, repo := generatedFS(t, n, big)
	ds, err := errkb.Load(errkb.Folder{Name: "generated", FS: fsys})
	if err != nil {
		t.Fatalf("load generated dataset: %v", err)
	}
	if got := len(ds.ByRepo(repo)); got != max(big, (n-bigProject+kbgenProjects-1)/kbgenProjects) {
		t.Fatalf("%s holds %d records, want %d", repo, got, big)
	}
	return ds, repo
}
