package extract_test

import (
	"os"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// TestCodeIsInSource holds every extracted record to its name: a code is
// empty or written, as is, in the source the record quotes, and a
// qualified name is the package's name and the code.
func TestCodeIsInSource(t *testing.T) {
	out := t.TempDir()
	extractTo(t, fixture(t), out)
	ds, err := errkb.Load(errkb.Folder{Name: "out", FS: os.DirFS(out)})
	if err != nil {
		t.Fatal(err)
	}
	recs := ds.Records
	for _, b := range joined(t) { // a table entry, a type, sentinels and errors made in functions of two more modules
		for i := range b.Records {
			recs = append(recs, &b.Records[i])
		}
	}
	named := 0
	for _, r := range recs {
		if r.ErrorCode == "" {
			if r.QualifiedName != "" {
				t.Errorf("%s: qualifiedName %q without a code", r.Slug, r.QualifiedName)
			}
			continue
		}
		named++
		if !strings.Contains(r.SourceCode, r.ErrorCode) {
			t.Errorf("%s: code %q is not in its source:\n%s", r.Slug, r.ErrorCode, r.SourceCode)
		}
		if !strings.HasSuffix(r.QualifiedName, "."+r.ErrorCode) {
			t.Errorf("%s: qualifiedName %q does not end in its code %q", r.Slug, r.QualifiedName, r.ErrorCode)
		}
		for _, a := range r.Aliases {
			if a == r.ErrorCode {
				t.Errorf("%s: alias %q repeats the code", r.Slug, a)
			}
		}
	}
	if named == 0 {
		t.Error("no record has a code: the test checks nothing")
	}
}
