package knowledge

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// feasible is the first of places whose guards a call does not make
// false, or nil. A guard made only of the function's bool parameters
// (if pullSubInternal && !waitIfNoMsg) is false for a call that passes
// constants falsifying it (nextMsgWithContext(ctx, false, true)): the
// error is not made for that caller, and is not followed through it.
func feasible(places []place, call *ssa.Call) *place {
	for i := range places {
		if !falsified(places[i], call) {
			return &places[i]
		}
	}
	return nil
}

// falsified reports a place with a guard the call's constant bool
// arguments make false.
func falsified(p place, call *ssa.Call) bool {
	_, decl := enclosingFunc(p.path)
	inner, _ := enclosingFunc(p.path)
	if decl == nil || inner != ast.Node(decl) {
		return false // in a function literal: its parameters are not the call's
	}
	info := p.file.pkg.TypesInfo
	args := map[types.Object]bool{}
	offset := 0
	if decl.Recv != nil && len(call.Call.Args) > 0 && call.Call.Method == nil {
		offset = 1 // a static call of a method passes the receiver first
	}
	k := offset
	for _, field := range decl.Type.Params.List {
		for _, name := range field.Names {
			if k < len(call.Call.Args) {
				if c, ok := call.Call.Args[k].(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Bool {
					args[info.Defs[name]] = constant.BoolVal(c.Value)
				}
			}
			k++
		}
		if len(field.Names) == 0 {
			k++
		}
	}
	if len(args) == 0 {
		return false
	}
	for i := len(p.path) - 1; i > 0; i-- {
		ifs, ok := p.path[i-1].(*ast.IfStmt)
		if !ok || ifs.Init != nil {
			continue
		}
		want := true
		switch p.path[i] {
		case ifs.Body:
		case ifs.Else:
			want = false
		default:
			continue
		}
		if v, known := eval(info, ifs.Cond, args); known && v != want {
			return true
		}
	}
	return false
}

// eval is the value of a condition made of bound bool parameters, !, &&
// and ||; known is false when it depends on anything else.
func eval(info *types.Info, e ast.Expr, args map[types.Object]bool) (v, known bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, known = args[info.Uses[e]]
		return v, known
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			v, known = eval(info, e.X, args)
			return !v, known
		}
	case *ast.BinaryExpr:
		x, kx := eval(info, e.X, args)
		y, ky := eval(info, e.Y, args)
		switch e.Op {
		case token.LAND:
			if kx && !x || ky && !y {
				return false, true
			}
			return true, kx && ky
		case token.LOR:
			if kx && x || ky && y {
				return true, true
			}
			return false, kx && ky
		}
	}
	return false, false
}
