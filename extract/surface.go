package extract

import (
	"cmp"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract/program"
)

// reach is what the code does with an error, as far as the walk saw.
type reach struct {
	returned bool // returned by a function of the package's API
	logged   bool // passed to a logger
	sent     bool // written into a protocol error line
	startup  bool // a main package ends the process with it
	unknown  bool // went somewhere the walk does not follow
	// closes are the calls that close the connection right after the
	// error is logged or sent (c.Error(err); c.closeConnection(...)).
	closes []*ssa.Call
}

// surface is how a user meets the error, from what the code does with
// it: a main package that exits with it refuses to start; one written
// into a protocol line is sent to clients; one that reaches the API is
// returned; one only ever logged is logged. Anything less clear is "".
func (r reach) surface() string {
	switch {
	case r.startup:
		return errkb.SurfaceStartup
	case r.sent:
		return errkb.SurfaceProtocol
	case r.returned:
		return errkb.SurfaceReturned
	case r.logged && !r.unknown:
		return errkb.SurfaceLog
	}
	return ""
}

// walkBudget bounds the values one error's walk visits, so that a value
// that flows everywhere costs little; a walk cut short knows nothing of
// the rest (unknown).
const walkBudget = 20000

// surfaces sets the Surface of each error from the SSA form: the walk
// starts where the error comes into being (a load of the sentinel, the
// errors.New or fmt.Errorf call, a value of the error type made into an
// error) and follows the value through conversions, wrapping, err.Error()
// text, the calls it is passed to and the callers it is returned to.
func (m *modIndex) surfaces() {
	if !importsLoaded(m.prog) {
		return
	}
	x := newFlowIndex(m.prog)
	globals := map[string]*ssa.Global{}
	for _, p := range m.prog.Packages {
		if sp := m.prog.SSAPackage(p); sp != nil {
			for name, mem := range sp.Members {
				if g, ok := mem.(*ssa.Global); ok {
					globals[p.PkgPath+"."+name] = g
				}
			}
		}
	}
	walk := func(e *Error, starts []ssa.Value) {
		if e.Surface != "" {
			return // the kind said it: a log line, a protocol string
		}
		w := &walker{x: x, seen: map[visit]bool{}, budget: walkBudget}
		for _, v := range starts {
			w.value(v, nil)
		}
		e.Surface = w.r.surface()
		for _, c := range w.r.closes {
			at, ok := m.prog.Where(c.Pos())
			if ok && !slices.ContainsFunc(e.Closes, func(o Closing) bool { return o.Where == at }) {
				e.Closes = append(e.Closes, Closing{Site: Site{Where: at, Func: program.FuncName(c.Parent())}, Call: program.FuncName(c.Call.StaticCallee())})
			}
		}
		slices.SortFunc(e.Closes, func(a, b Closing) int {
			return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
		})
	}
	for k, e := range m.sentinels {
		var starts []ssa.Value
		for _, l := range x.loads[globals[k]] {
			starts = append(starts, l)
		}
		walk(e, starts)
	}
	for k, e := range m.calls {
		var starts []ssa.Value
		for _, pos := range m.made[k] {
			for _, c := range x.calls[pos] {
				starts = append(starts, c)
			}
		}
		walk(e, starts)
	}
	for k, e := range m.types {
		var starts []ssa.Value
		for _, b := range x.boxes[k] {
			starts = append(starts, b)
		}
		walk(e, starts)
	}
}

// importsLoaded reports whether every import of the module's packages
// was loaded, as SSA needs: a program made of parsed files alone
// (program.New in a test) has their types but not their packages.
// Imports are keyed as written, types by package path: the standard
// library's vendored imports differ ("golang.org/x/net/dns/dnsmessage" is
// "vendor/golang.org/x/net/dns/dnsmessage").
func importsLoaded(prog *program.Program) bool {
	for _, p := range prog.Packages {
		loaded := make(map[string]bool, len(p.Imports))
		for _, q := range p.Imports {
			loaded[q.PkgPath] = true
		}
		for _, imp := range p.Types.Imports() {
			if !loaded[imp.Path()] {
				return false
			}
		}
	}
	return true
}

// visit is a value the walk reached and the call it went down through to
// get there, if any: a value reached inside a callee, whose return goes
// back to that call, is not the same visit as one reached from its
// callers' side, whose return goes to every caller.
type visit struct {
	v  ssa.Value
	in ssa.CallInstruction
}

// walker follows one error's values.
type walker struct {
	x      *flowIndex
	r      reach
	seen   map[visit]bool
	budget int
}

// value follows v in its function; ctx is the calls the walk went down
// through, innermost last, to which a return goes back.
func (w *walker) value(v ssa.Value, ctx []ssa.CallInstruction) {
	at := visit{v: v}
	if n := len(ctx); n > 0 {
		at.in = ctx[n-1]
	}
	if w.seen[at] {
		return
	}
	if w.budget--; w.budget < 0 {
		w.r.unknown = true
		return
	}
	w.seen[at] = true
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, ins := range *refs {
		w.use(v, ins, ctx)
	}
}

// use follows one use of v.
func (w *walker) use(v ssa.Value, ins ssa.Instruction, ctx []ssa.CallInstruction) {
	switch ins := ins.(type) {
	case *ssa.Return:
		w.ret(v, ins, ctx)
	case *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.ChangeType, *ssa.Convert, *ssa.Phi,
		*ssa.Slice, *ssa.TypeAssert, *ssa.MultiConvert, *ssa.Extract:
		w.value(ins.(ssa.Value), ctx)
	case *ssa.UnOp:
		w.value(ins, ctx)
	case *ssa.BinOp:
		if ins.Op.String() != "==" && ins.Op.String() != "!=" {
			w.value(ins, ctx) // a concatenation carries the text on
		}
	case *ssa.Store:
		w.store(v, ins, ctx)
	case ssa.CallInstruction:
		w.call(v, ins, ctx)
	case *ssa.If, *ssa.DebugRef, *ssa.Field, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Index, *ssa.RunDefers, *ssa.Jump:
		// a test of the value, or a read of what it holds: not the error going anywhere
	default:
		w.r.unknown = true
	}
}

// store follows a value stored into a variadic call's array or a local
// variable a closure shares; any other place is beyond the walk.
func (w *walker) store(v ssa.Value, st *ssa.Store, ctx []ssa.CallInstruction) {
	if st.Val != v {
		return
	}
	switch a := st.Addr.(type) {
	case *ssa.IndexAddr:
		if alloc, ok := a.X.(*ssa.Alloc); ok {
			for _, r := range *alloc.Referrers() {
				if s, ok := r.(*ssa.Slice); ok {
					w.value(s, ctx)
				}
			}
			return
		}
	case *ssa.Alloc:
		for _, r := range *a.Referrers() {
			if l, ok := r.(*ssa.UnOp); ok {
				w.value(l, ctx)
			}
		}
		return
	}
	w.r.unknown = true
}

// ret follows a return: back to the call the walk came down through, or
// else to every caller; a function of the package's API returns it to
// the module's users.
func (w *walker) ret(v ssa.Value, r *ssa.Return, ctx []ssa.CallInstruction) {
	idx := -1
	for i, res := range r.Results {
		if res == v {
			idx = i
		}
	}
	if idx < 0 {
		return
	}
	fn := r.Parent()
	if n := len(ctx); n > 0 {
		w.result(ctx[n-1], idx, len(r.Results), ctx[:n-1])
		return
	}
	if isAPI(fn) {
		w.r.returned = true
	} else if w.x.escapes[fn] || fn.Signature.Recv() != nil && w.x.dynamic[fn.Name()] {
		// Called from where the index does not see: through a function
		// value or, maybe, an interface. A function that is neither and
		// has no callers is never called by the module's shipped code.
		w.r.unknown = true
	}
	for _, c := range w.x.callers[fn] {
		w.result(c, idx, len(r.Results), nil)
	}
}

// result follows result idx of a call.
func (w *walker) result(c ssa.CallInstruction, idx, n int, ctx []ssa.CallInstruction) {
	call, ok := c.(*ssa.Call)
	if !ok {
		return // go and defer drop results
	}
	if n == 1 {
		w.value(call, ctx)
		return
	}
	for _, r := range *call.Referrers() {
		if ex, ok := r.(*ssa.Extract); ok && ex.Index == idx {
			w.value(ex, ctx)
		}
	}
}

// call follows v passed to a call.
func (w *walker) call(v ssa.Value, c ssa.CallInstruction, ctx []ssa.CallInstruction) {
	cc := c.Common()
	callee := cc.StaticCallee()
	switch {
	case cc.IsInvoke() && cc.Value == v && cc.Method.Name() == "Error",
		callee != nil && callee.Signature.Recv() != nil && callee.Name() == "Error" && len(cc.Args) == 1:
		w.follow(c, ctx) // its text
	case isFunc(cc, "errors", "Is", "As", "Unwrap"):
		// a test for the error
	case isFunc(cc, "fmt", "Sprintf", "Sprint", "Sprintln", "Errorf", "Appendf"), isFunc(cc, "errors", "Join"), isPkg(callee, "strings"):
		w.follow(c, ctx) // text or an error that carries it on
	case isExit(cc) || callee != nil && w.x.exits[callee]:
		if isMain(c.Parent()) {
			w.r.startup = true
		} else {
			w.r.unknown = true
		}
	case callee != nil && w.x.sends[callee]:
		w.r.sent = true
		w.closeAfter(c)
	case isLogger(cc) || callee != nil && w.x.logs[callee] && callee.Signature.Results().Len() == 0:
		w.r.logged = true
		w.closeAfter(c)
	case callee != nil && w.x.own[callee]:
		// A function of the module: follow the value in it. One that logs
		// and also returns something may hand the error back.
		w.r.logged = w.r.logged || w.x.logs[callee]
		for i, a := range cc.Args {
			if a == v && i < len(callee.Params) {
				w.value(callee.Params[i], append(ctx[:len(ctx):len(ctx)], c))
			}
		}
	default:
		w.r.unknown = true
	}
}

// closeAfter notes the call that closes the connection right after c,
// which logged or sent the error: a call of a function named for closing in
// the rest of c's block or in the blocks that must follow it, before any
// branch.
func (w *walker) closeAfter(c ssa.CallInstruction) {
	b, after := c.Block(), false
	for range 4 {
		for _, ins := range b.Instrs {
			if ins == c {
				after = true
				continue
			}
			call, ok := ins.(*ssa.Call)
			if !after || !ok {
				continue
			}
			if f := call.Call.StaticCallee(); f != nil && closes(f.Name()) {
				w.r.closes = append(w.r.closes, call)
				return
			}
		}
		if len(b.Succs) != 1 {
			return
		}
		b, after = b.Succs[0], true
	}
}

// closes reports a function named for closing: Close, closeConnection,
// close_conn; not closedStateForErr, which names a state.
func closes(name string) bool {
	if len(name) < 5 || !strings.EqualFold(name[:5], "close") {
		return false
	}
	return len(name) == 5 || name[5] == '_' || unicode.IsUpper(rune(name[5]))
}

// follow follows a call's value, when it has one.
func (w *walker) follow(c ssa.CallInstruction, ctx []ssa.CallInstruction) {
	if call, ok := c.(*ssa.Call); ok {
		w.value(call, ctx)
	}
}

func isPkg(f *ssa.Function, path string) bool {
	return f != nil && f.Object() != nil && f.Object().Pkg() != nil && f.Object().Pkg().Path() == path
}

func isMain(fn *ssa.Function) bool { return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Name() == "main" }

// isAPI reports a function the module's users can call: exported, of a
// package they can import, and for a method, of an exported type or one
// that implements an exported interface of its package with that method.
func isAPI(fn *ssa.Function) bool {
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() || obj.Pkg() == nil || obj.Pkg().Name() == "main" || program.IsInternal(obj.Pkg().Path()) {
		return false
	}
	recv := obj.Signature().Recv()
	if recv == nil {
		return true
	}
	t := recv.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false // a method of an interface: not one the walk reaches
	}
	if n.Obj().Exported() {
		return true
	}
	scope := obj.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		if it, ok := tn.Type().Underlying().(*types.Interface); ok && types.Implements(types.NewPointer(n), it) {
			for i := range it.NumMethods() {
				if it.Method(i).Name() == obj.Name() {
					return true
				}
			}
		}
	}
	return false
}
