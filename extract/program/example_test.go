package program_test

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/errkb/errkb/extract/program"
)

// The callees of every call in the fixture's Finish, each with the
// provenance of the call: through an interface, only the types that flow
// there.
func ExampleProgram_CallGraph() {
	prog, err := program.Load(context.Background(), program.Config{
		Dir:    "../testdata/widget",
		Origin: program.Origin{Repo: "acme-labs/widget", Ref: "v1.2.0"},
	})
	if err != nil {
		log.Fatal(err)
	}
	graph := prog.CallGraph() // SSA, then CHA, then VTA; built once, on first use
	var lines []string
	for fn, node := range graph.Nodes {
		if fn.Name() != "Finish" {
			continue
		}
		for _, edge := range node.Out {
			if at, ok := prog.Where(edge.Site.Pos()); ok {
				lines = append(lines, fmt.Sprintf("%s:%d calls %s\n  %s", at.File, at.Line, edge.Callee.Func.RelString(fn.Pkg.Pkg), at.URL))
			}
		}
	}
	slices.Sort(lines)
	for _, l := range lines {
		fmt.Println(l)
	}
	// Output:
	// finish.go:26 calls (lacquer).finish
	//   https://github.com/acme-labs/widget/blob/v1.2.0/finish.go#L26
	// finish.go:26 calls (wax).finish
	//   https://github.com/acme-labs/widget/blob/v1.2.0/finish.go#L26
}
