package extract

import (
	"go/ast"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// modIndex is what the passes share: every package's errors, types and codes,
// keyed by "import/path.Name".
type modIndex struct {
	pkgs      []*pkg
	pkgNames  map[string]string // import path -> package name
	types     map[string]*Error // error types
	formats   map[string]typeFormat
	codeTypes map[string]bool // named code types
	codes     map[string]*Code
	sentinels map[string]*Error
	calls     map[string]*Error // Call errors by Key
	opts      Options
	res       *Result
}

// analyze runs the passes over every package: declarations of types and
// codes first, then sentinels (which refer to both), then function bodies
// (which refer to all three).
func analyze(pkgs []*pkg, opts Options, res *Result) {
	m := &modIndex{
		pkgs: pkgs, pkgNames: map[string]string{}, types: map[string]*Error{}, formats: map[string]typeFormat{}, codeTypes: map[string]bool{},
		codes: map[string]*Code{}, sentinels: map[string]*Error{}, calls: map[string]*Error{}, opts: opts, res: res,
	}
	for _, p := range pkgs {
		m.pkgNames[p.path] = p.name
	}
	for _, p := range pkgs {
		m.declareTypes(p)
	}
	for _, p := range pkgs {
		m.declareCodes(p)
	}
	for _, p := range pkgs {
		m.declareSentinels(p)
	}
	for _, p := range pkgs {
		m.scanBodies(p)
	}
	m.collect()
}

// scope resolves names in one file: the package's own and its imports'.
type scope struct {
	m       *modIndex
	p       *pkg
	f       *file
	imports map[string]string // local name -> import path
}

func (m *modIndex) scope(p *pkg, f *file) *scope {
	s := &scope{m: m, p: p, f: f, imports: map[string]string{}}
	for _, im := range f.ast.Imports {
		ip, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := m.pkgNames[ip]
		if name == "" {
			name = defaultImportName(ip)
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		s.imports[name] = ip
	}
	return s
}

// defaultImportName guesses the package name of an import outside the
// module from its path: the last element without a major version suffix.
func defaultImportName(ip string) string {
	parts := strings.Split(ip, "/")
	last := parts[len(parts)-1]
	if len(parts) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
		last = parts[len(parts)-2]
	}
	last, _, _ = strings.Cut(last, ".")
	return strings.ReplaceAll(last, "-", "_")
}

// resolve names what expr refers to: ("import/path", "Name") for an
// identifier of this package or a selector on an import.
func (s *scope) resolve(expr ast.Expr) (string, string, bool) {
	switch e := expr.(type) {
	case *ast.Ident:
		return s.p.path, e.Name, true
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			if ip, ok := s.imports[x.Name]; ok {
				return ip, e.Sel.Name, true
			}
		}
	case *ast.StarExpr:
		return s.resolve(e.X)
	case *ast.ParenExpr:
		return s.resolve(e.X)
	}
	return "", "", false
}

// isFunc reports whether call calls importPath.name (errors.New, fmt.Errorf).
func (s *scope) isFunc(call *ast.CallExpr, importPaths []string, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && slices.Contains(importPaths, s.imports[x.Name])
}

var errorsPkgs = []string{"errors", "github.com/pkg/errors"}

// newError reports the message of errors.New("...") or fmt.Errorf("...").
func (s *scope) newError(call *ast.CallExpr) (msg string, isErrorf bool, ok bool) {
	if len(call.Args) == 0 {
		return "", false, false
	}
	switch {
	case s.isFunc(call, errorsPkgs, "New"):
	case s.isFunc(call, []string{"fmt"}, "Errorf"), s.isFunc(call, errorsPkgs, "Errorf"):
		isErrorf = true
	default:
		return "", false, false
	}
	msg, ok = stringLit(call.Args[0])
	return msg, isErrorf, ok
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

func intLit(e ast.Expr) (int, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64)
	return int(n), err == nil
}

// docText is a doc comment's text without markers, or "".
func docText(groups ...*ast.CommentGroup) string {
	for _, g := range groups {
		if g != nil {
			if t := strings.TrimSpace(g.Text()); t != "" {
				return t
			}
		}
	}
	return ""
}

// collect sorts everything into the result.
func (m *modIndex) collect() {
	var all []Error
	for _, e := range m.sentinels {
		if strings.TrimSpace(e.Message) != "" { // a named sentinel needs no long text: "EOF" is an error
			all = append(all, *e)
		}
	}
	for _, e := range m.types {
		if hasWords(e.Message) {
			all = append(all, *e)
		}
	}
	for _, e := range m.calls {
		all = append(all, *e)
	}
	for i := range all {
		all[i].Sites = SortSites(all[i].Sites)
		slices.Sort(all[i].Wraps)
		all[i].Wraps = slices.Compact(all[i].Wraps)
	}
	slices.SortFunc(all, func(a, b Error) int { return strings.Compare(a.Key(), b.Key()) })
	m.res.Errors = all
	for k, sites := range m.res.Calls {
		m.res.Calls[k] = SortSites(sites)
	}
}

// SortSites orders sites by file and line, without duplicates.
func SortSites(sites []Site) []Site {
	slices.SortFunc(sites, func(a, b Site) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Func, b.Func)
	})
	return slices.CompactFunc(sites, func(a, b Site) bool { return a.File == b.File && a.Line == b.Line })
}

// hasWords reports whether a message or format says something beyond its
// verbs and a prefix: at least six letters of literal text ("nats: %w"
// says nothing a page could explain).
func hasWords(msg string) bool {
	letters := 0
	for _, r := range LiteralText(msg) {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			letters++
		}
	}
	return letters >= 6
}
