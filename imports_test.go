package errkb_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestModelImportsNoStorage keeps storage out of the model: mappings,
// snapshots and checksums live in internal/store and internal/safefile.
func TestModelImportsNoStorage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch path {
			case "syscall", "unsafe", "encoding/gob", "hash/crc32", "github.com/errkb/errkb/internal/store":
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}

// TestFilesReferOnlyUp keeps the package's files in the order doc.go lists
// them: a file refers only to what the files listed before it declare, so
// a reader can take the files from the top, and the load path never goes
// back down the list. A new file must be placed in the list.
func TestFilesReferOnlyUp(t *testing.T) {
	order := docFileOrder(t)
	declaredIn := map[string]int{} // top-level name -> place in order
	files := make([]*ast.File, len(order))
	for i, name := range order {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = f
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declaredIn[d.Name.Name] = i
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declaredIn[s.Name.Name] = i
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declaredIn[n.Name] = i
						}
					}
				}
			}
		}
	}
	for i, f := range files {
		skip := map[*ast.Ident]bool{} // names that declare, not refer
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				skip[n.Sel] = true
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					skip[id] = true // a field of a composite literal
				}
			case *ast.Field:
				for _, id := range n.Names {
					skip[id] = true
				}
			case *ast.FuncDecl:
				skip[n.Name] = true
			case *ast.Ident:
				// Obj is set for names this file declares, locally or not.
				if j, ok := declaredIn[n.Name]; ok && j > i && n.Obj == nil && !skip[n] {
					t.Errorf("%s refers to %s, declared in %s, listed after it", order[i], n.Name, order[j])
				}
			}
			return true
		})
	}
}

// docFileOrder is the list of files in the package comment (doc.go),
// which must name every file of the package but its tests.
func docFileOrder(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for line := range strings.Lines(f.Doc.Text()) {
		if name, _, _ := strings.Cut(strings.TrimSpace(line), " "); strings.HasPrefix(line, "\t") && strings.HasSuffix(name, ".go") {
			order = append(order, name)
		}
	}
	all, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range all {
		if !strings.HasSuffix(name, "_test.go") && name != "doc.go" && !slices.Contains(order, name) {
			t.Errorf("%s is not in doc.go's list of files", name)
		}
	}
	return order
}
