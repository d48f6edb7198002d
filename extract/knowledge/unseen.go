package knowledge

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// unseenCalls adds the calls the call graph cannot see, because the
// value called comes from the module's callers (docs/extract.md, "VTA's
// blind spot"). Only two kinds are added, each knowingly:
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
func (f *flow) unseenCalls(fns []*ssa.Function) map[*ssa.Function][]*ssa.Call {
	seen := map[ssa.CallInstruction]bool{}
	for _, n := range f.graph.Nodes {
		for _, e := range n.Out {
			seen[e.Site] = true
		}
	}
	optionsOf := map[*types.Named][]*ssa.Function{}
	var named []*types.Named // the module's named types, for implementations
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ret, ok := instr.(*ssa.Return)
				if !ok {
					continue
				}
				results := fn.Signature.Results()
				for k, r := range ret.Results {
					t, ok := types.Unalias(results.At(k).Type()).(*types.Named)
					if !ok {
						continue
					}
					if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
						continue
					}
					if lit := literal(r); lit != nil {
						optionsOf[t] = append(optionsOf[t], lit)
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
	out := map[*ssa.Function][]*ssa.Call{}
	prog := f.prog
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || seen[call] || call.Call.StaticCallee() != nil {
					continue
				}
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
								out[impl] = append(out[impl], call)
							}
							break
						}
					}
					continue
				}
				if t, ok := types.Unalias(call.Call.Value.Type()).(*types.Named); ok {
					for _, lit := range optionsOf[t] {
						out[lit] = append(out[lit], call)
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
