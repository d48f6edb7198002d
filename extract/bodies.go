package extract

import (
	"go/ast"
	"go/token"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/errkb/errkb/extract/program"
)

// scanBodies walks every function of p: errors made there become Call
// errors, and each place a sentinel or error type is raised becomes one of
// its sites.
func (m *modIndex) scanBodies(p *program.Package) {
	s := m.scope(p)
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			own := "" // inside T's own Error method, T is formatted, not raised
			if s.isErrorMethod(fd) {
				if tn, _ := s.receiver(fd); tn != nil {
					own = key(tn)
				}
			}
			s.walk(fd.Body, funcName(fd), own)
		}
	}
}

// funcName is "Name", "T.Name" or "(*T).Name".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	ptr := false
	if st, ok := t.(*ast.StarExpr); ok {
		t, ptr = st.X, true
	}
	switch ix := t.(type) { // a generic type
	case *ast.IndexExpr:
		t = ix.X
	case *ast.IndexListExpr:
		t = ix.X
	}
	recv := ""
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if ptr {
		return "(*" + recv + ")." + fd.Name.Name
	}
	return recv + "." + fd.Name.Name
}

// walk visits one function body with a stack of parents, so that a
// reference is judged by where it stands: `return ErrX` raises ErrX,
// `err == ErrX` only tests for it.
func (s *scope) walk(body *ast.BlockStmt, fn, own string) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		descend := s.visit(n, stack, fn, own)
		if descend {
			stack = append(stack, n)
		}
		return descend
	})
}

func (s *scope) visit(n ast.Node, stack []ast.Node, fn, own string) bool {
	site := func(pos token.Pos) (Site, bool) {
		at, ok := s.where(pos)
		return Site{Where: at, Func: fn}, ok
	}
	switch n := n.(type) {
	case *ast.CallExpr:
		if msg, isErrorf, ok := s.newError(n); ok {
			if at, ok := site(n.Pos()); ok {
				s.callError(msg, isErrorf, n, at)
			}
			return true
		}
		if callee := typeutil.StaticCallee(s.info, n); callee != nil && isPackageLevel(callee) && s.m.opts.TrackCalls[key(callee)] {
			if at, ok := site(n.Pos()); ok {
				s.m.res.Calls[key(callee)] = append(s.m.res.Calls[key(callee)], at)
			}
		}
		if k := s.typeKey(n.Fun); k != "" && k != own && len(n.Args) == 1 {
			if t := s.m.types[k]; t != nil {
				if at, ok := site(n.Pos()); ok {
					t.Sites = append(t.Sites, at) // a conversion: ConnectionError(code)
				}
			}
		}
		if s.calls(n, errorsPkgs, "Is") || s.calls(n, errorsPkgs, "As") {
			return false // tests for errors, raises none
		}
	case *ast.CompositeLit:
		if n.Type == nil {
			break // an element of a table, not a value made on its own
		}
		if k := s.typeKey(n.Type); k != "" && k != own {
			if t := s.m.types[k]; t != nil {
				if at, ok := site(n.Pos()); ok {
					t.Sites = append(t.Sites, at)
				}
			}
		}
	case *ast.SelectorExpr:
		if k := s.sentinelKey(n); k != "" {
			s.reference(k, n, stack, site)
			return false // pkg.ErrX, handled whole
		}
	case *ast.Ident:
		if k := s.sentinelKey(n); k != "" {
			s.reference(k, n, stack, site)
		}
	}
	return true
}

func parentOf(stack []ast.Node) ast.Node {
	if len(stack) == 0 {
		return nil
	}
	return stack[len(stack)-1]
}

// reference records a raise site of sentinel k, named by expr (whose
// enclosing nodes are stack, innermost last), unless the reference only
// compares with it, names it in a case, assigns to it, or calls a method
// of it. ErrX.Error() is a raise: it puts the message in another error,
// a log line or a reply, unless its text is only compared.
func (s *scope) reference(k string, expr ast.Expr, stack []ast.Node, site func(token.Pos) (Site, bool)) {
	e := s.m.sentinels[k]
	if e == nil || !raises(expr, stack) {
		return
	}
	if len(stack) > 0 {
		if sel, ok := stack[len(stack)-1].(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(stack) >= 2 {
			if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && s.comparesText(call, stack[:len(stack)-2]) {
				return
			}
		}
	}
	if at, ok := site(expr.Pos()); ok {
		e.Sites = append(e.Sites, at)
	}
}

// raises reports whether a sentinel named by expr, under stack, is
// produced rather than tested for, assigned to or declared.
func raises(expr ast.Expr, stack []ast.Node) bool {
	switch p := parentOf(stack).(type) {
	case *ast.BinaryExpr:
		return p.Op != token.EQL && p.Op != token.NEQ
	case *ast.CaseClause, *ast.ValueSpec, *ast.Field:
		return false
	case *ast.AssignStmt:
		return !slices.Contains(p.Lhs, expr)
	case *ast.KeyValueExpr:
		return p.Key != expr
	case *ast.SelectorExpr:
		return p.Sel.Name == "Error"
	}
	return true
}

// comparesText reports an err.Error() text (call) that is only compared:
// an operand of == or !=, or an argument of a strings function that
// searches or compares.
func (s *scope) comparesText(call *ast.CallExpr, stack []ast.Node) bool {
	switch p := parentOf(stack).(type) {
	case *ast.BinaryExpr:
		return p.Op == token.EQL || p.Op == token.NEQ
	case *ast.CallExpr:
		for _, name := range []string{"Contains", "HasPrefix", "HasSuffix", "EqualFold", "Index", "Compare"} {
			if s.calls(p, []string{"strings"}, name) {
				return true
			}
		}
	}
	return false
}

// callError adds one place where errors.New or fmt.Errorf makes an error.
// All places of one package making the same message are one error.
func (s *scope) callError(msg string, isErrorf bool, call *ast.CallExpr, at Site) {
	if !hasWords(msg) {
		return // "%w: %v" says nothing of its own
	}
	k := s.p.PkgPath + ":" + msg
	e := s.m.calls[k]
	if e == nil {
		e = &Error{Kind: Call, Package: s.p.PkgPath, PkgName: s.p.Name, Func: at.Func, Message: msg, Where: at.Where, Internal: s.p.Internal}
		s.m.calls[k] = e
	} else if at.File < e.File || at.File == e.File && at.Line < e.Line {
		e.Func, e.Where = at.Func, at.Where
	}
	e.Sites = append(e.Sites, at)
	s.m.made[k] = append(s.m.made[k], call.Lparen)
	if isErrorf {
		e.Wraps = append(e.Wraps, s.wrapped(msg, call.Args[1:])...)
	}
}

// wrapped lists the keys of the known sentinels that format's %w verbs
// wrap.
func (s *scope) wrapped(format string, args []ast.Expr) []string {
	var keys []string
	for i, v := range Verbs(format) {
		if v.Verb != 'w' || i >= len(args) {
			continue
		}
		if k := s.sentinelKey(args[i]); k != "" && s.m.sentinels[k] != nil {
			keys = append(keys, k)
		}
	}
	return keys
}
