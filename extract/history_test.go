package extract_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

// release extracts one version folder of testdata/history as Fold's
// caller does for an older version: messages and identities only.
func release(t *testing.T, version string) extract.Release {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", "history", version))
	if err != nil {
		t.Fatal(err)
	}
	res, err := extract.Dir(root, extract.Options{NoSurface: true})
	if err != nil {
		t.Fatal(err)
	}
	o := extract.Origin{Repo: "acme-labs/lever", Module: "example.com/acme/lever", Version: version, Ref: version}
	recs, err := extract.Records(res.Errors, root, o)
	if err != nil {
		t.Fatal(err)
	}
	return extract.Release{Version: version, Errors: res.Errors, Records: recs}
}

// TestFoldGolden folds v1.0.0 of the lever fixture into v1.1.0 and
// compares each record's identity and history with
// testdata/golden-history.json: a sentinel reworded (ErrStuck), one
// removed (ErrBent), a call-site error reworded in a function that makes
// only it (Pull), two reworded in a function that makes two (Push: not
// matched, so removed and new), and one unchanged (ErrLoose).
func TestFoldGolden(t *testing.T) {
	recs := extract.Fold(release(t, "v1.1.0"), []extract.Release{release(t, "v1.0.0")})
	type row struct {
		Slug, Message, Link string
		History             *errkb.History
	}
	var b bytes.Buffer
	for _, r := range recs {
		data, err := json.Marshal(row{r.Slug, r.ErrorMessage, r.GithubURL, r.History})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(data, '\n'))
	}
	const golden = "testdata/golden-history.jsonl"
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("fold differs from %s:\n got:\n%s\nwant:\n%s", golden, b.Bytes(), want)
	}
}

// TestFoldKeepsIDs checks that every record of the newest version keeps
// its id, and a removed one keeps the id its last version gave it (a
// reworded call-site error takes the newest version's id).
func TestFoldKeepsIDs(t *testing.T) {
	newest, old := release(t, "v1.1.0"), release(t, "v1.0.0")
	recs := extract.Fold(newest, []extract.Release{old})
	ids := map[string]bool{}
	for _, r := range recs {
		if ids[r.ID] {
			t.Errorf("id %s twice", r.ID)
		}
		ids[r.ID] = true
	}
	for _, r := range append(newest.Records, old.Records...) {
		if !ids[r.ID] && r.ErrorMessage != "pull: bad count %d" {
			t.Errorf("%s (%s) lost", r.ID, r.ErrorMessage)
		}
	}
}
