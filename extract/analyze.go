package extract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/errkb/errkb/extract/program"
)

// modIndex is what the passes share: every package's errors, types and
// codes, keyed by "import/path.Name". Keys, not objects: with tests
// loaded, a package and its test variant are two type-checked copies of
// the same declarations.
type modIndex struct {
	prog      *program.Program
	types     map[string]*Error // error types
	formats   map[string]typeFormat
	codeTypes map[string]bool // named code types
	codes     map[string]*Code
	sentinels map[string]*Error
	calls     map[string]*Error      // Call errors by Key
	made      map[string][]token.Pos // where each Call error is made: its call's Lparen, as SSA places the call
	opts      Options
	res       *Result
	cov       *coverage // the classes of coverage.go
}

// analyze runs the passes over every package: declarations of types and
// codes first, then sentinels (which refer to both), then function bodies
// (which refer to all three).
func analyze(prog *program.Program, opts Options, res *Result) {
	m := &modIndex{
		prog: prog, types: map[string]*Error{}, formats: map[string]typeFormat{}, codeTypes: map[string]bool{},
		codes: map[string]*Code{}, sentinels: map[string]*Error{}, calls: map[string]*Error{}, made: map[string][]token.Pos{}, opts: opts, res: res,
	}
	for _, p := range prog.Packages {
		m.declareTypes(p)
	}
	for _, p := range prog.Packages {
		m.declareCodes(p)
	}
	for _, p := range prog.Packages {
		m.declareSentinels(p)
	}
	m.declareCoverage()
	for _, p := range prog.Packages {
		m.mapCodes(p)
	}
	for _, p := range prog.Packages {
		m.scanBodies(p)
	}
	m.scanCoverage()
	if !opts.NoSurface {
		m.surfaces()
	}
	m.collect()
}

// scope is one package as the passes read it: its type information and
// where its positions are.
type scope struct {
	m    *modIndex
	p    *program.Package
	info *types.Info
}

func (m *modIndex) scope(p *program.Package) *scope {
	return &scope{m: m, p: p, info: p.TypesInfo}
}

// where is the provenance of pos; ok is false outside the module.
func (s *scope) where(pos token.Pos) (Where, bool) { return s.m.prog.Where(pos) }

// key names a package-level object: "import/path.Name".
func key(obj types.Object) string { return obj.Pkg().Path() + "." + obj.Name() }

// isPackageLevel reports an object declared at package scope (not a
// local, a field or a method).
func isPackageLevel(obj types.Object) bool {
	return obj != nil && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// object is what expr names, by the type checker: an identifier or a
// qualified identifier (pkg.Name), through parentheses and instantiation;
// nil for anything else, including a field or method selection.
func (s *scope) object(expr ast.Expr) types.Object {
	switch e := ast.Unparen(expr).(type) {
	case *ast.Ident:
		return s.info.ObjectOf(e)
	case *ast.SelectorExpr:
		if _, isField := s.info.Selections[e]; !isField {
			return s.info.ObjectOf(e.Sel)
		}
	case *ast.IndexExpr:
		return s.object(e.X)
	case *ast.IndexListExpr:
		return s.object(e.X)
	}
	return nil
}

// varKey is the key of the package-level variable expr names, or "".
func (s *scope) varKey(expr ast.Expr) string {
	if v, ok := s.object(expr).(*types.Var); ok && isPackageLevel(v) {
		return key(v)
	}
	return ""
}

// constOf is the package-level constant expr names, or nil.
func (s *scope) constOf(expr ast.Expr) *types.Const {
	if c, ok := s.object(expr).(*types.Const); ok && isPackageLevel(c) {
		return c
	}
	return nil
}

// namedKey is the key of a named type declared at package level, through
// pointers and instantiation ("" for any other type).
func namedKey(t types.Type) string {
	if t == nil {
		return ""
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !isPackageLevel(n.Obj()) {
		return ""
	}
	return key(n.Origin().Obj())
}

// typeKey is the key of the named type expr denotes as a type (a
// literal's type, a conversion's), or "".
func (s *scope) typeKey(expr ast.Expr) string {
	if tv, ok := s.info.Types[expr]; ok && tv.IsType() {
		return namedKey(tv.Type)
	}
	return ""
}

// calls reports whether call calls a package-level function named name of
// one of the packages (errors.New, fmt.Errorf), however it was imported.
func (s *scope) calls(call *ast.CallExpr, importPaths []string, name string) bool {
	fn := typeutil.StaticCallee(s.info, call)
	return fn != nil && fn.Name() == name && isPackageLevel(fn) && slices.Contains(importPaths, fn.Pkg().Path())
}

var errorsPkgs = []string{"errors", "github.com/pkg/errors"}

// newError reports the message of errors.New("...") or fmt.Errorf("...").
func (s *scope) newError(call *ast.CallExpr) (msg string, isErrorf bool, ok bool) {
	if len(call.Args) == 0 {
		return "", false, false
	}
	switch {
	case s.calls(call, errorsPkgs, "New"):
	case s.calls(call, []string{"fmt"}, "Errorf"), s.calls(call, errorsPkgs, "Errorf"):
		isErrorf = true
	default:
		return "", false, false
	}
	msg, ok = s.constString(call.Args[0])
	return msg, isErrorf, ok
}

// stringLit is a string literal's value. Messages are taken as written:
// a message folded from named constants is not read (yet).
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// intValue is the value of an integer constant expression: a literal or a
// named constant, as the type checker computed it.
func (s *scope) intValue(e ast.Expr) (int, bool) {
	tv, ok := s.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(tv.Value)
	return int(n), exact
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
		all[i].Mapped = sortMappings(all[i].Mapped)
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
