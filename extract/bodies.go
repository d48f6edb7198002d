package extract

import (
	"go/ast"
	"go/token"
)

// scanBodies walks every function of p: errors made there become Call
// errors, and each place a sentinel or error type is raised becomes one of
// its sites.
func (m *modIndex) scanBodies(p *pkg) {
	for _, f := range p.files {
		s := m.scope(p, f)
		for _, d := range f.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn := funcName(fd)
			own := ""
			if isErrorMethod(fd) {
				recv, _ := receiver(fd)
				own = p.path + "." + recv
			}
			s.walk(fd.Body, fn, own)
		}
	}
}

// funcName is "Name", "T.Name" or "(*T).Name".
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	recv, ptr := receiver(fd)
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
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		descend := s.visit(n, parent, fn, own)
		if descend {
			stack = append(stack, n)
		}
		return descend
	})
}

func (s *scope) visit(n, parent ast.Node, fn, own string) bool {
	site := func(pos token.Pos) Site { return Site{File: s.f.rel, Line: s.f.line(pos), Func: fn} }
	switch n := n.(type) {
	case *ast.CallExpr:
		if msg, isErrorf, ok := s.newError(n); ok {
			s.callError(msg, isErrorf, n, site(n.Pos()))
			return true
		}
		if fp, name, ok := s.resolve(n.Fun); ok {
			if s.m.opts.TrackCalls[fp+"."+name] {
				k := fp + "." + name
				s.m.res.Calls[k] = append(s.m.res.Calls[k], site(n.Pos()))
			}
			if t := s.m.types[fp+"."+name]; t != nil && len(n.Args) == 1 && fp+"."+name != own {
				t.Sites = append(t.Sites, site(n.Pos())) // a conversion: ConnectionError(code)
			}
		}
		if s.isFunc(n, errorsPkgs, "Is") || s.isFunc(n, errorsPkgs, "As") {
			return false // tests for errors, raises none
		}
	case *ast.CompositeLit:
		if tp, tn, ok := s.resolve(n.Type); ok && tp+"."+tn != own {
			if t := s.m.types[tp+"."+tn]; t != nil {
				t.Sites = append(t.Sites, site(n.Pos()))
			}
		}
	case *ast.SelectorExpr:
		if x, ok := n.X.(*ast.Ident); ok {
			if ip, ok := s.imports[x.Name]; ok {
				s.reference(ip, n.Sel.Name, parent, site(n.Pos()))
			}
			return false // x.Sel: neither x (a package or a value) nor Sel (a field) is a bare sentinel
		}
	case *ast.Ident:
		switch p := parent.(type) {
		case *ast.SelectorExpr:
			if p.Sel == n {
				return true // a field or method
			}
		case *ast.KeyValueExpr:
			if p.Key == n {
				return true // a field name
			}
		}
		s.reference(s.p.path, n.Name, parent, site(n.Pos()))
	}
	return true
}

// reference records a raise site of sentinel ip.name unless the reference
// only compares with it or names it in a case or on the left of "=".
func (s *scope) reference(ip, name string, parent ast.Node, at Site) {
	e := s.m.sentinels[ip+"."+name]
	if e == nil {
		return
	}
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		if p.Op == token.EQL || p.Op == token.NEQ {
			return
		}
	case *ast.CaseClause:
		return
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name == name {
				return
			}
		}
	case *ast.ValueSpec, *ast.Field:
		return
	}
	e.Sites = append(e.Sites, at)
}

// callError adds one place where errors.New or fmt.Errorf makes an error.
// All places of one package making the same message are one error.
func (s *scope) callError(msg string, isErrorf bool, call *ast.CallExpr, at Site) {
	if !hasWords(msg) {
		return // "%w: %v" says nothing of its own
	}
	key := s.p.path + ":" + msg
	e := s.m.calls[key]
	if e == nil {
		e = &Error{Kind: Call, Package: s.p.path, PkgName: s.p.name, Func: at.Func, Message: msg, File: at.File, Line: at.Line}
		s.m.calls[key] = e
	} else if at.File < e.File || at.File == e.File && at.Line < e.Line {
		e.Func, e.File, e.Line = at.Func, at.File, at.Line
	}
	e.Sites = append(e.Sites, at)
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
		if ip, name, ok := s.resolve(args[i]); ok && s.m.sentinels[ip+"."+name] != nil {
			keys = append(keys, ip+"."+name)
		}
	}
	return keys
}
