// Package program owns a loaded Go module as the analyses see it: its
// packages, parsed and type-checked by golang.org/x/tools/go/packages
// under the default build constraints; on request, their SSA form and a
// call graph; and the provenance of every position (Where).
//
// Dependencies are type-checked from source with their function bodies
// dropped: the module's own code is analysed, its dependencies are only
// declarations. That keeps a load to seconds and a few hundred MiB, and
// needs no build of the module (no export data).
package program

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// Config says what to load.
type Config struct {
	// Dir is the module's root folder ($GOROOT/src for the standard
	// library); positions are made relative to it.
	Dir string
	// Patterns are the go command's package patterns; default "./...".
	Patterns []string
	// Tags are build tags added to the default build constraints
	// (GOOS and GOARCH come from the environment, as for go build).
	Tags []string
	// Tests loads test files and scaffolding packages too (see
	// Scaffolding); without it they are left out.
	Tests bool
	// Env is added to the environment of the go command (GOTOOLCHAIN,
	// GOFLAGS, GOWORK...).
	Env []string
	// BuildFlags are passed to the go command (-modfile, -mod).
	BuildFlags []string
	// Origin is where the module's source is, for Where.
	Origin Origin
	// Progress, when set, receives a line for each step of long work.
	Progress func(msg string)
}

// Package is one of the module's own packages.
type Package struct {
	*packages.Package
	Rel      string // its folder relative to the module's root, slash-separated ("." for the root)
	Internal bool   // only the module itself can import it (an "internal" folder in its path)
}

// Skipped is a package of the module left out as scaffolding.
type Skipped struct {
	Path, Reason string
}

// Program is a loaded module.
type Program struct {
	Fset     *token.FileSet
	Packages []*Package // the module's own packages, sorted by import path
	Skipped  []Skipped  // scaffolding packages left out, sorted
	// Excluded counts the module's Go files that build constraints
	// leave out (other platforms, tags not given, //go:build ignore).
	Excluded int
	Origin   Origin

	root     string // absolute, cleaned Dir
	progress func(string)

	flowOnce  sync.Once
	graphOnce sync.Once
	flow      *flow
}

// Load lists the packages cfg names, drops scaffolding unless cfg.Tests,
// and loads the rest with syntax and full type information.
func Load(ctx context.Context, cfg Config) (*Program, error) {
	root, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	p := &Program{Fset: token.NewFileSet(), Origin: cfg.Origin, root: filepath.Clean(root), progress: cfg.Progress}
	if p.progress == nil {
		p.progress = func(string) {}
	}
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	keep, err := p.list(ctx, cfg, patterns)
	if err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return p, nil
	}
	p.progress(fmt.Sprintf("type-checking the module's packages (%d) and their dependencies", len(keep)))
	pc := p.config(ctx, cfg, packages.NeedName|packages.NeedFiles|packages.NeedCompiledGoFiles|packages.NeedImports|
		packages.NeedDeps|packages.NeedTypes|packages.NeedTypesSizes|packages.NeedSyntax|packages.NeedTypesInfo|packages.NeedModule)
	pc.Tests = cfg.Tests
	pc.Fset = p.Fset
	pc.ParseFile = p.parseFile
	pkgs, err := packages.Load(pc, keep...)
	if err != nil {
		return nil, fmt.Errorf("load %s: %s", strings.Join(patterns, " "), strings.TrimSpace(err.Error()))
	}
	p.Packages = p.own(pkgs)
	return p, nil
}

func (p *Program) config(ctx context.Context, cfg Config, mode packages.LoadMode) *packages.Config {
	flags := slices.Clone(cfg.BuildFlags)
	if len(cfg.Tags) > 0 {
		flags = append(flags, "-tags="+strings.Join(cfg.Tags, ","))
	}
	return &packages.Config{Mode: mode, Context: ctx, Dir: p.root, Env: append(os.Environ(), cfg.Env...), BuildFlags: flags}
}

// list runs the go command once for names and files only: it says which
// packages are scaffolding, and how many files the build constraints
// exclude, before anything is type-checked.
func (p *Program) list(ctx context.Context, cfg Config, patterns []string) ([]string, error) {
	p.progress("listing packages")
	lc := p.config(ctx, cfg, packages.NeedName|packages.NeedFiles)
	lc.Tests = cfg.Tests // a folder of tests alone is a package only with its tests
	pkgs, err := packages.Load(lc, patterns...)
	if err != nil {
		return nil, fmt.Errorf("list %s: %s", strings.Join(patterns, " "), strings.TrimSpace(err.Error()))
	}
	hasFiles := map[string]bool{}
	for _, pkg := range pkgs {
		rel, ok := p.rel(pkg)
		if !ok || isVendored(pkg.PkgPath) || isTestMain(pkg) {
			continue
		}
		path := pkg.PkgPath
		if pkg.ID != path {
			path = strings.TrimSuffix(path, "_test") // loaded with its package's tests
		}
		if pkg.ID == pkg.PkgPath {
			for _, f := range pkg.IgnoredFiles {
				if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
					p.Excluded++
				}
			}
		}
		if len(pkg.GoFiles) == 0 {
			continue // every file excluded by build constraints, or tests alone
		}
		if why := Scaffolding(rel); why != "" && !cfg.Tests {
			p.Skipped = append(p.Skipped, Skipped{Path: path, Reason: why})
			continue
		}
		hasFiles[path] = true
	}
	keep := slices.Sorted(maps.Keys(hasFiles))
	slices.SortFunc(p.Skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	p.Skipped = slices.Compact(p.Skipped)
	return keep, nil
}

// isTestMain reports the main package go test generates for a test binary.
func isTestMain(pkg *packages.Package) bool {
	return pkg.Name == "main" && strings.HasSuffix(pkg.ID, ".test") && !strings.Contains(pkg.ID, " ")
}

// isVendored reports a copy of another module's package (the standard
// library's vendor/golang.org/x/...): its errors belong to that module.
func isVendored(pkgPath string) bool {
	return strings.HasPrefix(pkgPath, "vendor/") || strings.Contains(pkgPath, "/vendor/")
}

// rel is a package's folder relative to the module's root; ok is false
// for a package outside it.
func (p *Program) rel(pkg *packages.Package) (string, bool) {
	dir := pkg.Dir
	if dir == "" {
		for _, files := range [][]string{pkg.GoFiles, pkg.IgnoredFiles} {
			if len(files) > 0 {
				dir = filepath.Dir(files[0])
				break
			}
		}
	}
	if dir == "" {
		return "", false
	}
	rel, err := filepath.Rel(p.root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// own picks the module's packages out of what Load returned: with tests,
// the variant of each package compiled for its tests (a superset of the
// plain one) and external test packages, never the generated test mains.
func (p *Program) own(pkgs []*packages.Package) []*Package {
	best := map[string]*packages.Package{}
	for _, pkg := range pkgs {
		if isTestMain(pkg) {
			continue
		}
		if _, ok := p.rel(pkg); !ok {
			continue
		}
		if b := best[pkg.PkgPath]; b == nil || len(pkg.Syntax) > len(b.Syntax) ||
			len(pkg.Syntax) == len(b.Syntax) && pkg.ID < b.ID {
			best[pkg.PkgPath] = pkg
		}
	}
	var out []*Package
	for _, pkg := range best {
		rel, _ := p.rel(pkg)
		out = append(out, &Package{Package: pkg, Rel: rel, Internal: IsInternal(pkg.PkgPath)})
	}
	slices.SortFunc(out, func(a, b *Package) int { return strings.Compare(a.PkgPath, b.PkgPath) })
	return out
}

// parseFile parses the module's files with their comments (doc comments
// are facts), and drops the function bodies of every other file: a
// dependency's declarations are all the module's types need.
// A file of the module that does not parse is left out whole, and its
// error reported on its package, so nothing is read from a broken tree.
func (p *Program) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	if p.inModule(filename) || isCgoOutput(src) {
		f, err := parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if f != nil {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				fd.Body = nil
			}
		}
	}
	return f, err
}

// isCgoOutput reports a file cgo generated from one of the module's own
// (it lives in the build cache; its //line comments point back).
func isCgoOutput(src []byte) bool {
	return bytes.HasPrefix(src, []byte("// Code generated by cmd/cgo; DO NOT EDIT."))
}

// Root is the module's root folder.
func (p *Program) Root() string { return p.root }

// flow is what SSA and CallGraph build, once.
type flow struct {
	ssa   *ssa.Program
	pkgs  map[*Package]*ssa.Package
	graph *callgraph.Graph
}

// New is a Program of packages loaded some other way (a test's, parsed
// and type-checked by hand), rooted at dir. It lists no skipped or
// excluded files.
func New(fset *token.FileSet, dir string, o Origin, pkgs ...*packages.Package) *Program {
	root, _ := filepath.Abs(dir)
	p := &Program{Fset: fset, Origin: o, root: filepath.Clean(root), progress: func(string) {}}
	for _, pkg := range pkgs {
		rel, _ := p.rel(pkg)
		p.Packages = append(p.Packages, &Package{Package: pkg, Rel: rel, Internal: IsInternal(pkg.PkgPath)})
	}
	return p
}
