// Package extract reads the errors a Go module defines and raises from its
// source: package-level sentinels, errors made inside functions, error
// types, and the code constants attached to them. It produces plain data
// (Error values); turning them into records is a separate step (Records).
//
// It works on syntax alone (go/parser and go/ast), so it needs neither the
// module's dependencies nor a build: a name is resolved through the file's
// imports and the package's own declarations, which is exact for the
// patterns it looks for.
package extract

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
)

// Kind is how an error is made.
type Kind string

const (
	Sentinel Kind = "sentinel"  // a package-level variable
	Call     Kind = "call_site" // errors.New or fmt.Errorf inside a function
	Type     Kind = "error_type"
	API      Kind = "api_error" // an entry of a project's own error table (see natserrors)
)

// Error is one error of the module, as the source states it.
type Error struct {
	Kind    Kind
	Package string // import path of the defining package
	PkgName string // its package name
	Name    string // the Go identifier; "" for a Call error
	Func    string // for a Call error, the enclosing function, e.g. "(*Conn).Flush"
	Message string // exactly as written; a format string for fmt.Errorf and fmt.Sprintf
	File    string // slash path relative to the module root
	Line    int    // of the definition
	// Span, when set, is the definition's own lines (a generated
	// constructor with its doc comment): the snippet shows them instead of
	// the lines around Line.
	Span    [2]int
	Doc     string // the doc comment, when there is one
	Pointer bool   // for a Type, Error() has a pointer receiver

	Code       *Code    // the code constant the error carries, if any
	HTTPStatus int      // 0 when the source gives none
	Wraps      []string // keys of the errors this one wraps with %w
	Sites      []Site   // where the error is raised, sorted
}

// Key identifies the error within its module, stably across versions:
// the package and identifier, or for a Call error the package and message.
func (e *Error) Key() string {
	if e.Name != "" {
		return e.Package + "." + e.Name
	}
	return e.Package + ":" + e.Message
}

// Code is a constant of a named code type (JSErrCodeStreamNotFound
// ErrorCode = 10059), with where an error carries it: the composite
// literal's type and field (APIError, ErrorCode).
type Code struct {
	Name         string
	Value        int
	Package      string // import path of the constant
	PkgName      string
	CarrierType  string // the struct type holding the code in the error's literal
	CarrierField string // its field
}

// Site is one place where an error is raised.
type Site struct {
	File string
	Line int
	Func string
}

// Problem is a file that could not be read or parsed; it is skipped.
type Problem struct {
	File string
	Err  error
}

func (p Problem) String() string { return p.File + ": " + p.Err.Error() }

// Result is what Dir found.
type Result struct {
	Module   string // module path from go.mod
	Errors   []Error
	Problems []Problem
	// Calls lists the call sites of the functions Options.TrackCalls asked
	// for, keyed like TrackCalls ("import/path.Func").
	Calls map[string][]Site
	// Files is how many Go files were parsed.
	Files int
}

// Options tune Dir.
type Options struct {
	// TrackCalls names package-level functions ("import/path.Func") whose
	// call sites Result.Calls should list; adapters use it for
	// constructors of a project's own error table.
	TrackCalls map[string]bool
}

// ErrNoGoCode is returned for a folder without Go files.
var ErrNoGoCode = errors.New("holds no Go code")

// Dir extracts the errors of the module rooted at root: every non-test Go
// file of the module, outside testdata, vendor, hidden folders and nested
// modules. Files that do not parse are reported in Result.Problems and
// skipped.
func Dir(root string, opts Options) (*Result, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", root, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("source %s: not a directory", root)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("source %s: no go.mod, so not a module root: %w", root, err)
	}
	modPath := modfile.ModulePath(gomod)
	if modPath == "" {
		return nil, fmt.Errorf("source %s: go.mod names no module", root)
	}
	files, err := goFiles(root)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", root, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("source %s: %w (no .go files outside tests)", root, ErrNoGoCode)
	}
	parsed, problems := parseAll(root, files)
	pkgs := groupPackages(modPath, parsed)
	res := &Result{Module: modPath, Problems: problems, Files: len(parsed), Calls: map[string][]Site{}}
	analyze(pkgs, opts, res)
	return res, nil
}

// goFiles lists the module's non-test .go files, slash-separated and
// relative to root, sorted.
func goFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module is another module
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && d.Type().IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

// file is one parsed Go file.
type file struct {
	rel   string // slash path relative to the module root
	ast   *ast.File
	fset  *token.FileSet
	lines int
}

func (f *file) line(p token.Pos) int { return f.fset.Position(p).Line }

// parseAll parses the files on every CPU, keeping their order.
func parseAll(root string, rels []string) ([]*file, []Problem) {
	out := make([]*file, len(rels))
	errs := make([]error, len(rels))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rels)) {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = parseOne(root, rels[i])
			}
		})
	}
	for i := range rels {
		next <- i
	}
	close(next)
	wg.Wait()
	var (
		files    []*file
		problems []Problem
	)
	for i, f := range out {
		if errs[i] != nil {
			problems = append(problems, Problem{File: rels[i], Err: errs[i]})
			continue
		}
		files = append(files, f)
	}
	return files, problems
}

func parseOne(root, rel string) (*file, error) {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	if isIgnored(f) {
		return &file{rel: rel, fset: fset, ast: &ast.File{Name: f.Name}}, nil
	}
	return &file{rel: rel, ast: f, fset: fset, lines: 1 + strings.Count(string(src), "\n")}, nil
}

// isIgnored reports a "//go:build ignore" file: a generator or an example
// that is never part of the package.
func isIgnored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// pkg is one package: the files of one folder with one package name.
type pkg struct {
	path  string // import path
	name  string
	files []*file
}

func groupPackages(modPath string, files []*file) []*pkg {
	byKey := map[string]*pkg{}
	var pkgs []*pkg
	for _, f := range files {
		if f.ast.Decls == nil && f.ast.Imports == nil {
			continue
		}
		dir := path.Dir(f.rel)
		imp := modPath
		if dir != "." {
			imp = modPath + "/" + dir
		}
		key := imp + " " + f.ast.Name.Name
		p := byKey[key]
		if p == nil {
			p = &pkg{path: imp, name: f.ast.Name.Name}
			byKey[key] = p
			pkgs = append(pkgs, p)
		}
		p.files = append(p.files, f)
	}
	slices.SortFunc(pkgs, func(a, b *pkg) int { return cmp.Or(strings.Compare(a.path, b.path), strings.Compare(a.name, b.name)) })
	return pkgs
}
