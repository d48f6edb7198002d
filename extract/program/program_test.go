package program_test

import (
	"context"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/ssa"

	"github.com/errkb/errkb/extract/program"
)

func TestScaffolding(t *testing.T) {
	tests := []struct {
		rel, want string
	}{
		{".", ""},
		{"server", ""},
		{"internal/gears", ""},
		{"jetstream", ""},
		{"cmd/nats-server", ""},
		{"latest", "test helpers"}, // the rule is by name: a package named latest is left out too
		{"examples/hello", "examples"},
		{"example", "examples"},
		{"bench", "benchmarks"},
		{"internal/benchmarks/load", "benchmarks"},
		{"interop/client", "interop tests"},
		{"test", "test helpers"},
		{"jetstream/test", "test helpers"},
		{"internal/testhelper", "test helpers"},
		{"internal/testutil", "test helpers"},
		{"internal/testenv", "test helpers"},
		{"server/servertest", "test helpers"},
		{"net/http/httptest", "test helpers"},
		{"testing/fstest", "test helpers"},
		{"Tests", "test helpers"},
		{"attestation", ""},
		{"internal/stubserver", "test doubles"},
		{"internal/testutils/fakegrpclb", "test helpers"},
		{"mocks", "test doubles"},
		{"fakeserver", "test doubles"},
		{"mockery", "test doubles"}, // by name, as "latest"
	}
	for _, tt := range tests {
		if got := program.Scaffolding(tt.rel); got != tt.want {
			t.Errorf("Scaffolding(%q) = %q, want %q", tt.rel, got, tt.want)
		}
	}
}

func TestIsInternal(t *testing.T) {
	for path, want := range map[string]bool{
		"example.com/acme/widget/internal/gears": true,
		"internal/poll":                          true,
		"net/internal/socktest":                  true,
		"example.com/acme/widget":                false,
		"example.com/acme/internalize":           false,
	} {
		if got := program.IsInternal(path); got != want {
			t.Errorf("IsInternal(%q) = %v", path, got)
		}
	}
}

func TestOriginURLs(t *testing.T) {
	std := program.Origin{Repo: "golang/go", Subdir: "src", Ref: "go1.26.8", Module: "std"}
	if got, want := std.LineURL("net/http/server.go", 12), "https://github.com/golang/go/blob/go1.26.8/src/net/http/server.go#L12"; got != want {
		t.Errorf("std line URL = %s, want %s", got, want)
	}
	mod := program.Origin{Repo: "acme-labs/widget", Ref: "v1.2.0"}
	if got, want := mod.RangeURL("errors.go", 3, 9), "https://github.com/acme-labs/widget/blob/v1.2.0/errors.go#L3-L9"; got != want {
		t.Errorf("range URL = %s, want %s", got, want)
	}
	if got := (program.Origin{Repo: "acme-labs/widget"}).LineURL("errors.go", 3); got != "" {
		t.Errorf("no ref, URL %q: a link must not point at a guess", got)
	}
}

var (
	fixtureOnce sync.Once
	fixture     *program.Program
	fixtureErr  error
)

// load loads the extract fixture (a fictional module) once.
func load(t *testing.T) *program.Program {
	t.Helper()
	fixtureOnce.Do(func() {
		fixture, fixtureErr = program.Load(context.Background(), program.Config{
			Dir:    "../testdata/widget",
			Origin: program.Origin{Repo: "acme-labs/widget", Ref: "v1.2.0", Module: "example.com/acme/widget"},
		})
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixture
}

func TestLoad(t *testing.T) {
	p := load(t)
	var paths []string
	for _, pkg := range p.Packages {
		paths = append(paths, pkg.PkgPath)
		if pkg.TypesInfo == nil || len(pkg.Syntax) == 0 {
			t.Errorf("%s has no syntax or types", pkg.PkgPath)
		}
		if pkg.Internal != strings.Contains(pkg.PkgPath, "/internal/") {
			t.Errorf("%s: Internal = %v", pkg.PkgPath, pkg.Internal)
		}
	}
	if want := []string{"example.com/acme/widget", "example.com/acme/widget/internal/gears"}; !slices.Equal(paths, want) {
		t.Errorf("packages %v, want %v (no examples, test helpers, nested modules, other platforms)", paths, want)
	}
	var skipped []string
	for _, s := range p.Skipped {
		skipped = append(skipped, s.Path+" "+s.Reason)
	}
	if want := []string{"example.com/acme/widget/examples/hello examples", "example.com/acme/widget/internal/widgettest test helpers"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %v, want %v", skipped, want)
	}
	if p.Excluded != 1 {
		t.Errorf("%d files excluded by build constraints, want 1 (gearbox_exp.go)", p.Excluded)
	}
}

// find is the declaration of a package-level function or method of the
// fixture's root package.
func find(t *testing.T, p *program.Program, name string) *types.Func {
	t.Helper()
	for _, f := range p.Packages[0].Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && funcName(fd) == name {
				return p.Packages[0].TypesInfo.Defs[fd.Name].(*types.Func)
			}
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil {
		return fd.Name.Name
	}
	return types.ExprString(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

func TestWhere(t *testing.T) {
	p := load(t)
	obj := find(t, p, "Finish")
	w, ok := p.Where(obj.Pos())
	if !ok || w.File != "finish.go" || w.Line != 21 || w.URL != "https://github.com/acme-labs/widget/blob/v1.2.0/finish.go#L21" {
		t.Errorf("Where(Finish) = %+v, %v", w, ok)
	}
	// A position in a dependency (the errors package) is not the module's.
	var errorsNew token.Pos
	for _, imp := range p.Packages[0].Types.Imports() {
		if imp.Path() == "errors" {
			errorsNew = imp.Scope().Lookup("New").Pos()
		}
	}
	if !errorsNew.IsValid() {
		t.Fatal("errors.New has no position")
	}
	if w, ok := p.Where(errorsNew); ok {
		t.Errorf("errors.New, outside the module, has a Where: %+v", w)
	}
}

// callees lists the callees of the calls in fn that the graph has, by
// name, sorted.
func callees(g *callgraph.Graph, fn *ssa.Function) []string {
	var out []string
	if n := g.Nodes[fn]; n != nil {
		for _, e := range n.Out {
			if e.Site != nil && e.Site.Common().StaticCallee() == nil {
				out = append(out, e.Callee.Func.String())
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCallGraph checks the dynamic calls of finish.go: an interface call
// whose callees are the two types that flow there (paint also has the
// method, so CHA names it too), and a closure passed to a function.
func TestCallGraph(t *testing.T) {
	p := load(t)
	g := p.CallGraph()
	finish := p.Func(find(t, p, "Finish"))
	if finish == nil || len(finish.Blocks) == 0 {
		t.Fatal("no SSA body for Finish")
	}
	want := []string{"(example.com/acme/widget.lacquer).finish", "(example.com/acme/widget.wax).finish"}
	if got := callees(g, finish); !slices.Equal(got, want) {
		t.Errorf("Finish's interface call goes to %v, want %v", got, want)
	}
	if got := callees(cha.CallGraph(p.SSA()), finish); !slices.Contains(got, "(example.com/acme/widget.paint).finish") {
		t.Errorf("CHA callees %v: the fixture no longer shows what VTA removes", got)
	}
	each := p.Func(find(t, p, "each"))
	if got, want := callees(g, each), []string{"example.com/acme/widget.Inspect$1"}; !slices.Equal(got, want) {
		t.Errorf("each's call of fn goes to %v, want %v", got, want)
	}
	if p.CallGraph() != g {
		t.Error("the call graph is built again on a second call")
	}
}

// TestWhereInCgoFile: a file that imports "C" is type-checked as cgo
// rewrote it, in the build cache; its positions still name the module's
// file and line.
func TestWhereInCgoFile(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is not enabled here")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/acme/cgo\n\ngo 1.22\n",
		"c.go":   "package cgo\n\n// int answer(void) { return 42; }\nimport \"C\"\n\nimport \"errors\"\n\n// Ask asks C.\nfunc Ask() error {\n\tif C.answer() != 42 {\n\t\treturn errors.New(\"cgo: wrong answer\")\n\t}\n\treturn nil\n}\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := program.Load(context.Background(), program.Config{Dir: dir, Origin: program.Origin{Repo: "acme-labs/cgo", Ref: "v0.1.0"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Packages) != 1 || len(p.Packages[0].Errors) > 0 {
		t.Fatalf("packages %v", p.Packages)
	}
	var call *ast.CallExpr
	for _, f := range p.Packages[0].Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "New" {
					call = c
				}
			}
			return true
		})
	}
	if call == nil {
		t.Fatal("errors.New not found in the cgo-processed file")
	}
	if raw := p.Fset.PositionFor(call.Pos(), false).Filename; strings.HasPrefix(raw, dir) {
		t.Errorf("the call is in %s, not in cgo's output: the test no longer covers //line positions", raw)
	}
	if w, ok := p.Where(call.Pos()); !ok || w.File != "c.go" || w.Line != 11 || w.URL != "https://github.com/acme-labs/cgo/blob/v0.1.0/c.go#L11" {
		t.Errorf("Where = %+v, %v; want c.go:11", w, ok)
	}
}
