package errkbtest

import (
	"strconv"

	"github.com/errkb/errkb"
)

// gizmoBlob is the fictional project's files at its analysed commit.
const gizmoBlob = "https://github.com/acme-labs/gizmo/blob/0000000000000000000000000000000000000000/"

// gizmoLine is the link to one line of a file of the fictional project.
func gizmoLine(file string, line int) string { return gizmoBlob + file + "#L" + strconv.Itoa(line) }

// Knowledge fills every field that identity and derived knowledge add
// (issues 20 and 21) with facts of the fictional project, n entries of
// each list, so tests can check order, links and folding. Its faces name
// ids given with Face.
func Knowledge(n int) Option {
	return func(r *errkb.Record) {
		r.QualifiedName = "gizmo.ErrJammed"
		r.Aliases = []string{"GZ_JAMMED"}
		r.Surface = errkb.SurfaceReturned
		for i := 1; i <= n; i++ {
			line := 10 * i
			r.Conditions = append(r.Conditions, errkb.Condition{
				Function: "(*Gizmo).Spin" + strconv.Itoa(i), FilePath: "spin.go", LineNumber: line, GithubURL: gizmoLine("spin.go", line),
				Guards: []errkb.Guard{
					{Expr: "g.load > g.opts.MaxLoad", Kind: "if", FilePath: "spin.go", LineNumber: line - 1, GithubURL: gizmoLine("spin.go", line-1)},
					{Expr: "!g.oiled", Kind: "else", FilePath: "spin.go", LineNumber: line - 3, GithubURL: gizmoLine("spin.go", line-3)},
				},
				Settings: []errkb.Setting{{Field: "MaxLoad", Type: "int", Doc: "MaxLoad is the most a gizmo carries.",
					FilePath: "opts.go", LineNumber: 7, GithubURL: gizmoLine("opts.go", 7), ConfigKey: "max_load",
					ConfigAt: &errkb.Place{FilePath: "opts.go", LineNumber: 40, GithubURL: gizmoLine("opts.go", 40)}}},
			})
			r.ReturnedBy = append(r.ReturnedBy, errkb.Entry{
				Function: "(*Gizmo).Run" + strconv.Itoa(i), Package: "example.com/acme-labs/gizmo", FilePath: "run.go", LineNumber: line, GithubURL: gizmoLine("run.go", line),
				Chain: []errkb.CallSite{
					{Function: "(*Gizmo).Run" + strconv.Itoa(i), FilePath: "run.go", LineNumber: line + 2, GithubURL: gizmoLine("run.go", line+2)},
					{Function: "(*Gizmo).Spin" + strconv.Itoa(i), FilePath: "spin.go", LineNumber: line, GithubURL: gizmoLine("spin.go", line)},
				},
			})
			r.HandledAt = append(r.HandledAt, errkb.Check{
				Function: "(*Pool).retry" + strconv.Itoa(i), Check: "errors.Is(err, ErrJammed)",
				Code: "if errors.Is(err, ErrJammed) {\n\treturn p.unjam()\n}", CodeStart: line, CodeEnd: line + 2,
				FilePath: "pool.go", LineNumber: line, GithubURL: gizmoLine("pool.go", line),
			})
			r.Tests = append(r.Tests, errkb.Test{
				Name: "TestSpinJams" + strconv.Itoa(i), Package: "example.com/acme-labs/gizmo", Assertion: "errors.Is(err, ErrJammed)",
				FilePath: "spin_test.go", LineNumber: line, GithubURL: gizmoLine("spin_test.go", line),
			})
			r.Docs = append(r.Docs, errkb.Doc{
				Of: "(*Gizmo).Run" + strconv.Itoa(i), Text: "Run spins the gizmo; it returns ErrJammed when the load is too high.",
				FilePath: "run.go", LineNumber: line - 2, GithubURL: gizmoLine("run.go", line-2),
			})
		}
		r.History = &errkb.History{FirstVersion: "v1.0.0", Messages: []errkb.OldMessage{{Message: "gizmo stuck", Versions: []string{"v1.0.0", "v1.2.0"}}}}
	}
}

// Face adds a face of the record: the record id on the given side, in
// the given package, with its qualified name, joined by the fact at
// line of join.go.
func Face(id, side, pkg, name, relation string, line int) Option {
	return func(r *errkb.Record) {
		r.Faces = append(r.Faces, errkb.Face{ID: id, Side: side, Package: pkg, Name: name, Relation: relation,
			FilePath: "join.go", LineNumber: line, GithubURL: gizmoLine("join.go", line)})
	}
}

// Surface sets how the error is met (errkb.SurfaceLog, ...).
func Surface(s string) Option {
	return func(r *errkb.Record) { r.Surface = s }
}

// Sources adds citations for curated prose, making the record curated.
func Sources(cs ...errkb.Citation) Option {
	return func(r *errkb.Record) { r.Sources = append(r.Sources, cs...) }
}
