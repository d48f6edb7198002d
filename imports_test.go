package errkb_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
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
