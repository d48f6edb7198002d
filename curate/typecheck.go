package curate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

// StdImports are the standard library packages a sample may use without
// importing them, by the name it uses.
var StdImports = map[string]string{
	"bytes": "bytes", "context": "context", "errors": "errors", "fmt": "fmt",
	"io": "io", "json": "encoding/json", "log": "log", "math": "math", "os": "os",
	"slices": "slices", "slog": "log/slog", "sort": "sort", "strconv": "strconv",
	"strings": "strings", "sync": "sync", "time": "time",
}

// Checker type-checks samples against the packages of a module that
// requires the versions the dataset names (curate/testdata/snippets),
// reading the packages' export data that the go command builds.
type Checker struct {
	fset    *token.FileSet
	exports map[string]string // import path -> export data file
	errs    map[string]string // import path -> why it cannot be imported
	imp     types.Importer
}

// NewChecker lists the packages paths (and their dependencies) in the
// module at moduleDir with "go list -export", building their export data
// (downloading the module versions go.sum names when the cache lacks
// them). A package that cannot be built is not an error here: a sample
// that imports it fails with the reason.
func NewChecker(ctx context.Context, moduleDir string, paths []string) (*Checker, error) {
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export,Error"}, paths...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = moduleDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export in %s: %w: %s", moduleDir, err, strings.TrimSpace(stderr.String()))
	}
	c := &Checker{fset: token.NewFileSet(), exports: map[string]string{}, errs: map[string]string{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list -export: %w", err)
		}
		switch {
		case p.Error != nil:
			c.errs[p.ImportPath] = p.Error.Err
		case p.Export != "":
			c.exports[p.ImportPath] = p.Export
		}
	}
	c.imp = importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		if f, ok := c.exports[path]; ok {
			return os.Open(f)
		}
		if e, ok := c.errs[path]; ok {
			return nil, errors.New(e)
		}
		return nil, fmt.Errorf("package %s is not listed by the sample module", path)
	})
	return c, nil
}

// Check type-checks code as the go compiler would and returns its error
// messages, each "LINE:COL: message" in the code's own lines (prefixed
// with the field name for an error in an extra file), or none. extra holds
// other files of the same package by name (a record's type guard
// functions, which its other samples call).
func (c *Checker) Check(code Wrapped, extra map[string]Wrapped) []string {
	files := map[string]Wrapped{"sample.go": code}
	for name, w := range extra {
		files[name] = w
	}
	if code.Form == Statements {
		files["fixture.go"] = Wrapped{Form: Program, Source: Fixture}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var (
		msgs   []string
		parsed []*ast.File
	)
	report := func(pos token.Position, msg string) {
		w := files[pos.Filename]
		where := fmt.Sprintf("%d:%d", pos.Line-w.Offset, pos.Column)
		if pos.Filename != "sample.go" {
			where = strings.TrimSuffix(pos.Filename, ".go") + ":" + where
		}
		msgs = append(msgs, where+": "+msg)
	}
	for _, n := range names {
		f, err := parser.ParseFile(c.fset, n, files[n].Source, parser.AllErrors)
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					report(e.Pos, e.Msg)
				}
				continue
			}
			msgs = append(msgs, err.Error())
			continue
		}
		parsed = append(parsed, f)
	}
	if len(msgs) > 0 {
		return msgs
	}
	for _, f := range parsed {
		for _, im := range f.Imports {
			if p := strings.Trim(im.Path.Value, `"`); internal(p) {
				report(c.fset.Position(im.Pos()), fmt.Sprintf("use of internal package %s not allowed", p))
			}
		}
	}
	conf := types.Config{
		Importer: c.imp,
		Error: func(err error) {
			var te types.Error
			if errors.As(err, &te) {
				report(te.Fset.Position(te.Pos), te.Msg)
				return
			}
			msgs = append(msgs, err.Error())
		},
	}
	_, _ = conf.Check("errkb.test/sample", c.fset, parsed, nil)
	return msgs
}

// internal reports whether path is an internal package of another module,
// which a program outside that module cannot import.
func internal(path string) bool {
	return strings.Contains(path, "/internal/") || strings.HasSuffix(path, "/internal")
}
