package extract

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/errkb/errkb/extract/program"
)

// FuzzVerbs: any format string splits into verbs and literal text without
// a panic, and the spans are in order and inside the string.
func FuzzVerbs(f *testing.F) {
	for _, s := range []string{"nats: %s", "%w: %v", "100%% sure %d", "%[1]d %-08.3f", "widget {name} is bent", "%", "{{Wildcard()}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		last := 0
		for _, v := range Verbs(format) {
			if v.Start < last || v.End <= v.Start || v.End > len(format) || format[v.Start] != '%' {
				t.Fatalf("bad span %+v in %q", v, format)
			}
			last = v.End
		}
		if lit := LongestLiteral(format); !strings.Contains(strings.ReplaceAll(format, "%%", "%"), lit) {
			t.Fatalf("LongestLiteral(%q) = %q is not in the format", format, lit)
		}
		_ = hasWords(format)
	})
}

// FuzzExtract: any Go file, type-checked as a one-file package, gives
// records whose snippet holds their definition line. The file is checked
// in memory with the standard library's source (one importer for the
// whole run, so each package is checked once), not through the go
// command: a fuzzed `import "C"` runs no C compiler, a fuzzed import
// reaches no network, and inputs run by the thousand.
func FuzzExtract(f *testing.F) {
	f.Setenv("CGO_ENABLED", "0")
	seed, err := os.ReadFile("testdata/widget/errors.go")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add("package p\nvar ErrX = errors.New(\"x\")\n")
	f.Add("package p\nimport \"fmt\"\nfunc F() error { return fmt.Errorf(\"f %w\", ErrX) }\nvar ErrX = fmt.Errorf(\"%w\", ErrX)\n")
	f.Add("package p\nimport . \"errors\"\ntype T = E\ntype E string\nfunc (E) Error() string { return \"p: e\" }\nvar ErrY = New(\"p: y\")\nfunc G() error { ErrY := 1; _ = ErrY; return T(\"x\") }\n")
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		name := filepath.Join(dir, "a.go")
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return
		}
		pkg := checkOne(fset, imp, file)
		origin := Origin{Repo: "acme-labs/fuzz", Ref: "v0.0.1", Module: "example.com/acme/fuzz"}
		// The surface pass is left out: SSA cannot build a package whose
		// type errors checkOne does not record (program.Load does).
		res := Extract(program.New(fset, dir, origin, pkg), Options{NoSurface: true})
		recs, err := Records(res.Errors, dir, origin)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			n := strings.Count(strings.TrimSuffix(r.SourceCode, "\n"), "\n") + 1
			if r.LineNumber < r.SourceCodeStart || r.LineNumber > r.SourceCodeEnd || n != r.SourceCodeEnd-r.SourceCodeStart+1 {
				t.Fatalf("record %s: line %d, snippet %d-%d of %d lines", r.Slug, r.LineNumber, r.SourceCodeStart, r.SourceCodeEnd, n)
			}
		}
	})
}

// checkOne type-checks one file as the package example.com/acme/fuzz,
// keeping going past type errors as the loader does.
func checkOne(fset *token.FileSet, imp types.Importer, file *ast.File) *packages.Package {
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	tp, _ := conf.Check("example.com/acme/fuzz", fset, []*ast.File{file}, info)
	return &packages.Package{
		ID: tp.Path(), PkgPath: tp.Path(), Name: file.Name.Name, Fset: fset, Types: tp, TypesInfo: info,
		Syntax: []*ast.File{file}, GoFiles: []string{fset.File(file.Pos()).Name()},
	}
}
