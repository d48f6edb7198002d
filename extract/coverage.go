package extract

import (
	"go/ast"
	"go/constant"
	"go/types"

	"github.com/errkb/errkb"
)

// coverage is what the passes beyond sentinels, types and errors.New
// share: the constructors found by data flow (constructors.go), the
// messages an Error method gives per constant (branches.go).
type coverage struct {
	ctors    map[string]*ctor          // by (*types.Func).FullName
	branches map[string]branch         // by the constant's key: the text Error or String returns for it
	tables   map[string]map[int]branch // by the error type's key: its Error method's table, by index
	formats  map[string][]branchFormat // by the error type's key: every return of its Error method that prints fields
}

// branch is one constant text a method returns, where it stands.
type branch struct {
	text string
	at   Where
}

// declareCoverage runs after sentinels are declared: the Error methods'
// branches and tables, the constant sentinels they give messages to, and
// the constructors.
func (m *modIndex) declareCoverage() {
	m.cov = &coverage{ctors: seedCtors(), branches: map[string]branch{}, tables: map[string]map[int]branch{},
		formats: map[string][]branchFormat{}}
	for _, p := range m.prog.Packages {
		m.declareBranches(p)
	}
	for _, p := range m.prog.Packages {
		m.declareConstSentinels(p)
	}
	m.findConstructors()
}

// scanCoverage walks every function for the errors made there that
// scanBodies does not read: log lines, calls of constructors, -ERR
// lines, literals of error types.
func (m *modIndex) scanCoverage() {
	for _, p := range m.prog.Packages {
		s := m.scope(p)
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn, own := funcName(fd), ""
				obj, _ := s.info.Defs[fd.Name].(*types.Func)
				isCtor := obj != nil && m.cov.ctors[obj.FullName()] != nil // its literal is read at its calls
				if s.isErrorMethod(fd) {
					if tn, _ := s.receiver(fd); tn != nil {
						own = key(tn)
					}
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.CallExpr:
						s.logLine(n, fn)
						s.ctorCall(n, fn)
						s.protocolLine(n, fn)
					case *ast.CompositeLit:
						if !isCtor {
							s.structLiteral(n, fn, own)
						}
					}
					return true
				})
			}
		}
	}
}

// add merges an error made at one site into the errors made in
// functions: one error per package and key, defined at its first site.
func (s *scope) add(e *Error, at Site) {
	if !hasWords(e.Message) {
		return
	}
	e.Package, e.PkgName, e.Internal = s.p.PkgPath, s.p.Name, s.p.Internal
	k := e.Key()
	old := s.m.calls[k]
	if old == nil {
		e.Func, e.Where = at.Func, at.Where
		s.m.calls[k] = e
		old = e
	} else {
		if at.File < old.File || at.File == old.File && at.Line < old.Line {
			old.Func, old.Where = at.Func, at.Where
		}
		old.Wraps = append(old.Wraps, e.Wraps...)
		if old.Code == nil {
			old.Code = e.Code
		}
	}
	old.Sites = append(old.Sites, at)
}

// site is the provenance of a node in function fn; ok is false outside
// the module.
func (s *scope) site(n ast.Node, fn string) (Site, bool) {
	at, ok := s.where(n.Pos())
	return Site{Where: at, Func: fn}, ok
}

// constString is the value of a constant string expression as the type
// checker folded it: a literal, a named constant, "nats: " + SOME_CONST.
func (s *scope) constString(e ast.Expr) (string, bool) {
	tv, ok := s.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// sentinelKey is the key of the package-level variable, or of the
// constant sentinel, that expr names; "" for anything else.
func (s *scope) sentinelKey(expr ast.Expr) string {
	if k := s.varKey(expr); k != "" {
		return k
	}
	if c := s.constOf(expr); c != nil && s.m.sentinels != nil && s.m.sentinels[key(c)] != nil {
		return key(c)
	}
	return ""
}

// applySurface puts what the kind of error says of its surface, level,
// class and type guard on its record, and keeps its call sites within a record's cap (the
// first in file order): syscall.EINVAL is returned in over a hundred
// places of the standard library.
func applySurface(r *errkb.Record, e *Error) {
	if len(r.CallSites) > errkb.MaxListEntries {
		r.CallSites = r.CallSites[:errkb.MaxListEntries]
	}
	if e.Surface != "" {
		r.Surface = e.Surface
	}
	if e.Name == "" && e.Kind != Call {
		r.ErrorClass = e.PkgName + "." + e.Func // made in a function, as a Call error
	}
	if e.Kind == Log || e.Kind == Protocol {
		r.TypeGuard = "" // a log line or a wire string is no error value a caller could test
	}
	if e.Severity != "" {
		r.Severity = e.Severity
	}
}

// errorType is the error interface.
var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// isError reports a type that implements error, itself or through a
// pointer.
func isError(t types.Type) bool {
	return t != nil && (types.Implements(t, errorType) || types.Implements(types.NewPointer(t), errorType))
}
