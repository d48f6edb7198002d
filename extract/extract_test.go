package extract_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the extractor's output")

// fixture copies testdata/widget (a fictional module) to a temporary
// folder and adds a file that does not parse, which cannot live in the
// repository as a .go file without breaking gofmt.
func fixture(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "widget")
	if err := os.CopyFS(dir, os.DirFS("testdata/widget")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "broken.go.in"), filepath.Join(dir, "broken.go")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixedTime is the analyzedAt the tests give a folder, as
// SOURCE_DATE_EPOCH does for `errkb extract`.
const fixedTime = "2026-01-01T00:00:00Z"

// extractTo runs what `errkb extract --repo acme-labs/widget --ref v1.2.0
// DIR` runs and returns what it found.
func extractTo(t *testing.T, src, out string) *extract.Result {
	t.Helper()
	s, err := extract.Resolve(context.Background(), src, "acme-labs/widget", "v1.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if s.Origin.Time == "" {
		s.Origin.Time = fixedTime
	}
	res := load(t, s, extract.LoadOptions{})
	recs, err := extract.Records(res.Errors, s.Dir, s.Origin)
	if err != nil {
		t.Fatal(err)
	}
	name, text, spdx := extract.License(s.Dir)
	prov := errkb.Provenance{Repo: s.Origin.Repo, Module: s.Origin.Module, Version: s.Origin.Version,
		Commit: s.Origin.Commit, License: spdx, LicenseFile: name, Tool: extract.Tool}
	if err := extract.Write(out, recs, prov, name, text); err != nil {
		t.Fatal(err)
	}
	return res
}

// load loads and extracts a source with options.
func load(t *testing.T, s extract.Source, o extract.LoadOptions) *extract.Result {
	t.Helper()
	prog, err := extract.Load(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	return extract.Extract(prog, extract.Options{})
}

// loaded memoises loadFixture: each load runs the go command and
// type-checks the fixture's imports, and most tests only read the result.
var loaded sync.Map // fmt.Sprint(LoadOptions) -> *extract.Result

// loadFixture extracts a copy of the fixture with options, once per
// options for the whole test binary. Callers must not change the result.
func loadFixture(t *testing.T, o extract.LoadOptions) *extract.Result {
	t.Helper()
	k := fmt.Sprint(o.Tags, o.Tests)
	if res, ok := loaded.Load(k); ok {
		return res.(*extract.Result)
	}
	s, err := extract.Resolve(context.Background(), fixture(t), "acme-labs/widget", "v1.2.0")
	if err != nil {
		t.Fatal(err)
	}
	res := load(t, s, o)
	loaded.Store(k, res)
	return res
}

func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkGolden compares every file under out with those under golden;
// with -update it first makes golden a copy of out.
func checkGolden(t *testing.T, out, golden string) {
	t.Helper()
	got := readTree(t, out)
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(golden, os.DirFS(out)); err != nil {
			t.Fatal(err)
		}
	}
	want := readTree(t, golden)
	for name, data := range want {
		if !bytes.Equal(got[name], data) {
			t.Errorf("%s differs from the golden file:\n got: %s\nwant: %s", name, got[name], data)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s written but not in the golden files (run with -update if intended)", name)
		}
	}
}

// TestGolden compares every file extract writes for the fixture with
// testdata/golden; go test ./extract -update rewrites them.
func TestGolden(t *testing.T) {
	out := t.TempDir()
	extractTo(t, fixture(t), out)
	checkGolden(t, out, "testdata/golden")
	// What it wrote is a valid dataset.
	ds, err := errkb.Load(errkb.Folder{Name: "out", FS: os.DirFS(out)})
	if err != nil {
		t.Fatalf("errkb validate would fail: %v", err)
	}
	if pv := ds.Provenance["acme-labs/widget"]; pv.License != "MIT" || pv.Module != "example.com/acme/widget" || pv.LicenseFile != "LICENSE" {
		t.Errorf("provenance = %+v", pv)
	}
}

func find(t *testing.T, res *extract.Result, pred func(e *extract.Error) bool) *extract.Error {
	t.Helper()
	for i := range res.Errors {
		if pred(&res.Errors[i]) {
			return &res.Errors[i]
		}
	}
	return nil
}

func named(name string) func(e *extract.Error) bool {
	return func(e *extract.Error) bool { return e.Name == name }
}

func message(msg string) func(e *extract.Error) bool {
	return func(e *extract.Error) bool { return e.Message == msg }
}

func TestWhatItFinds(t *testing.T) {
	res := loadFixture(t, extract.LoadOptions{})
	key := func(e *extract.Error) string { return e.Key() }
	tests := []struct {
		name  string
		find  func(e *extract.Error) bool
		check func(t *testing.T, e *extract.Error)
	}{
		{"exported sentinel in a var block", named("ErrNoWidget"), func(t *testing.T, e *extract.Error) {
			if e.Kind != extract.Sentinel || e.Message != "widget: no such widget" || e.Doc != "ErrNoWidget is returned when no widget has the given name." {
				t.Errorf("%+v", e)
			}
			if len(e.Sites) != 1 || e.Sites[0].File != "assemble.go" || e.Sites[0].Line != 13 || e.Sites[0].Func != "Assemble" {
				t.Errorf("sites = %+v, want the return in Assemble only (not errors.Is)", e.Sites)
			}
		}},
		{"unexported sentinel made with fmt.Errorf", named("errSpringLoose"), func(t *testing.T, e *extract.Error) {
			if e.Message != "widget: spring loose" || len(e.Sites) != 1 || e.Sites[0].Func != "check" {
				t.Errorf("%+v", e)
			}
		}},
		{"sentinel outside a block, compared but raised once", named("ErrSealed"), func(t *testing.T, e *extract.Error) {
			if len(e.Sites) != 1 || e.Sites[0].Line != 42 {
				t.Errorf("sites = %+v, want only `return ErrSealed` (not `err == ErrSealed`)", e.Sites)
			}
		}},
		{"literal of an error type carries its code and status", named("ErrGearJammed"), func(t *testing.T, e *extract.Error) {
			if e.Message != "widget: gear jammed (code 4101)" || e.HTTPStatus != 409 {
				t.Errorf("message %q, status %d", e.Message, e.HTTPStatus)
			}
			if e.Code == nil || e.Code.Name != "ErrCodeGearJammed" || e.Code.Value != 4101 || e.Code.CarrierType != "APIError" || e.Code.CarrierField != "ErrorCode" {
				t.Errorf("code = %+v", e.Code)
			}
		}},
		{"error type with a Sprintf Error", named("SizeError"), func(t *testing.T, e *extract.Error) {
			if e.Kind != extract.Type || e.Message != "widget: size %d, want %d" || len(e.Sites) != 1 || e.Pointer {
				t.Errorf("%+v", e)
			}
		}},
		{"error type with a constant Error, raised by conversion", named("ColorError"), func(t *testing.T, e *extract.Error) {
			if e.Message != "widget: unknown color" || len(e.Sites) == 0 || e.Sites[0].Func != "check" {
				t.Errorf("%+v", e)
			}
		}},
		{"errors.New inside a function", message("widget: assembly failed"), func(t *testing.T, e *extract.Error) {
			if e.Kind != extract.Call || e.Func != "Assemble" || e.Line != 27 {
				t.Errorf("%+v", e)
			}
		}},
		{"fmt.Errorf inside a function keeps its format", message("check %q: part %d missing"), func(t *testing.T, e *extract.Error) {
			if e.Kind != extract.Call || e.Func != "check" {
				t.Errorf("%+v", e)
			}
		}},
		{"%w of a sentinel of this package", message("assemble %s: %w"), func(t *testing.T, e *extract.Error) {
			if !slices.Equal(e.Wraps, []string{"example.com/acme/widget.ErrGearJammed"}) {
				t.Errorf("wraps = %v", e.Wraps)
			}
		}},
		{"%w of a sentinel of another package of the module", message("assemble %s: gears: %w"), func(t *testing.T, e *extract.Error) {
			if !slices.Equal(e.Wraps, []string{"example.com/acme/widget/internal/gears.ErrStripped"}) {
				t.Errorf("wraps = %v", e.Wraps)
			}
		}},
		{"a sentinel of an internal package is kept and marked", named("ErrStripped"), func(t *testing.T, e *extract.Error) {
			if e.Package != "example.com/acme/widget/internal/gears" || e.File != "internal/gears/gears.go" || !e.Internal {
				t.Errorf("%+v", e)
			}
		}},
		{"a sentinel of a package others can import is not marked internal", named("ErrNoWidget"), func(t *testing.T, e *extract.Error) {
			if e.Internal {
				t.Errorf("%+v", e)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := find(t, res, tt.find)
			if e == nil {
				t.Fatalf("not found among %v", keysOf(res, key))
			}
			tt.check(t, e)
		})
	}
	for _, absent := range []string{"ErrNested", "ErrInTestdata", "errOnlyInTests", "ErrFake", "ErrPlan9"} {
		if e := find(t, res, named(absent)); e != nil {
			t.Errorf("%s extracted from %s: nested modules, testdata, tests, test helpers and other platforms' files are not the module's code", absent, e.File)
		}
	}
	if len(res.Problems) != 1 || res.Problems[0].File != "broken.go" || !res.Problems[0].Skipped {
		t.Errorf("problems = %v, want broken.go reported", res.Problems)
	}
	if find(t, res, message("widget: never seen")) != nil {
		t.Error("an error of the file that does not parse was extracted")
	}
}

func keysOf(res *extract.Result, key func(*extract.Error) string) []string {
	var ks []string
	for i := range res.Errors {
		ks = append(ks, key(&res.Errors[i]))
	}
	return ks
}

// TestWrapsLinkBothWays checks the records: the wrapper names the
// sentinel's id, and the sentinel names the wrapper's.
func TestWrapsLinkBothWays(t *testing.T) {
	out := t.TempDir()
	extractTo(t, fixture(t), out)
	ds, err := errkb.Load(errkb.Folder{Name: "out", FS: os.DirFS(out)})
	if err != nil {
		t.Fatal(err)
	}
	var wrapper, sentinel *errkb.Record
	for _, r := range ds.Records {
		switch {
		case r.ErrorMessage == "assemble %s: %w":
			wrapper = r
		case r.ErrorClass == "widget.ErrGearJammed":
			sentinel = r
		}
	}
	if wrapper == nil || sentinel == nil {
		t.Fatal("wrapper or sentinel record missing")
	}
	if !slices.Equal(wrapper.Wraps, []string{sentinel.ID}) || !slices.Contains(sentinel.WrappedBy, wrapper.ID) {
		t.Errorf("wrapper.wraps = %v, sentinel.wrappedBy = %v; want each other's ids", wrapper.Wraps, sentinel.WrappedBy)
	}
	if sentinel.ErrorCode != "ErrGearJammed" || sentinel.QualifiedName != "widget.ErrGearJammed" ||
		!slices.Equal(sentinel.Aliases, []string{"ErrCodeGearJammed"}) || sentinel.NumericCode == nil || *sentinel.NumericCode != 4101 ||
		sentinel.HTTPStatus == nil || *sentinel.HTTPStatus != 409 {
		t.Errorf("sentinel code %q numeric %v status %v", sentinel.ErrorCode, sentinel.NumericCode, sentinel.HTTPStatus)
	}
	if !strings.Contains(sentinel.TypeGuard, "errors.Is(err, widget.ErrGearJammed)") ||
		!strings.Contains(sentinel.TypeGuard, "apiErr.ErrorCode == widget.ErrCodeGearJammed") {
		t.Errorf("typeGuard = %q", sentinel.TypeGuard)
	}
	for _, r := range ds.Records {
		lines := strings.Split(r.SourceCode, "\n")
		got := lines[r.LineNumber-r.SourceCodeStart]
		name := r.ErrorClass[strings.LastIndexByte(r.ErrorClass, '.')+1:]
		text := strings.Contains(got, strconv.Quote(r.ErrorMessage)) // a constant whose text a table or switch gives
		if !strings.Contains(got, name) && !text && r.ErrorType != "call_site" && r.ErrorType != "log_line" && r.ErrorType != "protocol" {
			t.Errorf("%s: line %d of the snippet is %q, not its definition", r.Slug, r.LineNumber, got)
		}
		if !strings.HasPrefix(r.GithubURL, "https://github.com/acme-labs/widget/blob/v1.2.0/") {
			t.Errorf("%s: githubUrl %q", r.Slug, r.GithubURL)
		}
	}
}

// TestDeterministic extracts twice, from two copies in different places,
// and wants the same bytes.
func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	extractTo(t, fixture(t), a)
	extractTo(t, fixture(t), b)
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) == 0 || len(ta) != len(tb) {
		t.Fatalf("%d files, then %d", len(ta), len(tb))
	}
	for name, data := range ta {
		if !bytes.Equal(data, tb[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	// A rerun into the same folder replaces it and leaves nothing else.
	extractTo(t, fixture(t), a)
	entries, _ := os.ReadDir(filepath.Join(a, "acme-labs"))
	if len(entries) != 1 || entries[0].Name() != "widget" {
		t.Errorf("after a rerun acme-labs/ holds %v, want widget only", entries)
	}
}

func TestBadSources(t *testing.T) {
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "go.mod"), []byte("module example.com/acme/empty\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, "README"), []byte("no code here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noMod := t.TempDir()
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	tests := []struct {
		name, src string
		want      []string
	}{
		{"missing folder", filepath.Join(empty, "nope"), []string{"nope", "no such folder"}},
		{"no go.mod", noMod, []string{"no go.mod"}},
		{"download fails", "example.com/acme/nothing@v1.0.0", []string{"download example.com/acme/nothing@v1.0.0", "GOPROXY=off"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := extract.Resolve(context.Background(), tt.src, "acme-labs/x", "")
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := extract.Dir(empty, extract.Options{}); err == nil || !strings.Contains(err.Error(), "holds no Go code") {
		t.Errorf("a module without Go files: %v", err)
	}
	if _, err := extract.Resolve(context.Background(), empty, "", ""); err == nil || !strings.Contains(err.Error(), "--repo") {
		t.Errorf("a module path that names no GitHub repo: %v, want a hint to pass --repo", err)
	}
}

// TestWriteKeepsHandWrittenFolders checks that a folder extract did not
// write is never replaced.
func TestWriteKeepsHandWrittenFolders(t *testing.T) {
	out := t.TempDir()
	own := filepath.Join(out, "acme-labs", "widget")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(own, "mine.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := extract.Write(out, nil, errkb.Provenance{Repo: "acme-labs/widget"}, "", nil)
	if err == nil || !strings.Contains(err.Error(), "left alone") {
		t.Fatalf("Write = %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(own, "mine.json")); err != nil {
		t.Errorf("hand-written record gone: %v", err)
	}
}

func TestGithubRepoOfModule(t *testing.T) {
	tests := []struct{ mod, repo, subdir string }{
		{"github.com/acme-labs/widget", "acme-labs/widget", ""},
		{"github.com/acme-labs/widget/v3", "acme-labs/widget", ""},
		{"github.com/acme-labs/tools/sprocket", "acme-labs/tools", "sprocket"},
		{"golang.org/x/net", "golang/net", ""},
		{"golang.org/x/tools/gopls", "golang/tools", "gopls"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+tt.mod+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := extract.Resolve(context.Background(), dir, "", "")
		if err != nil {
			t.Fatal(err)
		}
		if s.Origin.Repo != tt.repo || s.Origin.Subdir != tt.subdir {
			t.Errorf("%s: repo %q in %q, want %q in %q", tt.mod, s.Origin.Repo, s.Origin.Subdir, tt.repo, tt.subdir)
		}
	}
}

// TestStdSource: std is the go command's own GOROOT, linked under src/ at
// the release tag, dated by $GOROOT/VERSION.
func TestStdSource(t *testing.T) {
	s, err := extract.Resolve(context.Background(), "std", "", "")
	if err != nil {
		t.Fatal(err)
	}
	o := s.Origin
	if o.Repo != "golang/go" || o.Subdir != "src" || o.Module != "std" || !strings.HasPrefix(o.Version, "go") {
		t.Errorf("origin %+v", o)
	}
	if filepath.Base(s.Dir) != "src" || len(s.Patterns) != 1 || s.Patterns[0] != "std" {
		t.Errorf("dir %s, patterns %v", s.Dir, s.Patterns)
	}
	if release := regexp.MustCompile(`^go1\.[0-9]+\.[0-9]+$`); release.MatchString(o.Version) {
		if o.Ref != o.Version || o.Time == "" {
			t.Errorf("a release's origin %+v: want its tag as the ref and its time", o)
		}
		if got, want := o.LineURL("errors/errors.go", 1), "https://github.com/golang/go/blob/"+o.Version+"/src/errors/errors.go#L1"; got != want {
			t.Errorf("link %s, want %s", got, want)
		}
	}
	name, _, spdx := extract.License(filepath.Dir(s.Dir))
	if name != "LICENSE" || spdx != "BSD-3-Clause" {
		t.Errorf("GOROOT's license: %s %s", name, spdx)
	}
}

// TestStdSurface: a standard library package that imports a vendored one
// (net imports golang.org/x/net/dns/dnsmessage, typed as
// vendor/golang.org/x/net/dns/dnsmessage) still gets its surfaces.
func TestStdSurface(t *testing.T) {
	s, err := extract.Resolve(context.Background(), "std", "", "")
	if err != nil {
		t.Fatal(err)
	}
	s.Patterns = []string{"net"}
	prog, err := extract.Load(context.Background(), s, extract.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	surfaces := map[string]int{}
	for _, e := range extract.Extract(prog, extract.Options{}).Errors {
		surfaces[e.Surface]++
	}
	if surfaces[errkb.SurfaceReturned] == 0 {
		t.Errorf("no error of net is returned: surfaces %v", surfaces)
	}
}
