package knowledge

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/errkb/errkb"
)

// Guard kinds (errkb.Guard.Kind).
const (
	KindIf   = "if"   // inside an if's body: its condition holds
	KindElse = "else" // inside an else branch: the negation of the if's condition
	KindCase = "case" // inside a case of a switch or select
	KindCall = "call" // the call whose result set the variable a guard tests
)

// conditions are the guards around each place, innermost first, up to
// the function (or function literal) the place is in.
func (ix *index) conditions(places []place) []errkb.Condition {
	var out []errkb.Condition
	for _, p := range places {
		at, ok := ix.where(p.node.Pos())
		if !ok {
			continue
		}
		c := errkb.Condition{Function: p.site.Func, FilePath: at.FilePath, LineNumber: at.LineNumber, GithubURL: at.GithubURL,
			Guards: []errkb.Guard{}, Settings: []errkb.Setting{}}
		var exprs []ast.Expr
		for i := len(p.path) - 1; i > 0; i-- {
			child, parent := p.path[i], p.path[i-1]
			if _, ok := child.(*ast.FuncLit); ok {
				c.Function = "func literal in " + p.site.Func
				break
			}
			if _, ok := child.(*ast.FuncDecl); ok {
				break
			}
			gs, es := ix.guards(p.file, p.path[:i], child, parent)
			c.Guards = append(c.Guards, gs...)
			exprs = append(exprs, es...)
		}
		c.Unconditional = len(c.Guards) == 0
		c.Settings = ix.settings.read(p.file, exprs)
		out = append(out, c)
	}
	return out
}

// guards are the conditions parent puts on child (path ends at parent),
// and the expressions they read.
func (ix *index) guards(fi *file, path []ast.Node, child, parent ast.Node) ([]errkb.Guard, []ast.Expr) {
	guard := func(kind, expr string, pos token.Pos) []errkb.Guard {
		at, ok := ix.where(pos)
		if !ok || expr == "" {
			return nil
		}
		return []errkb.Guard{{Expr: expr, Kind: kind, FilePath: at.FilePath, LineNumber: at.LineNumber, GithubURL: at.GithubURL}}
	}
	switch s := parent.(type) {
	case *ast.IfStmt:
		init := ""
		if s.Init != nil {
			init = ix.text(fi, s.Init) + "; "
		}
		var gs []errkb.Guard
		switch child {
		case s.Body:
			gs = guard(KindIf, init+ix.text(fi, s.Cond), s.Cond.Pos())
		case s.Else:
			gs = guard(KindElse, init+negate(ix.text(fi, s.Cond), s.Cond), s.Cond.Pos())
		default:
			return nil, nil
		}
		if s.Init == nil && len(path) >= 2 {
			gs = append(gs, ix.setBy(fi, s, path[len(path)-2], guard)...)
		}
		return gs, []ast.Expr{s.Cond}
	case *ast.CaseClause:
		if len(path) < 3 {
			return nil, nil
		}
		expr, reads := ix.caseExpr(fi, s, path[len(path)-3])
		return guard(KindCase, expr, s.Pos()), reads
	case *ast.CommClause:
		if s.Comm == nil {
			return guard(KindCase, "default", s.Pos()), nil
		}
		return guard(KindCase, "case "+ix.text(fi, s.Comm), s.Pos()), nil
	}
	return nil, nil
}

// caseExpr is a case clause's condition: tag == v for each value of a
// switch on a tag, the values themselves for a switch without one, the
// negation of every other case for default, and the types of a type
// switch.
func (ix *index) caseExpr(fi *file, cc *ast.CaseClause, sw ast.Node) (string, []ast.Expr) {
	conds := func(c *ast.CaseClause, tag ast.Expr) []string {
		var out []string
		for _, v := range c.List {
			if tag == nil {
				out = append(out, ix.text(fi, v))
			} else {
				out = append(out, ix.text(fi, tag)+" == "+ix.text(fi, v))
			}
		}
		return out
	}
	switch sw := sw.(type) {
	case *ast.SwitchStmt:
		reads := append([]ast.Expr{}, cc.List...)
		if sw.Tag != nil {
			reads = append(reads, sw.Tag)
		}
		if cc.List != nil {
			return strings.Join(conds(cc, sw.Tag), " || "), reads
		}
		var others []string
		for _, st := range sw.Body.List {
			if o, ok := st.(*ast.CaseClause); ok && o != cc {
				others = append(others, conds(o, sw.Tag)...)
			}
		}
		if len(others) == 0 {
			return "", nil
		}
		return "!(" + strings.Join(others, " || ") + ")", reads
	case *ast.TypeSwitchStmt:
		subject := ix.text(fi, sw.Assign)
		if cc.List == nil {
			return "switch " + subject + ": default", nil
		}
		var ts []string
		for _, t := range cc.List {
			ts = append(ts, ix.text(fi, t))
		}
		return "switch " + subject + ": case " + strings.Join(ts, ", "), nil
	}
	return "", nil
}

// negate is the negation of a condition as Go writes it: a comparison
// with == or != flipped, a leading ! dropped, anything else in !( ).
func negate(text string, cond ast.Expr) string {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		if c.Op == token.EQL || c.Op == token.NEQ {
			if i := strings.Index(text, " "+c.Op.String()+" "); i >= 0 && strings.Count(text, " "+c.Op.String()+" ") == 1 &&
				!strings.ContainsAny(text, "&|") {
				flip := map[token.Token]string{token.EQL: " != ", token.NEQ: " == "}[c.Op]
				return text[:i] + flip + text[i+len(c.Op.String())+2:]
			}
		}
	case *ast.UnaryExpr:
		if c.Op == token.NOT && strings.HasPrefix(text, "!") {
			return strings.TrimPrefix(text, "!")
		}
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr:
		return "!" + text
	}
	return "!(" + text + ")"
}

// setBy is the call whose result set the variable an if tests against
// nil (err != nil): the last assignment to it before the if, in the same
// block, when its right side is one call.
func (ix *index) setBy(fi *file, ifs *ast.IfStmt, block ast.Node, guard func(string, string, token.Pos) []errkb.Guard) []errkb.Guard {
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ && be.Op != token.EQL {
		return nil
	}
	id, ok := ast.Unparen(be.X).(*ast.Ident)
	if !ok || !isNil(be.Y) {
		return nil
	}
	info := fi.pkg.TypesInfo
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	var list []ast.Stmt
	switch b := block.(type) {
	case *ast.BlockStmt:
		list = b.List
	case *ast.CaseClause:
		list = b.Body
	case *ast.CommClause:
		list = b.Body
	default:
		return nil
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i] != ast.Stmt(ifs) {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			as, ok := list[j].(*ast.AssignStmt)
			if !ok || !assigns(info, as.Lhs, v) {
				if setsInside(info, list[j], v) {
					return nil // set in a branch or loop too: which call did is not known
				}
				continue
			}
			if len(as.Rhs) == 1 {
				if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
					return guard(KindCall, ix.text(fi, as), call.Pos())
				}
			}
			return nil
		}
	}
	return nil
}

func isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// assigns reports whether one of lhs is v.
// setsInside reports whether stmt assigns v anywhere within it, in a
// nested block or a statement's init (if o, err = f(); err == nil).
func setsInside(info *types.Info, stmt ast.Stmt, v *types.Var) bool {
	found := false
	ast.Inspect(stmt, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && assigns(info, as.Lhs, v) {
			found = true
		}
		return !found
	})
	return found
}

func assigns(info *types.Info, lhs []ast.Expr, v *types.Var) bool {
	for _, l := range lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
			return true
		}
	}
	return false
}
