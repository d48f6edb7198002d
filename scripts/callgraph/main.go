// Command callgraph measures the call graphs extract/program can build
// for a module, CHA and VTA seeded with CHA, to choose between them: the
// time and peak memory of each step, the number of edges, and for each
// call through an interface or a function value in the module's code,
// how many callees each graph gives it. With -site FILE:LINE it lists
// the callees of the dynamic calls on that line, to judge by hand
// against the source which graph is right (docs/extract.md).
//
//	go run ./scripts/callgraph github.com/nats-io/nats.go@v1.55.0
//	go run ./scripts/callgraph -site nats.go:3386 github.com/nats-io/nats.go@v1.55.0
//	go run ./scripts/callgraph -algo none github.com/nats-io/nats-server/v2@v2.15.3
//
// -algo none stops after extraction, -algo ssa after building SSA, and
// -algo program builds the graph the analyses use, for the cost of each
// step alone (run the built binary under /usr/bin/time -v for the peak).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/program"
)

// missing is how many calls VTA resolves to nothing to list; shown, how
// many callees of a -site call to name.
var missing, shown int

func main() {
	algo := flag.String("algo", "both", "none, ssa, cha, both (CHA and VTA, compared), or program (Program.CallGraph alone)")
	flag.IntVar(&shown, "n", 12, "how many callees of a -site call to name")
	flag.IntVar(&missing, "missing", 0, "list up to this many dynamic calls where VTA gives no callee of the module and CHA does")
	var sites siteList
	flag.Var(&sites, "site", "FILE:LINE of the module whose dynamic calls to list (repeatable)")
	flag.Parse()
	log.SetFlags(0)
	for _, src := range flag.Args() {
		if err := measure(src, *algo, sites); err != nil {
			log.Fatal(err)
		}
	}
}

type siteList []string

func (s *siteList) String() string     { return strings.Join(*s, ",") }
func (s *siteList) Set(v string) error { *s = append(*s, v); return nil }

// step times fn and prints the time and the process's peak RSS so far.
func step(name string, fn func()) {
	start := time.Now()
	fn()
	fmt.Printf("  %-10s %8s  peak RSS %s\n", name, time.Since(start).Round(time.Millisecond), peakRSS())
}

func measure(src, algo string, sites []string) error {
	ctx := context.Background()
	fmt.Println(src)
	var (
		prog *program.Program
		err  error
	)
	step("load", func() {
		var s extract.Source
		if s, err = extract.Resolve(ctx, src, "", ""); err == nil {
			prog, err = extract.Load(ctx, s, extract.LoadOptions{})
		}
	})
	if err != nil {
		return err
	}
	var res *extract.Result
	step("extract", func() { res = extract.Extract(prog, extract.Options{}) })
	fmt.Printf("  %d packages, %d errors\n", len(prog.Packages), len(res.Errors))
	if algo == "none" {
		return nil
	}
	var s *ssa.Program
	step("ssa", func() { s = prog.SSA() })
	if algo == "ssa" {
		return nil
	}
	if algo == "program" {
		var g *callgraph.Graph
		step("callgraph", func() { g = prog.CallGraph() })
		fmt.Printf("  edges: %d\n", edges(g))
		return nil
	}
	var chaG, vtaG *callgraph.Graph
	step("cha", func() { chaG = cha.CallGraph(s) })
	if algo == "both" {
		step("vta", func() { vtaG = vta.CallGraph(ssautil.AllFunctions(s), chaG) })
	}
	fmt.Printf("  edges: CHA %d", edges(chaG))
	if vtaG != nil {
		fmt.Printf(", VTA %d", edges(vtaG))
	}
	fmt.Println()
	if vtaG != nil {
		compare(prog, chaG, vtaG)
		listMissing(prog, chaG, vtaG)
		for _, site := range sites {
			list(prog, chaG, vtaG, site)
		}
	}
	return nil
}

func edges(g *callgraph.Graph) int {
	n := 0
	for _, node := range g.Nodes {
		n += len(node.Out)
	}
	return n
}

// dynamicSites are the module's calls through an interface or a function
// value, with each graph's callees.
func dynamicSites(prog *program.Program, chaG, vtaG *callgraph.Graph) map[ssa.CallInstruction][2][]*ssa.Function {
	out := map[ssa.CallInstruction][2][]*ssa.Function{}
	for i, g := range []*callgraph.Graph{chaG, vtaG} {
		for fn, node := range g.Nodes {
			if fn == nil || fn.Synthetic != "" {
				continue
			}
			if _, ok := prog.Where(fn.Pos()); !ok {
				continue // not the module's code
			}
			for _, e := range node.Out {
				if e.Site == nil || e.Site.Common().StaticCallee() != nil {
					continue
				}
				v := out[e.Site]
				v[i] = append(v[i], e.Callee.Func)
				out[e.Site] = v
			}
		}
	}
	return out
}

// compare summarises how the graphs differ on dynamic calls.
func compare(prog *program.Program, chaG, vtaG *callgraph.Graph) {
	sites := dynamicSites(prog, chaG, vtaG)
	var chaN, vtaN, vtaNone, same, chaMax int
	for _, v := range sites {
		chaN += len(v[0])
		vtaN += len(v[1])
		chaMax = max(chaMax, len(v[0]))
		if len(v[1]) == 0 {
			vtaNone++
		}
		if len(v[0]) == len(v[1]) {
			same++
		}
	}
	n := max(len(sites), 1)
	fmt.Printf("  dynamic calls in the module: %d; callees per call: CHA %.1f (max %d), VTA %.1f; VTA gives none at %d, the same set as CHA at %d\n",
		len(sites), float64(chaN)/float64(n), chaMax, float64(vtaN)/float64(n), vtaNone, same)
}

// list prints the callees each graph gives the dynamic calls of one line.
func list(prog *program.Program, chaG, vtaG *callgraph.Graph, site string) {
	for call, v := range dynamicSites(prog, chaG, vtaG) {
		w, ok := prog.Where(call.Pos())
		if !ok || fmt.Sprintf("%s:%d", w.File, w.Line) != site {
			continue
		}
		fmt.Printf("  %s %s\n", site, call.Common().Description())
		for i, name := range []string{"CHA", "VTA"} {
			var names []string
			for _, f := range v[i] {
				names = append(names, f.String())
			}
			slices.Sort(names)
			names = slices.Compact(names)
			fmt.Printf("    %s (%d): %s\n", name, len(names), clip(names, shown))
		}
	}
}

func clip(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(", ... %d more", len(names)-n)
}

// peakRSS is the process's high-water resident set (VmHWM).
func peakRSS() string {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// listMissing prints calls where CHA has a callee in the module and VTA
// has none: where VTA could be wrong, to check by hand.
func listMissing(prog *program.Program, chaG, vtaG *callgraph.Graph) {
	var lines []string
	for call, v := range dynamicSites(prog, chaG, vtaG) {
		if len(v[1]) > 0 {
			continue
		}
		var mod []string
		for _, f := range v[0] {
			if _, ok := prog.Where(f.Pos()); ok && f.Synthetic == "" {
				mod = append(mod, f.String())
			}
		}
		if len(mod) == 0 {
			continue
		}
		slices.Sort(mod)
		w, _ := prog.Where(call.Pos())
		lines = append(lines, fmt.Sprintf("  %s:%d %s -> CHA (module) %s", w.File, w.Line, call.Common().Description(), clip(slices.Compact(mod), 4)))
	}
	slices.Sort(lines)
	fmt.Printf("  %d dynamic calls with module callees by CHA and none by VTA\n", len(lines))
	for _, l := range lines[:min(missing, len(lines))] {
		fmt.Println(l)
	}
}
