package errkb_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// TestRecordKeysRefused checks that a record saying one thing to errkb and
// another to a reader of its file is refused on both record paths, with a
// problem naming the file, the line and the key.
func TestRecordKeysRefused(t *testing.T) {
	valid := string(errkbtest.JSON(errkbtest.Record()))
	splice := func(keys string) string {
		return strings.Replace(valid, `"record":{`, `"record":{`+"\n"+keys, 1)
	}
	for _, tc := range []struct {
		name, entry, want string
	}{
		{"duplicate id", splice(`"id":"other",`), `r.json:2: record "f00dfeed00000001": field "id": appears twice`},
		{"case variant", splice(`"ID":"b","Repo":"other/repo",`), `r.json:2: record "f00dfeed00000001": field "ID": differs from the field "id" only in letter case`},
		{"case variant repo", splice(`"Repo":"other/repo",`), `field "Repo": differs from the field "repo" only in letter case`},
		{"duplicate envelope key", `{"datasetVersion":"a",` + valid[1:], `field "datasetVersion": appears twice`},
		{"misspelt envelope", `{"Record":{}}`, `field "Record": differs from the field "record" only in letter case`},
		{"duplicate unknown key", splice(`"note":1,"note":2,`), `field "note": appears twice`},
		{"duplicate nested key", splice(`"meta":{"links":[{"href":"https://a.example","href":"https://b.example"}]},`), `r.json:2: record "f00dfeed00000001": field "meta.links[0].href": appears twice`},
		{"duplicate call-site key", strings.Replace(valid, `"function":"Run"`, `"function":"Run","function":"Stop"`, 1), `field "callSites[0].function": appears twice`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"r.json": {Data: []byte(tc.entry)}}
			for path, load := range map[string]func(...errkb.Folder) (*errkb.Dataset, error){"fast": errkb.Load, "careful": errkb.LoadCareful} {
				ds, err := load(errkb.Folder{Name: "d", FS: fsys})
				if ds.Len() != 0 || err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s path: %d records, problems %v; want %q", path, ds.Len(), err, tc.want)
				}
			}
		})
	}
}

// TestLineOverflow checks that line numbers at the int64 extremes give
// one correct problem, not a second one computed from an overflow.
func TestLineOverflow(t *testing.T) {
	for _, tc := range []struct {
		start, end int
		want       string
	}{
		{1, 1<<63 - 1, `field "sourceCode": has 4 lines but sourceCodeStart-sourceCodeEnd spans 9223372036854775807`},
		{0, 1<<63 - 1, `field "sourceCode": has 4 lines but sourceCodeStart-sourceCodeEnd spans 9223372036854775808`},
		{-1 << 63, 4, `field "sourceCodeStart": must not be negative, got -9223372036854775808`},
	} {
		rec := errkbtest.Record(func(r *errkb.Record) { r.SourceCodeStart, r.SourceCodeEnd, r.LineNumber = tc.start, tc.end, 0 })
		_, probs := errkbtest.Problems(t, errkbtest.Folder(rec))
		if len(probs) != 1 || !strings.Contains(probs[0].String(), tc.want) {
			t.Errorf("lines %d-%d: problems %v; want one: %s", tc.start, tc.end, probs, tc.want)
		}
	}
}

// TestFileProblemsInPlainWords checks the wording of two problems whose
// Go errors mean nothing to a dataset's author.
func TestFileProblemsInPlainWords(t *testing.T) {
	bom := fstest.MapFS{"r.json": {Data: append([]byte("\xEF\xBB\xBF"), errkbtest.JSON(errkbtest.Record())...)}}
	_, probs := errkbtest.Problems(t, errkb.Folder{Name: "d", FS: bom})
	if len(probs) != 1 || probs[0].String() != "d/r.json:1: starts with a byte-order mark (U+FEFF); JSON files must be saved as UTF-8 without one" {
		t.Errorf("byte-order mark: %v", probs)
	}

	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "ds"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "outside.json"), errkbtest.JSON(errkbtest.Record()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside.json", filepath.Join(dir, "ds", "r.json")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(filepath.Join(dir, "ds"))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, probs = errkbtest.Problems(t, errkb.Folder{Name: "d", FS: root.FS()})
	if len(probs) != 1 || probs[0].String() != "d/r.json: is a symbolic link to a file outside the dataset folder; copy the file into the folder instead" {
		t.Errorf("escaping symlink: %v", probs)
	}
}

// TestDatasetSizeCap checks that a dataset over the total cap is refused
// whole, before any file is parsed, with a problem saying so.
func TestDatasetSizeCap(t *testing.T) {
	entry := string(errkbtest.JSON(errkbtest.Record()))
	errkb.CapDataset(t, int64(2*len(entry)))
	fits := errkbtest.Files(map[string]string{"a.json": entry})
	if _, err := errkb.Load(errkb.Folder{Name: "d", FS: fits}); err != nil {
		t.Fatalf("a dataset under the cap: %v", err)
	}
	over := errkbtest.Files(map[string]string{"a.json": entry, "b/c.jsonl": entry + "\n" + entry})
	ds, err := errkb.Load(errkb.Folder{Name: "d", FS: over})
	if ds.Len() != 0 || err == nil || !strings.Contains(err.Error(), "d: the dataset's files hold more than") {
		t.Errorf("a dataset over the cap: %d records, %v", ds.Len(), err)
	}
}

// TestURLFieldsCheckedWhateverTheirName checks that an unknown field that
// names a link, in the singular or the plural, gets the link check.
func TestURLFieldsCheckedWhateverTheirName(t *testing.T) {
	for _, key := range []string{"link", "links", "url", "urls", "href", "hrefs", "uri", "docsLink", "homepageUrls", "src"} {
		for _, value := range []any{"ms-msdt:/id", []string{"https://example.com", "ms-msdt:/id"}} {
			fields := errkbtest.Fields(func(f map[string]any) { f[key] = value })
			_, probs := errkbtest.Problems(t, errkb.Folder{Name: "d", FS: errkbtest.Files(map[string]string{"r.json": string(errkbtest.JSON(fields))})})
			if len(probs) != 1 || !strings.HasPrefix(probs[0].Field, key) || !strings.Contains(probs[0].Message, "http, https or mailto") {
				t.Errorf("%s = %v: problems %v", key, value, probs)
			}
		}
	}
}
