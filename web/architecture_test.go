package web

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/errkb/errkb/web/route"
)

const architectureDoc = "../docs/architecture.md"

// routeTableMarkdown is the route table as docs/architecture.md shows it.
func routeTableMarkdown(rs []route.Route) string {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return ""
	}
	var b strings.Builder
	b.WriteString("| pattern | formats | kept | prepared | admitted | unlimited | export |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rs {
		b.WriteString("| `" + r.Pattern + "` | " + r.Formats.String() + " | " + yes(r.Cached) + " | " + yes(r.Prepared) + " | " +
			yes(r.Admitted) + " | " + yes(r.Unlimited) + " | " + r.Export.String() + " |\n")
	}
	return b.String()
}

// TestArchitectureDoc keeps docs/architecture.md true: its route table is
// the one web/routes.go declares (-update rewrites it), and every file
// and package it names exists.
func TestArchitectureDoc(t *testing.T) {
	raw, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	const open, end = "<!-- routes -->\n", "<!-- /routes -->"
	i, j := strings.Index(doc, open), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s: no route table between %q and %q", architectureDoc, open, end)
	}
	want := routeTableMarkdown(Routes())
	if got := doc[i+len(open) : j]; got != want {
		if *update {
			doc = doc[:i+len(open)] + want + doc[j:]
			if err := os.WriteFile(architectureDoc, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		} else {
			t.Errorf("%s: the route table is not web/routes.go's (go test ./web -run TestArchitectureDoc -update):\n%s", architectureDoc, firstDiff(want, got))
		}
	}
	named := regexp.MustCompile("`((?:cmd|web|index|templates|export|explain)/[A-Za-z0-9_./-]*)`").FindAllStringSubmatch(doc, -1)
	if len(named) < 30 {
		t.Fatalf("%s names %d files: the test would test nothing", architectureDoc, len(named))
	}
	for _, m := range named {
		if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
			t.Errorf("%s names %s, which does not exist", architectureDoc, m[1])
		}
	}
}

// TestImportsOneWay: the packages below web never import it, the fast
// path reaches the rest of the site only through its contract, and what
// a route is and how an address is spelled depend on nothing.
func TestImportsOneWay(t *testing.T) {
	const mod = "github.com/errkb/errkb/"
	allowed := map[string][]string{
		"internal/fast":     {mod + "web/internal/answer", mod + "web/internal/exchange", mod + "web/route"},
		"internal/answer":   {mod + "web/internal/exchange"},
		"internal/exchange": {"github.com/prometheus/client_golang/prometheus"},
		"route":             nil,
		"siteurl":           nil,
	}
	for dir, ok := range allowed {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
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
				p, _ := strconv.Unquote(imp.Path.Value)
				first, _, _ := strings.Cut(p, "/")
				if strings.Contains(first, ".") && !slices.Contains(ok, p) {
					t.Errorf("web/%s imports %s", f, p)
				}
			}
		}
	}
}
