// Package natserrors reads nats-server's own table of JetStream API errors,
// server/errors.json, and the constructors generated from it
// (NewJSStreamNotFoundError in server/jetstream_errors_generated.go). Each
// entry becomes an extract.Error with its HTTP status, err_code,
// description and the places its constructor is called. It is an adapter
// for that one project's format, kept apart from the generic extraction.
package natserrors

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

const (
	tableFile     = "server/errors.json"
	generatedFile = "server/jetstream_errors_generated.go"
	pkgDir        = "server"
)

// entry is one object of errors.json.
type entry struct {
	Constant    string `json:"constant"`
	Code        int    `json:"code"`
	ErrorCode   int    `json:"error_code"`
	Description string `json:"description"`
	Comment     string `json:"comment"`
	Help        string `json:"help"`
	URL         string `json:"url"`
	Deprecates  string `json:"deprecates"`
}

// constructor is the generated function that makes one entry's error.
type constructor struct {
	name       string
	line       int
	start, end int // its lines, doc comment included
}

// Table is a module's errors.json with its constructors.
type Table struct {
	pkg     string // import path of the server package
	entries []entry
	lines   map[string]int // constant -> its line in errors.json
	codes   map[string]int // constant -> the line of its entry's error_code
	cons    map[string]constructor
}

// Open reads root's error table. It returns nil and no error when root
// has no server/errors.json: the module is not nats-server.
func Open(root, modPath string) (*Table, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(tableFile)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t := &Table{pkg: modPath + "/" + pkgDir, lines: map[string]int{}, codes: map[string]int{}, cons: map[string]constructor{}}
	if err := json.Unmarshal(data, &t.entries); err != nil {
		return nil, fmt.Errorf("%s: %w", tableFile, err)
	}
	t.readLines(data)
	if err := t.readConstructors(root); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return t, nil
}

// readLines finds, for each entry of errors.json, the lines of its
// "constant" and of its "error_code", whichever comes first in the
// object: the places a page links to for the entry and its err_code.
func (t *Table) readLines(data []byte) {
	constant, codeLine := "", 0
	for i, line := range bytes.Split(data, []byte("\n")) {
		s := bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte(",")))
		switch {
		case bytes.HasPrefix(s, []byte("{")):
			constant, codeLine = "", 0
		case bytes.HasPrefix(s, []byte(`"constant"`)):
			var c struct {
				Constant string `json:"constant"`
			}
			if json.Unmarshal(append(append([]byte("{"), s...), '}'), &c) == nil {
				constant = c.Constant
				t.lines[constant] = i + 1
			}
		case bytes.HasPrefix(s, []byte(`"error_code"`)):
			codeLine = i + 1
		}
		if constant != "" && codeLine != 0 {
			t.codes[constant] = codeLine
		}
	}
}

// readConstructors maps each constant to the generated function whose
// body reads ApiErrors[constant].
func (t *Table) readConstructors(root string) error {
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(generatedFile)))
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, generatedFile, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			ix, ok := n.(*ast.IndexExpr)
			if !ok {
				return true
			}
			if m, ok := ix.X.(*ast.Ident); ok && m.Name == "ApiErrors" {
				if c, ok := ix.Index.(*ast.Ident); ok {
					if _, seen := t.cons[c.Name]; !seen {
						start := fd.Pos()
						if fd.Doc != nil {
							start = fd.Doc.Pos()
						}
						t.cons[c.Name] = constructor{name: fd.Name.Name, line: fset.Position(fd.Pos()).Line,
							start: fset.Position(start).Line, end: fset.Position(fd.End()).Line}
					}
				}
			}
			return true
		})
	}
	return nil
}

// Track names the constructors whose call sites extract.Dir should list.
func (t *Table) Track() map[string]bool {
	m := map[string]bool{}
	for _, c := range t.cons {
		m[t.pkg+"."+c.name] = true
	}
	return m
}

// Errors is one extract.Error per entry, sorted by constant. Its
// definition is the entry's constructor (or, without one, its place in
// errors.json), and its sites are the constructor's call sites.
func (t *Table) Errors(calls map[string][]extract.Site) []extract.Error {
	var out []extract.Error
	for _, e := range t.entries {
		if e.Constant == "" {
			continue
		}
		x := extract.Error{
			Kind: extract.API, Package: t.pkg, PkgName: pkgDir, Name: e.Constant,
			Message: e.Description, HTTPStatus: e.Code,
			Code: &extract.Code{Name: e.Constant, Value: e.ErrorCode, Package: t.pkg, PkgName: pkgDir,
				CarrierType: "ApiError", CarrierField: "ErrCode"},
			Doc: doc(e),
		}
		if line := t.codes[e.Constant]; line > 0 {
			x.Code.At = extract.Where{File: tableFile, Line: line}
		}
		if c, ok := t.cons[e.Constant]; ok {
			x.File, x.Line, x.Span = generatedFile, c.line, [2]int{c.start, c.end}
			x.Sites = slices.Clone(calls[t.pkg+"."+c.name])
			if len(x.Sites) > 0 {
				// The table is the JetStream API's error responses: an
				// entry the server makes is sent to the client that asked.
				x.Surface = errkb.SurfaceProtocol
			}
		} else {
			x.File, x.Line = tableFile, t.lines[e.Constant]
		}
		if x.Message == "" || x.Line == 0 {
			continue
		}
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b extract.Error) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// doc is the entry's own words: its comment and help.
func doc(e entry) string {
	var parts []string
	for _, s := range []string{e.Comment, e.Help} {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}
