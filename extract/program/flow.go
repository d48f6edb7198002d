package program

import (
	"fmt"
	"go/types"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// SSA is the module's code in SSA form, built on the first call: every
// function of the module's packages has a body; dependencies are their
// declarations only. A package with type errors of its own has no bodies
// (SSA needs well-typed code); SSA reports it through Progress.
func (p *Program) SSA() *ssa.Program { return p.build().ssa }

// SSAPackage is pkg in SSA form.
func (p *Program) SSAPackage(pkg *Package) *ssa.Package { return p.build().pkgs[pkg] }

// CallGraph is the module's call graph, built on the first call by VTA
// (golang.org/x/tools/go/callgraph/vta) seeded with CHA: a call through an
// interface or a function value has as callees the functions whose values
// flow there in the module's code, not every method or function of a
// matching type. A value that only the module's callers supply (a
// callback, a functional option passed in) has no callee: an edge is
// missing rather than wrong. docs/extract.md gives the measurements
// behind the choice.
//
// The graph keeps the nodes of wrappers the SSA builder makes (bound
// methods, thunks, pointer-receiver wrappers: Synthetic != "") and of
// dependencies' functions, which have no blocks: a chain shown to a
// reader skips the first and ends at the second.
func (p *Program) CallGraph() *callgraph.Graph {
	f := p.build()
	p.graphOnce.Do(func() {
		p.progress("building the call graph (CHA, then VTA)")
		f.graph = vta.CallGraph(ssautil.AllFunctions(f.ssa), cha.CallGraph(f.ssa))
	})
	return f.graph
}

// Func is the SSA function of a declared function or method of the
// module, or nil.
func (p *Program) Func(obj *types.Func) *ssa.Function {
	return p.SSA().FuncValue(obj)
}

func (p *Program) build() *flow {
	p.flowOnce.Do(func() {
		p.progress("building SSA")
		prog := ssa.NewProgram(p.Fset, ssa.InstantiateGenerics)
		f := &flow{ssa: prog, pkgs: map[*Package]*ssa.Package{}}
		own := map[*packages.Package]*Package{}
		for _, pkg := range p.Packages {
			own[pkg.Package] = pkg
		}
		var roots []*packages.Package
		for _, pkg := range p.Packages {
			roots = append(roots, pkg.Package)
		}
		// Every package reachable gets an SSA package, so that references
		// resolve; only the module's well-typed ones get their bodies.
		packages.Visit(roots, nil, func(pkg *packages.Package) {
			if pkg.Types == nil {
				return
			}
			mine := own[pkg]
			if mine != nil && !hasOwnErrors(pkg) {
				f.pkgs[mine] = prog.CreatePackage(pkg.Types, pkg.Syntax, pkg.TypesInfo, true)
				return
			}
			if mine != nil {
				p.progress(fmt.Sprintf("no SSA bodies for %s: it has type errors", pkg.PkgPath))
			}
			created := prog.CreatePackage(pkg.Types, nil, nil, true)
			if mine != nil {
				f.pkgs[mine] = created
			}
		})
		prog.Build()
		p.flow = f
	})
	return p.flow
}

// hasOwnErrors reports errors in a package's own files, not ones it
// inherits from a dependency (whose dropped bodies leave imports unused).
func hasOwnErrors(pkg *packages.Package) bool {
	return len(pkg.Errors) > 0
}

// FuncName is a function's name within its package, as extract names
// functions: "F", "(*T).M", "T.M" (not "(T).M"), "(*T).M$1" for a
// function literal.
func FuncName(fn *ssa.Function) string {
	if fn.Pkg == nil {
		return fn.String()
	}
	name := fn.RelString(fn.Pkg.Pkg)
	if rest, ok := strings.CutPrefix(name, "("); ok && !strings.HasPrefix(rest, "*") {
		if t, m, ok := strings.Cut(rest, ")"); ok {
			return t + m
		}
	}
	return name
}
