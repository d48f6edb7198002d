package knowledge

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

// handledAt are the places in the module's non-test code that check for
// e: errors.Is and other boolean calls given the error's name, == and !=
// with it (an ErrorCode compared with its code constant too), a case of a
// switch, a type assertion or type switch case of its type. Each quotes
// the handling block: the if or case it decides, or its statement.
func (ix *index) handledAt(e *extract.Error) []errkb.Check {
	var out []errkb.Check
	seen := map[string]bool{}
	for _, k := range targets(e, ix.o) {
		for _, r := range ix.refs[k] {
			if r.file.test {
				continue
			}
			check, block := ix.checkOf(r)
			if check == nil {
				continue
			}
			c, ok := ix.quote(r, check, block)
			k := fmt.Sprintf("%s:%d %s", c.FilePath, c.LineNumber, c.Check) // a link is "" without a ref
			if !ok || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// checkOf is the check a reference stands in (nil when it is no check),
// and the node that check decides.
func (ix *index) checkOf(r ref) (check, block ast.Node) {
	i := outer(r.path)
	if i <= 0 {
		return nil, nil
	}
	expr, parent := r.path[i], r.path[i-1]
	info := r.file.pkg.TypesInfo
	switch p := parent.(type) {
	case *ast.BinaryExpr:
		if p.Op == token.EQL || p.Op == token.NEQ {
			check = p
		}
	case *ast.CallExpr:
		if isArg(p, expr) && returnsBool(info, p) && hasErrorArg(info, p, expr) {
			check = p
		}
	case *ast.CaseClause:
		check = p
	case *ast.TypeAssertExpr:
		if p.Type == expr {
			check = p
		}
	}
	if check == nil {
		return nil, nil
	}
	return check, decided(r.path[:i], check)
}

// outer is the index in path of the expression a reference's name is:
// the qualified name pkg.X around the identifier, a pointer type *T.
func outer(path []ast.Node) int {
	i := len(path) - 1
	if i > 0 {
		if sel, ok := path[i-1].(*ast.SelectorExpr); ok && sel.Sel == path[i] {
			i--
		}
	}
	if i > 0 {
		if st, ok := path[i-1].(*ast.StarExpr); ok && st.X == path[i] {
			i--
		}
	}
	return i
}

// decided is what a check decides: the if whose condition holds it, the
// case clause it heads, else the statement it is in.
func decided(path []ast.Node, check ast.Node) ast.Node {
	if cc, ok := check.(*ast.CaseClause); ok {
		return cc
	}
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.IfStmt:
			if n.Cond.Pos() <= check.Pos() && check.End() <= n.Cond.End() {
				return n
			}
		case *ast.CaseClause:
			return n
		case *ast.FuncLit, *ast.FuncDecl:
			return check
		}
		if st, ok := path[i].(ast.Stmt); ok {
			if _, isBlock := st.(*ast.BlockStmt); !isBlock {
				return st
			}
		}
	}
	return check
}

func isArg(call *ast.CallExpr, e ast.Node) bool {
	for _, a := range call.Args {
		if a == e {
			return true
		}
	}
	return false
}

// returnsBool reports a call whose one result is a bool.
func returnsBool(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.Bool || ok && b.Kind() == types.UntypedBool
}

// hasErrorArg reports a call with an argument, other than skip, whose
// type is an error or that is a call of Error().
func hasErrorArg(info *types.Info, call *ast.CallExpr, skip ast.Node) bool {
	for _, a := range call.Args {
		if a == skip {
			continue
		}
		if isErrorValue(info, a) || isErrorField(info, a) {
			return true
		}
	}
	return false
}

var errorType = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// isErrorValue reports an expression of a type that implements error, or
// a call of an Error() method.
func isErrorValue(info *types.Info, e ast.Expr) bool {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) == 0 {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" {
			return true
		}
	}
	t := info.TypeOf(e)
	return t != nil && types.Implements(t, errorType)
}

// quote is the check with the handling block it decides, capped.
func (ix *index) quote(r ref, check, block ast.Node) (errkb.Check, bool) {
	at, ok := ix.where(check.Pos())
	if !ok {
		return errkb.Check{}, false
	}
	from, ok1 := ix.where(block.Pos())
	to, ok2 := ix.where(block.End())
	if !ok1 || !ok2 {
		return errkb.Check{}, false
	}
	code := ix.source(r.file, block.Pos(), block.End())
	lines := strings.Split(code, "\n")
	end := to.LineNumber
	if len(lines) > MaxCheckLines {
		lines = lines[:MaxCheckLines]
		end = from.LineNumber + MaxCheckLines - 1
	}
	checkText := ix.text(r.file, check)
	if cc, ok := check.(*ast.CaseClause); ok && len(cc.List) > 0 {
		checkText = "case " + ix.text(r.file, &listNode{cc.List})
	}
	_, decl := enclosingFunc(r.path)
	fn := funcName(decl)
	if inner, _ := enclosingFunc(r.path); inner != nil && inner != ast.Node(decl) {
		fn = "func literal in " + fn
	}
	return errkb.Check{Function: fn, Check: checkText, Code: indentFirst(lines, r.file, ix, block.Pos()), CodeStart: from.LineNumber, CodeEnd: end,
		FilePath: at.FilePath, LineNumber: at.LineNumber, GithubURL: at.GithubURL}, true
}

// listNode spans a list of expressions, for quoting them together.
type listNode struct{ list []ast.Expr }

func (l *listNode) Pos() token.Pos { return l.list[0].Pos() }
func (l *listNode) End() token.Pos { return l.list[len(l.list)-1].End() }

// indentFirst gives the quote's first line the indentation it has in the
// file, so the block reads as written.
func indentFirst(lines []string, fi *file, ix *index, pos token.Pos) string {
	tf := ix.prog.Fset.File(fi.ast.Pos())
	src := ix.content(fi)
	if tf != nil && len(lines) > 0 {
		start := tf.Offset(tf.LineStart(tf.Line(pos)))
		if off := tf.Offset(pos); start <= off && off <= len(src) {
			lines[0] = string(src[start:off]) + lines[0]
		}
	}
	return strings.Join(lines, "\n")
}

// isErrorField reports a field of an error value whose name says it is
// a code (apiErr.ErrCode, resp.Error.ErrorCode), through a conversion.
func isErrorField(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
			e = ast.Unparen(call.Args[0])
		}
	}
	sel, ok := e.(*ast.SelectorExpr)
	return ok && strings.Contains(sel.Sel.Name, "Code") && isErrorValue(info, sel.X)
}
