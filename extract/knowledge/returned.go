package knowledge

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/program"
)

// flow is the SSA side of the module: its call graph, its functions by
// file, and what each call passes back to its caller.
type flow struct {
	graph  *callgraph.Graph
	byFile map[string][]*ssa.Function // functions with syntax, by file
	memo   map[memoKey]resultSet
	// entries are the exported interface methods of the module's
	// importable packages, by method name: a method of an unexported type
	// reaches callers through them.
	ifaces map[string][]*types.Func
	prog   *ssa.Program
	// unseen are the calls the graph cannot see, by the function they
	// may call (unseen.go).
	unseen map[*ssa.Function][]unseenCall
}

// resultSet is a set of result indices, as bits.
type resultSet uint64

type memoKey struct {
	call   *ssa.Call
	want   resultSet
	target string
}

func (ix *index) flowOf() *flow {
	if ix.flow != nil {
		return ix.flow
	}
	f := &flow{graph: ix.prog.CallGraph(), byFile: map[string][]*ssa.Function{}, memo: map[memoKey]resultSet{}, ifaces: map[string][]*types.Func{},
		prog: ix.prog.SSA()}
	var own []*ssa.Function
	for fn := range ssautil.AllFunctions(ix.prog.SSA()) {
		if fn.Syntax() == nil || len(fn.Blocks) == 0 {
			continue
		}
		if at, ok := ix.prog.Where(fn.Pos()); ok {
			f.byFile[at.File] = append(f.byFile[at.File], fn)
			own = append(own, fn)
		}
	}
	slices.SortFunc(own, func(a, b *ssa.Function) int { return cmp.Compare(a.Pos(), b.Pos()) })
	f.unseen = f.unseenCalls(own)
	for _, p := range ix.prog.Packages {
		if p.Internal || p.Name == "main" || program.Scaffolding(p.Rel) != "" || p.Types == nil {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			it, ok := tn.Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			for m := range it.Methods() {
				if m.Exported() {
					f.ifaces[m.Name()] = append(f.ifaces[m.Name()], m)
				}
			}
		}
	}
	ix.flow = f
	return f
}

// funcsAt are the innermost functions whose syntax holds pos (one per
// instance of a generic function).
func (f *flow) funcsAt(rel string, pos token.Pos) []*ssa.Function {
	var best []*ssa.Function
	size := token.Pos(-1)
	for _, fn := range f.byFile[rel] {
		s := fn.Syntax()
		if pos < s.Pos() || pos >= s.End() {
			continue
		}
		switch n := s.End() - s.Pos(); {
		case size < 0 || n < size:
			best, size = []*ssa.Function{fn}, n
		case n == size:
			best = append(best, fn)
		}
	}
	slices.SortFunc(best, func(a, b *ssa.Function) int { return strings.Compare(a.String(), b.String()) })
	return best
}

// seeds are the values of fn made by the node at [from, to): calls for an
// error made by a call, loads of the sentinel, the type's values.
func seeds(fn *ssa.Function, from, to token.Pos, kind extract.Kind) []ssa.Value {
	var out []ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			v, ok := instr.(ssa.Value)
			if !ok || instr.Pos() < from || instr.Pos() >= to {
				continue
			}
			switch instr.(type) {
			case *ssa.Call:
				if kind == extract.Call || kind == extract.API || kind == extract.Type {
					out = append(out, v)
				}
			case *ssa.UnOp:
				if kind == extract.Sentinel || kind == extract.Type {
					out = append(out, v)
				}
			case *ssa.Alloc, *ssa.MakeInterface, *ssa.ChangeType, *ssa.Convert:
				if kind == extract.Type {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// returns is the set of fn's results that values from seeds flow to:
// through conversions to an interface, phis, local variables (a named
// result too), %w of fmt.Errorf and errors.Join. A value stored in a
// struct, sent, or passed to any other call is not followed: the flow
// misses it rather than guessing. A value the function tests against the
// sentinel target (errors.Is(err, ErrX), err == ErrX) is taken as
// handled there, and the function as not returning it: what it does on
// the error is handledAt's to show.
func returns(seeds []ssa.Value, want resultSet, target string) resultSet {
	var out resultSet
	seen := map[ssa.Value]bool{}
	work := slices.Clone(seeds)
	push := func(v ssa.Value) {
		if v != nil && !seen[v] {
			seen[v] = true
			work = append(work, v)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, instr := range *refs {
			if target != "" && tests(instr, v, target) {
				return 0
			}
			switch i := instr.(type) {
			case *ssa.Return:
				for k, r := range i.Results {
					if r == v && k < 64 {
						out |= 1 << k
					}
				}
			case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType, *ssa.Convert, *ssa.Phi:
				push(i.(ssa.Value))
			case *ssa.TypeAssert:
				if !i.CommaOk {
					push(i)
				}
			case *ssa.Extract:
				if _, isTuple := v.Type().(*types.Tuple); isTuple && i.Index < 64 && want&(1<<i.Index) != 0 {
					push(i)
				}
			case *ssa.Store:
				if i.Val == v {
					for _, w := range stored(i.Addr) {
						push(w)
					}
				}
			case *ssa.Call:
				if i.Call.Value != v && wraps(i, -1) {
					push(i) // errors.Join(a, b), fmt.Errorf("%w", err) given directly
				}
			}
		}
	}
	return out
}

// stored is where a value stored at addr is read again: the loads of a
// local variable, or the call whose variadic arguments addr is one of,
// when that call wraps the argument.
func stored(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	switch a := addr.(type) {
	case *ssa.Alloc:
		for _, r := range *a.Referrers() {
			if u, ok := r.(*ssa.UnOp); ok && u.Op == token.MUL && u.X == a {
				out = append(out, u)
			}
		}
	case *ssa.IndexAddr:
		arr, ok := a.X.(*ssa.Alloc)
		idx, isConst := a.Index.(*ssa.Const)
		if !ok || !isConst || idx.Value == nil || idx.Value.Kind() != constant.Int {
			return nil
		}
		k, _ := constant.Int64Val(idx.Value)
		for _, r := range *arr.Referrers() {
			sl, ok := r.(*ssa.Slice)
			if !ok {
				continue
			}
			for _, rr := range *sl.Referrers() {
				if call, ok := rr.(*ssa.Call); ok && wraps(call, int(k)) {
					out = append(out, call)
				}
			}
		}
	}
	return out
}

// wraps reports whether call wraps its k-th variadic argument (k < 0:
// any): errors.Join, or fmt.Errorf with %w in that place of a constant
// format.
func wraps(call *ssa.Call, k int) bool {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return false
	}
	switch path := fn.Pkg.Pkg.Path(); {
	case path == "errors" && fn.Name() == "Join":
		return true
	case path == "fmt" && fn.Name() == "Errorf":
		if len(call.Call.Args) == 0 {
			return false
		}
		c, ok := call.Call.Args[0].(*ssa.Const)
		if !ok || c.Value == nil || c.Value.Kind() != constant.String {
			return false
		}
		verbs := extract.Verbs(constant.StringVal(c.Value))
		if k < 0 || k >= len(verbs) {
			return false
		}
		return verbs[k].Verb == 'w'
	}
	return false
}

// step is how a function was reached: the call in it that passes the
// error on, and the function called there.
type step struct {
	site   ssa.CallInstruction
	callee *ssa.Function
	place  *place // where callee makes the error, when it does, for this call
}

// returnedBy follows each place's error out of the functions that return
// it, caller by caller through the call graph, and lists the exported
// functions it reaches with the shortest chain to each. returned reports
// whether any place's function returns the error at all.
func (ix *index) returnedBy(places []place, e *extract.Error) (entries []errkb.Entry, returned bool) {
	f := ix.flowOf()
	kind, target := e.Kind, ""
	if kind == extract.Sentinel {
		target = e.Package + "." + e.Name
	}
	results := map[*ssa.Function]resultSet{}
	from := map[*ssa.Function]step{}
	made := map[*ssa.Function]place{}
	madeAll := map[*ssa.Function][]place{}
	var queue []*ssa.Function
	for _, p := range places {
		for _, fn := range f.funcsAt(p.file.rel, p.node.Pos()) {
			rs := returns(seeds(fn, p.node.Pos(), p.node.End(), kind), 0, target)
			if rs == 0 {
				continue
			}
			madeAll[fn] = append(madeAll[fn], p)
			if _, seen := results[fn]; !seen {
				results[fn], made[fn] = rs, p
				queue = append(queue, fn)
			}
		}
	}
	reqs := map[*ssa.Function]requires{}
	for fn, ps := range madeAll {
		if len(ps) == 1 {
			reqs[fn] = placeNeeds(ps[0], fn)
		}
	}
	returned = len(queue) > 0
	for len(queue) > 0 {
		g := queue[0]
		queue = queue[1:]
		for _, c := range f.callers(g) {
			call := c.call
			caller := call.Parent()
			if _, seen := results[caller]; seen {
				continue
			}
			var at *place
			if ps := madeAll[g]; len(ps) > 0 {
				if at = feasible(ps, call); at == nil {
					continue // every place's guards are false for this call's constant arguments
				}
			}
			req, ok := through(reqs[g], call, g)
			if !ok {
				continue // a constant argument fails a guard on the way
			}
			for k, n := range ix.callNeeds(call) {
				req[k] = n // the guards around the call itself
			}
			if c.param >= 0 {
				req[c.param] = needFromCaller // an option the module's caller passes
			}
			if rs := f.passes(call, results[g], target); rs != 0 {
				results[caller], from[caller] = rs, step{site: call, callee: g, place: at}
				reqs[caller] = req
				queue = append(queue, caller)
			}
		}
	}
	for fn := range results {
		if en, ok := ix.entry(f, fn, from, made); ok {
			entries = append(entries, en)
		}
	}
	slices.SortFunc(entries, func(a, b errkb.Entry) int {
		return cmp.Or(cmp.Compare(len(a.Chain), len(b.Chain)), strings.Compare(a.Package, b.Package), strings.Compare(a.Function, b.Function),
			compareChains(a.Chain, b.Chain))
	})
	entries = slices.CompactFunc(entries, func(a, b errkb.Entry) bool { return a.Package == b.Package && a.Function == b.Function })
	return entries, returned
}

// compareChains orders two chains of one length by their places, so that
// of two chains from one entry (an interface method two types implement)
// the same one is kept on every run.
func compareChains(a, b []errkb.CallSite) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Or(strings.Compare(a[i].FilePath, b[i].FilePath), cmp.Compare(a[i].LineNumber, b[i].LineNumber),
			strings.Compare(a[i].Function, b[i].Function)); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// callers are the calls of g: the graph's (param -1), then the unseen
// ones, with the parameter their value comes from.
func (f *flow) callers(g *ssa.Function) []unseenCall {
	var out []unseenCall
	if node := f.graph.Nodes[g]; node != nil {
		for _, e := range node.In {
			if call, ok := e.Site.(*ssa.Call); ok {
				out = append(out, unseenCall{call, -1})
			}
		}
	}
	out = append(out, f.unseen[g]...)
	// The graph's edges come in no fixed order; the first caller found is
	// the chain written, so they are taken in source order.
	slices.SortStableFunc(out, func(a, b unseenCall) int {
		return cmp.Or(strings.Compare(callKey(a.call), callKey(b.call)), cmp.Compare(a.param, b.param))
	})
	return out
}

// callKey orders calls by where they are written: file, line, column and
// the function holding them.
func callKey(c *ssa.Call) string {
	p := c.Parent().Prog.Fset.Position(c.Pos())
	return fmt.Sprintf("%s:%09d:%06d:%s", p.Filename, p.Line, p.Column, c.Parent().String())
}

// passes is the set of the caller's results that call's results in want
// flow to.
func (f *flow) passes(call *ssa.Call, want resultSet, target string) resultSet {
	k := memoKey{call, want, target}
	if rs, ok := f.memo[k]; ok {
		return rs
	}
	rs := returns([]ssa.Value{call}, want, target)
	if _, isTuple := call.Type().(*types.Tuple); !isTuple && want&1 == 0 {
		rs = 0
	}
	f.memo[k] = rs
	return rs
}

// entry is fn as a caller of the module meets it, with its chain, when
// it is exported: an exported function or method of an exported type of
// a package others can import, or a method that implements an exported
// interface's method of the module.
func (ix *index) entry(f *flow, fn *ssa.Function, from map[*ssa.Function]step, made map[*ssa.Function]place) (errkb.Entry, bool) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Synthetic != "" || !obj.Exported() || obj.Pkg() == nil {
		return errkb.Entry{}, false
	}
	at, ok := ix.prog.Where(obj.Pos())
	fi := ix.files[at.File]
	if !ok || fi == nil || fi.test || fi.pkg.Internal || fi.pkg.Name == "main" {
		return errkb.Entry{}, false
	}
	name, declPos := program.FuncName(fn), obj.Pos()
	if recv := obj.Signature().Recv(); recv != nil && !exportedType(recv.Type()) {
		m := f.implemented(obj, recv.Type())
		if m == nil {
			return errkb.Entry{}, false
		}
		name, declPos = ifaceName(m), m.Pos()
	}
	decl, ok := ix.where(declPos)
	if !ok {
		return errkb.Entry{}, false
	}
	en := errkb.Entry{Function: name, Package: obj.Pkg().Path(), FilePath: decl.FilePath, LineNumber: decl.LineNumber, GithubURL: decl.GithubURL,
		Chain: ix.chain(fn, from, made)}
	return en, len(en.Chain) > 0
}

// chain is the calls from fn down to the place the error is made.
func (ix *index) chain(fn *ssa.Function, from map[*ssa.Function]step, made map[*ssa.Function]place) []errkb.CallSite {
	var out []errkb.CallSite
	var via *place
	for range 64 {
		if p, ok := made[fn]; ok {
			if via != nil {
				p = *via
			}
			if at, ok := ix.where(p.node.Pos()); ok {
				out = append(out, errkb.CallSite{FilePath: at.FilePath, LineNumber: at.LineNumber, Function: program.FuncName(fn), GithubURL: at.GithubURL})
			}
			return out
		}
		st, ok := from[fn]
		if !ok {
			return nil
		}
		if at, ok := ix.where(st.site.Pos()); ok && fn.Synthetic == "" {
			out = append(out, errkb.CallSite{FilePath: at.FilePath, LineNumber: at.LineNumber, Function: program.FuncName(fn), GithubURL: at.GithubURL})
		}
		fn, via = st.callee, st.place
	}
	return nil
}

// implemented is an exported interface method of the module that m, of
// the unexported type recv, implements.
func (f *flow) implemented(m *types.Func, recv types.Type) *types.Func {
	for _, im := range f.ifaces[m.Name()] {
		sig := im.Signature()
		it, ok := sig.Recv().Type().Underlying().(*types.Interface)
		if ok && types.Implements(recv, it) {
			return im
		}
	}
	return nil
}

// ifaceName is "Iface.M" for an interface method.
func ifaceName(m *types.Func) string {
	if n, ok := types.Unalias(m.Signature().Recv().Type()).(*types.Named); ok {
		return n.Obj().Name() + "." + m.Name()
	}
	return m.Name()
}

// exportedType reports a receiver type whose name is exported.
func exportedType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Exported()
}

// tests reports an instruction that tests v against the sentinel
// target: v == ErrX, v != ErrX, errors.Is(v, ErrX).
func tests(instr ssa.Instruction, v ssa.Value, target string) bool {
	switch i := instr.(type) {
	case *ssa.BinOp:
		if i.Op == token.EQL || i.Op == token.NEQ {
			return i.X == v && loads(i.Y, target) || i.Y == v && loads(i.X, target)
		}
	case *ssa.Call:
		if fn := i.Call.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "errors" && fn.Name() == "Is" && len(i.Call.Args) == 2 {
			return i.Call.Args[0] == v && loads(i.Call.Args[1], target)
		}
	}
	return false
}

// loads reports a load of the package-level variable target.
func loads(v ssa.Value, target string) bool {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	g, ok := u.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path()+"."+g.Name() == target
}
