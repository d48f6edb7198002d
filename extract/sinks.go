package extract

import (
	"cmp"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/errkb/errkb/extract/program"
)

// flowIndex is what the surface pass reads of the module's SSA form, in
// one pass over its instructions: where sentinels are loaded, where
// values of error types become errors, which calls make errors, who
// calls each function, and the functions that log, send a protocol error
// or end the process with what they are given.
type flowIndex struct {
	own     map[*ssa.Function]bool // the module's functions with bodies
	order   []*ssa.Function        // the same, in a fixed order, so that every list the index keeps is in it
	loads   map[*ssa.Global][]*ssa.UnOp
	boxes   map[string][]*ssa.MakeInterface // by the key of the named type boxed
	calls   map[token.Pos][]*ssa.Call       // by the call's Lparen
	callers map[*ssa.Function][]ssa.CallInstruction
	escapes map[*ssa.Function]bool // used as a value, so called from places the index does not see
	logs    map[*ssa.Function]bool // passes what it is given to a logger
	sends   map[*ssa.Function]bool // writes what it is given into a "-ERR" protocol line
	exits   map[*ssa.Function]bool // ends the process: calls os.Exit or log.Fatal
	// dynamic names the methods of the interfaces the module and its
	// imports declare: a method of that name may be called through one.
	dynamic map[string]bool
}

func newFlowIndex(prog *program.Program) *flowIndex {
	x := &flowIndex{own: map[*ssa.Function]bool{}, loads: map[*ssa.Global][]*ssa.UnOp{}, boxes: map[string][]*ssa.MakeInterface{},
		calls: map[token.Pos][]*ssa.Call{}, callers: map[*ssa.Function][]ssa.CallInstruction{}, escapes: map[*ssa.Function]bool{},
		logs: map[*ssa.Function]bool{}, sends: map[*ssa.Function]bool{}, exits: map[*ssa.Function]bool{}, dynamic: map[string]bool{}}
	mine := map[*types.Package]bool{}
	for _, p := range prog.Packages {
		mine[p.Types] = true
		x.interfaces(p.Types, map[*types.Package]bool{})
		for _, tv := range p.TypesInfo.Types {
			x.methodsOf(tv.Type)
		}
	}
	for fn := range ssautil.AllFunctions(prog.SSA()) {
		if fn.Blocks != nil && fn.Pkg != nil && mine[fn.Pkg.Pkg] {
			x.own[fn] = true
			x.order = append(x.order, fn)
		}
	}
	slices.SortFunc(x.order, func(a, b *ssa.Function) int {
		return cmp.Or(cmp.Compare(a.Pos(), b.Pos()), cmp.Compare(a.String(), b.String()))
	})
	for _, fn := range x.order {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				x.add(ins)
			}
		}
	}
	x.findSinks()
	return x
}

// interfaces adds the method names of the interfaces pkg and its imports
// declare.
func (x *flowIndex) interfaces(pkg *types.Package, seen map[*types.Package]bool) {
	if seen[pkg] {
		return
	}
	seen[pkg] = true
	for _, name := range pkg.Scope().Names() {
		if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			x.methodsOf(tn.Type())
		}
	}
	for _, imp := range pkg.Imports() {
		x.interfaces(imp, seen)
	}
}

func (x *flowIndex) methodsOf(t types.Type) {
	if t == nil {
		return
	}
	if it, ok := t.Underlying().(*types.Interface); ok {
		for i := range it.NumMethods() {
			x.dynamic[it.Method(i).Name()] = true
		}
	}
}

// add indexes one instruction.
func (x *flowIndex) add(ins ssa.Instruction) {
	switch ins := ins.(type) {
	case *ssa.UnOp:
		if g, ok := ins.X.(*ssa.Global); ok && ins.Op == token.MUL {
			x.loads[g] = append(x.loads[g], ins)
		}
	case *ssa.MakeInterface:
		if k := namedKey(ins.X.Type()); k != "" {
			x.boxes[k] = append(x.boxes[k], ins)
		}
	}
	var ops []*ssa.Value
	if c, ok := ins.(ssa.CallInstruction); ok {
		cc := c.Common()
		if callee := cc.StaticCallee(); callee != nil {
			x.callers[callee] = append(x.callers[callee], c)
		}
		if call, ok := c.(*ssa.Call); ok {
			x.calls[cc.Pos()] = append(x.calls[cc.Pos()], call)
		}
		callee := cc.StaticCallee()
		for i, a := range cc.Args {
			if f := funcOf(a); f != nil && !x.passed(f, callee, i) {
				x.escapes[f] = true
			}
		}
		return
	}
	if _, ok := ins.(*ssa.MakeClosure); ok {
		return // making a closure is not using it: its uses are indexed where they are
	}
	for _, op := range ins.Operands(ops) {
		if f, ok := (*op).(*ssa.Function); ok {
			x.escapes[f] = true
		}
		if mc, ok := (*op).(*ssa.MakeClosure); ok {
			if f, ok := mc.Fn.(*ssa.Function); ok {
				x.escapes[f] = true
			}
		}
	}
}

// passed indexes a function f passed as argument i to callee, when
// callee only calls it (wsReadLoop(..., handle func(...) error) calling
// handle(b)): those calls are f's callers. It reports false when callee
// does anything else with it.
func (x *flowIndex) passed(f, callee *ssa.Function, i int) bool {
	if callee == nil || callee.Blocks == nil || i >= len(callee.Params) {
		return false
	}
	p := callee.Params[i]
	var calls []ssa.CallInstruction
	for _, r := range *p.Referrers() {
		c, ok := r.(ssa.CallInstruction)
		if !ok || c.Common().Value != p || slices.Contains(c.Common().Args, ssa.Value(p)) {
			if _, debug := r.(*ssa.DebugRef); !debug {
				return false
			}
			continue
		}
		calls = append(calls, c)
	}
	x.callers[f] = append(x.callers[f], calls...)
	return true
}

// findSinks finds, to a fixed point, the functions that pass a value
// derived from their parameters to a logger (a method of an interface
// named Logger, the log or log/slog packages, or a function already
// found), that format one into a "-ERR" protocol line, and those that
// call os.Exit or log.Fatal.
func (x *flowIndex) findSinks() {
	for _, fn := range x.order {
		for _, b := range fn.Blocks {
			for _, ins := range b.Instrs {
				if c, ok := ins.(ssa.CallInstruction); ok && isExit(c.Common()) && len(fn.Params) > 0 {
					x.exits[fn] = true
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range x.order {
			if x.logs[fn] && x.sends[fn] {
				continue
			}
			for _, b := range fn.Blocks {
				for _, ins := range b.Instrs {
					c, ok := ins.(ssa.CallInstruction)
					if !ok || !passesParam(c.Common(), fn) {
						continue
					}
					if !x.logs[fn] && x.logsWith(c.Common()) {
						x.logs[fn], changed = true, true
					}
					if !x.sends[fn] && x.sendsWith(c.Common()) {
						x.sends[fn], changed = true, true
					}
				}
			}
		}
	}
}

// logsWith reports a call to a logger, or one that hands a logging
// function to its callee (s.executeLogCall(func(l Logger, ...) {...}, format)).
func (x *flowIndex) logsWith(cc *ssa.CallCommon) bool {
	if isLogger(cc) {
		return true
	}
	if f := cc.StaticCallee(); f != nil && x.logs[f] {
		return true
	}
	for _, a := range cc.Args {
		if f := funcOf(a); f != nil && x.logs[f] {
			return true
		}
	}
	return false
}

// sendsWith reports a call that formats a "-ERR" protocol line, or one to
// a function already found to.
func (x *flowIndex) sendsWith(cc *ssa.CallCommon) bool {
	if f := cc.StaticCallee(); f != nil && x.sends[f] {
		return true
	}
	if isFunc(cc, "fmt", "Sprintf", "Fprintf", "Appendf") && len(cc.Args) > 0 {
		for _, a := range cc.Args[:min(2, len(cc.Args))] {
			if k, ok := a.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String &&
				strings.HasPrefix(constant.StringVal(k.Value), "-ERR") {
				return true
			}
		}
	}
	return false
}

// isLogger reports a call of a method of an interface named *Logger, or
// of a function or method of the log or log/slog packages.
func isLogger(cc *ssa.CallCommon) bool {
	if cc.IsInvoke() {
		n, ok := types.Unalias(cc.Value.Type()).(*types.Named)
		return ok && strings.HasSuffix(n.Obj().Name(), "Logger")
	}
	f := cc.StaticCallee()
	if f == nil || f.Object() == nil || f.Object().Pkg() == nil {
		return false
	}
	path := f.Object().Pkg().Path()
	return path == "log" || path == "log/slog"
}

// isExit reports os.Exit and log.Fatal, Fatalf, Fatalln.
func isExit(cc *ssa.CallCommon) bool {
	return isFunc(cc, "os", "Exit") || isFunc(cc, "log", "Fatal", "Fatalf", "Fatalln")
}

// isFunc reports a static call of one of the package-level functions
// names of the package path.
func isFunc(cc *ssa.CallCommon, path string, names ...string) bool {
	f := cc.StaticCallee()
	if f == nil || f.Signature.Recv() != nil || f.Object() == nil || f.Object().Pkg() == nil {
		return false
	}
	if f.Object().Pkg().Path() != path {
		return false
	}
	for _, n := range names {
		if f.Name() == n {
			return true
		}
	}
	return false
}

// funcOf is the function a value is: a function or a closure of one.
func funcOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		f, _ := v.Fn.(*ssa.Function)
		return f
	}
	return nil
}

// passesParam reports a call with an argument derived from fn's
// parameters or free variables (a closure's captured ones).
func passesParam(cc *ssa.CallCommon, fn *ssa.Function) bool {
	for _, a := range cc.Args {
		if funcOf(a) == nil && derived(a, map[ssa.Value]bool{}, 0) {
			return true
		}
	}
	return false
}

// derived reports a value computed from a parameter or free variable of
// its function, following operands a few steps back: err.Error(),
// c.format(msg), a variadic argument's array.
func derived(v ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if seen[v] || depth > 6 {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case *ssa.Alloc: // a variadic call's array: what is stored in it
		for _, r := range *v.Referrers() {
			if ia, ok := r.(*ssa.IndexAddr); ok {
				for _, rr := range *ia.Referrers() {
					if st, ok := rr.(*ssa.Store); ok && derived(st.Val, seen, depth+1) {
						return true
					}
				}
			}
		}
		return false
	case *ssa.Function, *ssa.Const, *ssa.Global:
		return false
	}
	ins, ok := v.(ssa.Instruction)
	if !ok {
		return false
	}
	for _, op := range ins.Operands(nil) {
		if *op != nil && derived(*op, seen, depth+1) {
			return true
		}
	}
	return false
}
