package curate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// Form is how a sample is made into a Go file.
type Form int

const (
	// Program: the sample is a whole file (it starts with "package").
	Program Form = iota + 1
	// Declarations: functions, types, variables; the package clause and
	// the imports they use are added.
	Declarations
	// Statements: the body of a function, which may use the usual
	// variables (see Fixture); a bare expression such as a type guard's
	// condition is checked as "_ = expression".
	Statements
)

// Wrapped is a sample made into a file of package "sample".
type Wrapped struct {
	Form   Form
	Source string
	// Offset is the number of lines the file has before the sample's
	// first line, to report positions in the sample's own lines.
	Offset int
}

// Fixture declares the variables a statement sample may use without
// declaring them, as a reader's program around it would: err, ctx, nc, js,
// cfg and msg.
const Fixture = `package sample

import (
	"context"

	"github.com/nats-io/nats.go"
)

var (
	err error
	ctx context.Context
	nc  *nats.Conn
	js  nats.JetStreamContext
	cfg *nats.ConsumerConfig
	msg *nats.Msg
)
`

// Wrap makes code into a Go file of package "sample", adding the imports
// its package names need: imports maps a package name to its path. A
// sample that parses in none of the forms is returned as declarations,
// for the type checker to report its syntax errors.
func Wrap(code string, imports map[string]string) Wrapped {
	if strings.HasPrefix(strings.TrimSpace(code), "package ") {
		return Wrapped{Form: Program, Source: code}
	}
	fset := token.NewFileSet()
	if f, err := parser.ParseFile(fset, "", "package sample\n"+code, parser.AllErrors); err == nil && len(f.Decls) > 0 {
		return Wrapped{Form: Declarations, Source: header(f, imports) + "\n" + code + "\n", Offset: 1}
	}
	body := "package sample\nfunc sample() {\n" + code + "\n}\n"
	f, err := parser.ParseFile(fset, "", body, parser.AllErrors)
	if err != nil {
		return Wrapped{Form: Declarations, Source: "package sample\n" + code + "\n", Offset: 1}
	}
	if returnsValue(f) {
		// The statements are the body of a function that returns an
		// error, as "return fmt.Errorf(...)" in them says.
		body = "package sample\nfunc sample() error {\n" + code + "\nreturn nil\n}\n"
		f, _ = parser.ParseFile(fset, "", body, parser.AllErrors)
	}
	code = bareExpressions(fset, f, body)
	f, _ = parser.ParseFile(fset, "", code, parser.AllErrors)
	_, rest, _ := strings.Cut(code, "\n")
	return Wrapped{Form: Statements, Source: header(f, imports) + "\n" + rest, Offset: 2}
}

// header is the package clause with the imports f needs on one line, so
// that the sample's lines keep their numbers.
func header(f *ast.File, imports map[string]string) string {
	have := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		have[name] = true
	}
	var names []string
	for _, id := range f.Unresolved {
		if _, ok := imports[id.Name]; ok && !have[id.Name] && usedAsPackage(f, id.Name) {
			have[id.Name] = true
			names = append(names, id.Name)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString("package sample")
	for _, n := range names {
		b.WriteString("; import ")
		if p := imports[n]; p[strings.LastIndex(p, "/")+1:] != n {
			b.WriteString(n + " ")
		}
		b.WriteString(strconv.Quote(imports[n]))
	}
	return b.String()
}

// usedAsPackage reports whether name appears as the X of a selector in f.
func usedAsPackage(f *ast.File, name string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// bareExpressions turns each statement of the function body that is an
// expression other than a call into "_ = expression".
func bareExpressions(fset *token.FileSet, f *ast.File, src string) string {
	var at []int
	fn := f.Decls[0].(*ast.FuncDecl)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if _, call := ast.Unparen(es.X).(*ast.CallExpr); !call {
				at = append(at, fset.Position(es.Pos()).Offset)
			}
		}
		return true
	})
	for i := len(at) - 1; i >= 0; i-- {
		src = src[:at[i]] + "_ = " + src[at[i]:]
	}
	return src
}

// returnsValue reports whether the sample function of f returns one value
// somewhere (outside function literals).
func returnsValue(f *ast.File) bool {
	found := false
	ast.Inspect(f.Decls[0].(*ast.FuncDecl).Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = found || len(n.Results) == 1
		}
		return !found
	})
	return found
}

// Declared returns the names of the functions a declarations sample
// declares.
func Declared(w Wrapped) []string {
	if w.Form != Declarations {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", w.Source, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			out = append(out, fd.Name.Name)
		}
	}
	return out
}
