package extract

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// guard is a condition of an Error method under which one of its returns
// is reached, as far as it can be read without running it: comparisons
// of the receiver's fields with constants, package-level variables and
// nil, joined by &&, || and !. Anything else is unknown. A literal of the
// type then rules out the returns whose conditions its constant fields
// make false (&ParseError{Err: ErrFieldCount} never reaches the return
// guarded by e.Err != ErrFieldCount).
type guard struct {
	op   token.Token // EQL, NEQ: l op r; LAND, LOR: a op b; NOT: !a; anything else: unknown
	l, r operand
	a, b *guard
}

// operand is a receiver's field, or a value: a constant's exact text,
// "var:" and a package-level variable's key, or "nil"; "" is unknown.
type operand struct{ field, value string }

// cond is a guard and the truth a return needs of it.
type cond struct {
	g    *guard
	want bool
}

func (s *scope) guardOf(e ast.Expr, recv types.Object) *guard {
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ:
			return &guard{op: e.Op, l: s.operandOf(e.X, recv), r: s.operandOf(e.Y, recv)}
		case token.LAND, token.LOR:
			return &guard{op: e.Op, a: s.guardOf(e.X, recv), b: s.guardOf(e.Y, recv)}
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return &guard{op: token.NOT, a: s.guardOf(e.X, recv)}
		}
	}
	return &guard{}
}

func (s *scope) operandOf(e ast.Expr, recv types.Object) operand {
	if f := s.receiverField(ast.Unparen(e), recv); f != "" {
		return operand{field: f}
	}
	return operand{value: s.valueText(e)}
}

// valueText is how a guard or a literal's field states a value it knows.
func (s *scope) valueText(e ast.Expr) string {
	e = ast.Unparen(e)
	if tv, ok := s.info.Types[e]; ok && tv.Value != nil {
		return tv.Value.ExactString()
	}
	if tv, ok := s.info.Types[e]; ok && tv.IsNil() {
		return "nil"
	}
	if k := s.varKey(e); k != "" {
		return "var:" + k
	}
	return ""
}

// literalValues are the fields a literal gives a value a guard can
// compare.
func (s *scope) literalValues(lit *ast.CompositeLit) map[string]string {
	out := map[string]string{}
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if field, ok := kv.Key.(*ast.Ident); ok {
				if v := s.valueText(kv.Value); v != "" {
					out[field.Name] = v
				}
			}
		}
	}
	return out
}

// eval is 1 when g holds for the values, -1 when it does not, 0 when
// they do not say.
func (g *guard) eval(vals map[string]string) int {
	switch g.op {
	case token.EQL, token.NEQ:
		l, r := g.l.resolve(vals), g.r.resolve(vals)
		if l == "" || r == "" {
			return 0
		}
		if (l == r) == (g.op == token.EQL) {
			return 1
		}
		return -1
	case token.LAND:
		a, b := g.a.eval(vals), g.b.eval(vals)
		if a == -1 || b == -1 {
			return -1
		}
		if a == 1 && b == 1 {
			return 1
		}
	case token.LOR:
		a, b := g.a.eval(vals), g.b.eval(vals)
		if a == 1 || b == 1 {
			return 1
		}
		if a == -1 && b == -1 {
			return -1
		}
	case token.NOT:
		return -g.a.eval(vals)
	}
	return 0
}

func (o operand) resolve(vals map[string]string) string {
	if o.field != "" {
		return vals[o.field] // a field the literal leaves out may be set later
	}
	return o.value
}

// reachable reports whether no condition on the way is false for vals.
func reachable(conds []cond, vals map[string]string) bool {
	for _, c := range conds {
		if v := c.g.eval(vals); v != 0 && (v == 1) != c.want {
			return false
		}
	}
	return true
}

// walkReturns calls visit with each return of stmts and the conditions
// of the ifs on its way; it reports whether stmts always return. Returns
// under other statements (switch, for) carry the conditions so far.
func (s *scope) walkReturns(stmts []ast.Stmt, path []cond, recv types.Object, visit func(*ast.ReturnStmt, []cond)) bool {
	with := func(g *guard, want bool) []cond { return append(slices.Clone(path), cond{g, want}) }
	for _, st := range stmts {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			visit(st, path)
			return true
		case *ast.IfStmt:
			g := s.guardOf(st.Cond, recv)
			bodyEnds := s.walkReturns(st.Body.List, with(g, true), recv, visit)
			elseEnds := false
			switch el := st.Else.(type) {
			case *ast.BlockStmt:
				elseEnds = s.walkReturns(el.List, with(g, false), recv, visit)
			case *ast.IfStmt:
				elseEnds = s.walkReturns([]ast.Stmt{el}, with(g, false), recv, visit)
			}
			switch {
			case bodyEnds && elseEnds:
				return true
			case bodyEnds:
				path = with(g, false)
			case elseEnds:
				path = with(g, true)
			}
		case *ast.BlockStmt:
			if s.walkReturns(st.List, path, recv, visit) {
				return true
			}
		default:
			inspectOwn(st, func(n ast.Node) {
				if ret, ok := n.(*ast.ReturnStmt); ok {
					visit(ret, path)
				}
			})
		}
	}
	return false
}
