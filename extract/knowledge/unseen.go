package knowledge

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// unseenCalls adds the calls the call graph cannot see, because the
// value called comes from the module's callers (docs/extract.md, "VTA's
// blind spot"): calls of a value that comes from a parameter of the
// function. Only two kinds are added, each knowingly:
//
//   - a call of a value of a named function type of the module (an
//     Option) with no callee in the graph may call each function literal
//     that an exported or unexported function of the module returns as
//     that type (WithTurns returns the Option that Spin calls);
//   - a call of an unexported interface method with no callee in the
//     graph may call each method of that name of the module's types
//     that implement the interface: no other module can implement it.
//
// The result maps each function to the calls that may call it.
func (f *flow) unseenCalls(fns []*ssa.Function) map[*ssa.Function][]unseenCall {
	optionsOf := map[*types.Named][]*ssa.Function{}
	var named []*types.Named // the module's named types, for implementations
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch i := instr.(type) {
				case *ssa.Return: // return func(...) {...} as an Option
					results := fn.Signature.Results()
					for k, r := range i.Results {
						if t := namedFunc(results.At(k).Type()); t != nil {
							if lit := literal(r); lit != nil {
								optionsOf[t] = append(optionsOf[t], lit)
							}
						}
					}
				case *ssa.ChangeType: // optFn(func(...) {...})
					if t := namedFunc(i.Type()); t != nil {
						if lit := literal(i.X); lit != nil {
							optionsOf[t] = append(optionsOf[t], lit)
						}
					}
				}
			}
		}
		if fn.Pkg != nil && fn.Object() != nil && fn.Parent() == nil {
			if recv := fn.Signature.Recv(); recv != nil {
				t := recv.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := types.Unalias(t).(*types.Named); ok {
					named = append(named, n)
				}
			}
		}
	}
	out := map[*ssa.Function][]unseenCall{}
	prog := f.prog
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.StaticCallee() != nil {
					continue
				}
				param := fromParam(call.Call.Value)
				if param == nil {
					continue
				}
				k := indexOf(fn.Params, param)
				if m := call.Call.Method; m != nil {
					if m.Exported() {
						continue
					}
					it, ok := call.Call.Value.Type().Underlying().(*types.Interface)
					if !ok {
						continue
					}
					for _, n := range dedupe(named) {
						for _, t := range []types.Type{n, types.NewPointer(n)} {
							if !types.Implements(t, it) {
								continue
							}
							if impl := prog.LookupMethod(t, m.Pkg(), m.Name()); impl != nil && len(impl.Blocks) > 0 {
								out[impl] = append(out[impl], unseenCall{call, k})
							}
							break
						}
					}
					continue
				}
				if t, ok := types.Unalias(call.Call.Value.Type()).(*types.Named); ok {
					for _, lit := range optionsOf[t] {
						out[lit] = append(out[lit], unseenCall{call, k})
					}
				}
			}
		}
	}
	return out
}

// literal is the function literal a returned value is, through
// conversions, or nil.
func literal(v ssa.Value) *ssa.Function {
	for range 4 {
		switch x := v.(type) {
		case *ssa.MakeClosure:
			fn, _ := x.Fn.(*ssa.Function)
			return fn
		case *ssa.Function:
			if x.Parent() != nil {
				return x
			}
			return nil
		case *ssa.ChangeType:
			v = x.X
		default:
			return nil
		}
	}
	return nil
}

func dedupe(ns []*types.Named) []*types.Named {
	seen := map[*types.Named]bool{}
	var out []*types.Named
	for _, n := range ns {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// unseenCall is a call the graph cannot see, and the parameter of the
// calling function the value called comes from.
type unseenCall struct {
	call  *ssa.Call
	param int
}

// fromParam is the parameter of its function a value is read from: the
// parameter, an element of it (a range over opts ...Option), through
// loads, conversions and phis; nil for any other value.
func fromParam(v ssa.Value) *ssa.Parameter {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int) *ssa.Parameter
	walk = func(v ssa.Value, depth int) *ssa.Parameter {
		if depth > 8 || seen[v] {
			return nil
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Parameter:
			return x
		case *ssa.UnOp:
			return walk(x.X, depth+1)
		case *ssa.IndexAddr:
			return walk(x.X, depth+1)
		case *ssa.Index:
			return walk(x.X, depth+1)
		case *ssa.ChangeType:
			return walk(x.X, depth+1)
		case *ssa.ChangeInterface:
			return walk(x.X, depth+1)
		case *ssa.Phi:
			for _, e := range x.Edges {
				if p := walk(e, depth+1); p != nil {
					return p
				}
			}
		}
		return nil
	}
	return walk(v, 0)
}

// namedFunc is t when it is a named function type, else nil.
func namedFunc(t types.Type) *types.Named {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if _, isFunc := n.Underlying().(*types.Signature); !isFunc {
		return nil
	}
	return n
}
