package knowledge

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/errkb/errkb/extract"
)

// place is one place an error is made, found again in the loaded syntax:
// the node that makes it and the nodes around it, innermost last.
type place struct {
	site extract.Site
	file *file
	node ast.Node
	path []ast.Node // from the file down to node
}

// places finds each of e's sites in the loaded syntax. A site whose line
// holds nothing that makes e (a file the load did not read) is left out.
func (ix *index) places(e *extract.Error) []place {
	var out []place
	for _, s := range e.Sites {
		fi := ix.files[s.File]
		if fi == nil || fi.test {
			continue
		}
		n := ix.maker(fi, s.Line, e)
		if n == nil {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(fi.ast, n.Pos(), n.End())
		rev := make([]ast.Node, len(path))
		for i, p := range path {
			rev[len(path)-1-i] = p
		}
		out = append(out, place{site: s, file: fi, node: n, path: rev})
	}
	return out
}

// maker is the first node on line that makes e: the errors.New or
// fmt.Errorf call with its message, the sentinel's name, a literal or
// conversion of the error type, a call of a name that stands for it.
func (ix *index) maker(fi *file, line int, e *extract.Error) ast.Node {
	tf := ix.prog.Fset.File(fi.ast.Pos())
	if tf == nil || line < 1 || line > tf.LineCount() {
		return nil
	}
	info := fi.pkg.TypesInfo
	names := map[string]bool{}
	for _, k := range targets(e, ix.o) {
		names[k] = true
	}
	var found ast.Node
	ast.Inspect(fi.ast, func(n ast.Node) bool {
		if found != nil || n == nil {
			return false
		}
		start, end := tf.Line(n.Pos()), tf.Line(n.End())
		if end < line || start > line {
			return false
		}
		if start != line {
			return true
		}
		if makes(info, n, e, names) {
			found = n
			return false
		}
		return true
	})
	return found
}

// makes reports whether n makes e.
func makes(info *types.Info, n ast.Node, e *extract.Error, names map[string]bool) bool {
	switch n := n.(type) {
	case *ast.CallExpr:
		if fn := typeutil.StaticCallee(info, n); fn != nil && fn.Pkg() != nil && names[fn.Pkg().Path()+"."+fn.Name()] {
			return true
		}
		if e.Kind == extract.Call && len(n.Args) > 0 {
			if lit, ok := ast.Unparen(n.Args[0]).(*ast.BasicLit); ok {
				s, err := strconv.Unquote(lit.Value)
				return err == nil && s == e.Message
			}
		}
		if e.Kind == extract.Log || e.Kind == extract.Protocol {
			// The logger call, or the call that formats the -ERR line,
			// whose constant message or format is the record's.
			for _, a := range n.Args {
				if tv, ok := info.Types[a]; ok && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == e.Message {
					return true
				}
			}
		}
		if e.Kind == extract.Type && len(n.Args) == 1 {
			return isType(info, n.Fun, e)
		}
	case *ast.CompositeLit:
		return e.Kind == extract.Type && n.Type != nil && isType(info, n.Type, e)
	case *ast.Ident:
		obj := info.Uses[n]
		// A sentinel, or a named protocol error (nats-server's close
		// reasons: the ClosedState constant a connection is closed with).
		named := e.Kind == extract.Sentinel || e.Kind == extract.Protocol && e.Name != ""
		return named && obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == e.Package && obj.Name() == e.Name &&
			obj.Parent() == obj.Pkg().Scope()
	}
	return false
}

// isType reports whether expr denotes e's error type.
func isType(info *types.Info, expr ast.Expr, e *extract.Error) bool {
	tv, ok := info.Types[expr]
	if !ok || !tv.IsType() {
		return false
	}
	t := types.Unalias(tv.Type)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	nt, ok := t.(*types.Named)
	return ok && nt.Obj().Pkg() != nil && nt.Obj().Pkg().Path() == e.Package && nt.Obj().Name() == e.Name
}
