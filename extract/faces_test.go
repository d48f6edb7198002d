package extract_test

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/natserrors"
)

// batch extracts the module at dir as `errkb extract --repo repo --ref
// v0.1.0 dir` does, the project's error table included.
func batch(t *testing.T, dir, repo string) *extract.Batch {
	t.Helper()
	s, err := extract.Resolve(context.Background(), dir, repo, "v0.1.0")
	if err != nil {
		t.Fatal(err)
	}
	s.Origin.Time = fixedTime
	table, err := natserrors.Open(s.Dir, s.Origin.Module)
	if err != nil {
		t.Fatal(err)
	}
	var opts extract.Options
	if table != nil {
		opts.TrackCalls = table.Track()
	}
	prog, err := extract.Load(context.Background(), s, extract.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res := extract.Extract(prog, opts)
	errs := res.Errors
	if table != nil {
		errs = append(errs, table.Errors(res.Calls)...)
	}
	recs, err := extract.Records(errs, s.Dir, s.Origin)
	if err != nil {
		t.Fatal(err)
	}
	return &extract.Batch{Origin: s.Origin, Errors: errs, Records: recs}
}

// joined extracts the fake server and its fake client in one run and
// joins their faces.
func joined(t *testing.T) []*extract.Batch {
	t.Helper()
	bs := []*extract.Batch{
		batch(t, "natserrors/testdata/fakeserver", "acme-labs/fakeserver"),
		batch(t, "testdata/fakeclient", "acme-labs/fakeclient"),
	}
	extract.JoinFaces(bs)
	return bs
}

// TestFacesGolden compares the records of the joined run with
// testdata/golden-faces; go test ./extract -update rewrites them.
func TestFacesGolden(t *testing.T) {
	out := t.TempDir()
	for _, b := range joined(t) {
		prov := errkb.Provenance{Repo: b.Origin.Repo, Module: b.Origin.Module, Version: b.Origin.Version, Tool: extract.Tool}
		if err := extract.Write(out, b.Records, prov, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	checkGolden(t, out, "testdata/golden-faces")
	if _, err := errkb.Load(errkb.Folder{Name: "out", FS: os.DirFS(out)}); err != nil {
		t.Fatalf("errkb validate would fail: %v", err)
	}
}

// TestFaces checks each rule that joins faces, and that faces are
// symmetric.
func TestFaces(t *testing.T) {
	byName := map[string]*errkb.Record{}
	byID := map[string]*errkb.Record{}
	for _, b := range joined(t) {
		for i := range b.Records {
			r := &b.Records[i]
			byName[r.QualifiedName] = r
			byID[r.ID] = r
		}
	}
	faceNames := func(name string) []string {
		r := byName[name]
		if r == nil {
			t.Fatalf("no record %s", name)
		}
		var out []string
		for _, f := range r.Faces {
			out = append(out, f.Side+" "+f.Name+" "+f.Relation+" "+f.FilePath)
		}
		return out
	}
	tests := []struct {
		name string
		want []string
	}{
		// err_code 90001: the client's constant in a literal, and a switch case that returns a sentinel.
		{"server.JSWidgetNotFoundErr", []string{
			"client client.ErrWidgetNotFound err_code 90001 (ErrCodeWidgetNotFound) client.go",
			"client stream.ErrNotFound err_code 90001 (ErrCodeWidgetNotFound) returns ErrNotFound stream/stream.go"}},
		{"stream.ErrNotFound", []string{
			"client client.ErrWidgetNotFound err_code 90001 (ErrCodeWidgetNotFound) client.go",
			"server server.JSWidgetNotFoundErr err_code 90001 server/errors.json"}},
		// err_code 90002: an if that compares the code inside a conjunction.
		{"client.ErrBent", []string{"server server.JSWidgetBentErrF err_code 90002 server/errors.json"}},
		// The same message in two packages of one module.
		{"client.ErrClosed", []string{"client stream.ErrClosed same message stream/stream.go"}},
		// A code no entry of the server's table has, a != comparison, an entry no client names.
		{"stream.ErrUnknown", nil},
		{"server.JSWidgetUnusedErr", nil},
	}
	for _, tt := range tests {
		if got := faceNames(tt.name); !slices.Equal(got, tt.want) {
			t.Errorf("faces of %s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	for _, r := range byID {
		for _, f := range r.Faces {
			o := byID[f.ID]
			if o == nil || !slices.ContainsFunc(o.Faces, func(g errkb.Face) bool { return g.ID == r.ID }) {
				t.Errorf("%s lists %s as a face, which does not list it back", r.QualifiedName, f.Name)
			}
			if f.LineNumber == 0 || !strings.HasSuffix(f.GithubURL, "#L"+strconv.Itoa(f.LineNumber)) {
				t.Errorf("%s: face %s has no place: %+v", r.QualifiedName, f.Name, f)
			}
		}
	}
}
