package knowledge

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// need is what a guard asks of one parameter: a bool's value, or a
// string empty or not.
type need int

const (
	needTrue need = iota
	needFalse
	needEmpty
	needNonEmpty
	// needFromCaller: the value comes from the module's caller, through
	// parameters all the way up (an option called where the graph sees no
	// callee); a value the module builds itself fails it.
	needFromCaller
)

// requires are the needs of a function's parameters, by their index in
// the SSA function's Params, under which the error is made in it (the
// guards of its one place), or passed on by it (its callee's needs, met
// by its own parameters).
type requires map[int]need

// placeNeeds are the needs the guards of p put on its function's
// parameters: each term of an if's condition (joined by &&) that tests
// a parameter alone: p, !p, s == "", s != "", len(s) == 0, len(s) > 0.
func placeNeeds(p place, fn *ssa.Function) requires {
	inner, decl := enclosingFunc(p.path)
	if decl == nil || inner != ast.Node(decl) {
		return nil
	}
	info := p.file.pkg.TypesInfo
	index := map[types.Object]int{}
	for i, prm := range fn.Params {
		if prm.Object() != nil {
			index[prm.Object()] = i
		}
	}
	out := requires{}
	for i := len(p.path) - 1; i > 0; i-- {
		ifs, ok := p.path[i-1].(*ast.IfStmt)
		if !ok || ifs.Init != nil {
			continue
		}
		switch p.path[i] {
		case ifs.Body:
			for _, t := range terms(ifs.Cond) {
				if obj, n, ok := paramNeed(info, t); ok {
					if k, ok := index[obj]; ok {
						out[k] = n
					}
				}
			}
		case ifs.Else:
			if obj, n, ok := paramNeed(info, ifs.Cond); ok {
				if k, ok := index[obj]; ok {
					out[k] = opposite(n)
				}
			}
		}
	}
	return out
}

// terms splits a condition at its top-level &&.
func terms(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(terms(b.X), terms(b.Y)...)
	}
	return []ast.Expr{e}
}

func opposite(n need) need {
	return map[need]need{needTrue: needFalse, needFalse: needTrue, needEmpty: needNonEmpty, needNonEmpty: needEmpty, needFromCaller: needFromCaller}[n]
}

// paramNeed reads one term that tests a parameter alone.
func paramNeed(info *types.Info, e ast.Expr) (types.Object, need, bool) {
	param := func(e ast.Expr) types.Object {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() {
				return v
			}
		}
		return nil
	}
	isEmptyString := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
	}
	isZero := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
	}
	lenOf := func(e ast.Expr) types.Object {
		if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 1 {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "len" {
				if o := param(c.Args[0]); o != nil && isString(o.Type()) {
					return o
				}
			}
		}
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if o := param(e); o != nil && isBool(o.Type()) {
			return o, needTrue, true
		}
	case *ast.UnaryExpr:
		if o := param(e.X); e.Op == token.NOT && o != nil && isBool(o.Type()) {
			return o, needFalse, true
		}
	case *ast.BinaryExpr:
		if e.Op != token.EQL && e.Op != token.NEQ && e.Op != token.GTR {
			return nil, 0, false
		}
		var o types.Object
		switch {
		case param(e.X) != nil && isString(param(e.X).Type()) && isEmptyString(e.Y) && e.Op != token.GTR:
			o = param(e.X)
		case lenOf(e.X) != nil && isZero(e.Y):
			o = lenOf(e.X)
		default:
			return nil, 0, false
		}
		if e.Op == token.EQL {
			return o, needEmpty, true
		}
		return o, needNonEmpty, true
	}
	return nil, 0, false
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// through carries the callee's needs over a call: a constant argument
// that fails one makes the call unable to pass the error on (ok false);
// an argument that is the caller's own parameter hands the need to the
// caller; any other argument meets it or not, unknown.
func through(req requires, call *ssa.Call, callee *ssa.Function) (requires, bool) {
	out := requires{}
	shift := 0
	if call.Call.IsInvoke() {
		shift = 1 // the receiver is not among an invoke's Args
	}
	for k, n := range req {
		j := k - shift
		if j >= len(call.Call.Args) || k >= len(callee.Params) {
			continue
		}
		arg := call.Call.Value // an invoke's receiver
		if j >= 0 {
			arg = call.Call.Args[j]
		}
		param, fails := carrier(arg, n, call.Parent(), 0)
		if fails {
			return nil, false
		}
		if param >= 0 {
			out[param] = n
		}
	}
	return out, true
}

func indexOf(ps []*ssa.Parameter, p *ssa.Parameter) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return -1
}

// meets reports whether the value v meets n, when that is known: a
// constant, or a string that cannot be empty (fmt.Sprintf of a format
// with text of its own, a concatenation with a non-empty constant).
func meets(v ssa.Value, n need) (ok, known bool) {
	if c, isConst := v.(*ssa.Const); isConst && c.Value != nil {
		switch {
		case c.Value.Kind() == constant.Bool && (n == needTrue || n == needFalse):
			return constant.BoolVal(c.Value) == (n == needTrue), true
		case c.Value.Kind() == constant.String && (n == needEmpty || n == needNonEmpty):
			return (constant.StringVal(c.Value) == "") == (n == needEmpty), true
		}
		return false, false
	}
	if n != needEmpty && n != needNonEmpty || !nonEmpty(v) {
		return false, false
	}
	return n == needNonEmpty, true
}

// nonEmpty reports a string value that cannot be empty.
func nonEmpty(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Call:
		fn := x.Call.StaticCallee()
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "fmt" || fn.Name() != "Sprintf" || len(x.Call.Args) == 0 {
			return false
		}
		c, ok := x.Call.Args[0].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.String {
			return false
		}
		return len(chunks(constant.StringVal(c.Value))) > 0
	case *ssa.BinOp:
		if x.Op != token.ADD {
			return false
		}
		for _, s := range []ssa.Value{x.X, x.Y} {
			if c, ok := s.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.String && constant.StringVal(c.Value) != "" {
				return true
			}
		}
		return nonEmpty(x.X) || nonEmpty(x.Y)
	}
	return false
}

// callNeeds are the needs the guards around a call put on its
// function's parameters (if secure { mb.eraseMsg(...) }).
func (ix *index) callNeeds(call *ssa.Call) requires {
	at, ok := ix.prog.Where(call.Pos())
	if !ok {
		return nil
	}
	fi := ix.files[at.File]
	if fi == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(fi.ast, call.Pos(), call.Pos())
	if len(path) == 0 {
		return nil
	}
	rev := make([]ast.Node, len(path))
	for i, n := range path {
		rev[len(path)-1-i] = n
	}
	return placeNeeds(place{file: fi, node: path[0], path: rev}, call.Parent())
}

// carrier says how an argument can meet n: fails when it never can (a
// constant, or a phi of values none of which can); param is the index of
// the caller's one parameter it can meet n only through (a phi of the
// parameter and constants that fail, secure = false on some path), else
// -1, unknown.
func carrier(v ssa.Value, n need, fn *ssa.Function, depth int) (param int, fails bool) {
	if n == needFromCaller { // an element of the caller's options is the caller's too
		if p := fromParam(v); p != nil && p.Parent() == fn {
			return indexOf(fn.Params, p), false
		}
		return -1, true
	}
	switch a := v.(type) {
	case *ssa.Parameter:
		return indexOf(fn.Params, a), false
	case *ssa.Phi:
		if depth > 4 {
			return -1, false
		}
		param, seen := -1, false
		for _, e := range a.Edges {
			p, f := carrier(e, n, fn, depth+1)
			switch {
			case f:
				continue
			case p < 0 || seen && p != param:
				return -1, false // an edge that may meet n some other way
			}
			param, seen = p, true
		}
		if !seen {
			return -1, true
		}
		return param, false
	}
	if n == needFromCaller {
		return -1, true
	}
	if ok, known := meets(v, n); known && !ok {
		return -1, true
	}
	return -1, false
}
