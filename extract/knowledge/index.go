package knowledge

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/program"
)

// index is the loaded module as the passes read it.
type index struct {
	prog  *program.Program
	o     Options
	files map[string]*file // by path relative to the module's root
	// refs are the references to each package-level object of the
	// module that stands for an error, by its key, in every file.
	refs map[string][]ref
	// funcs are the module's function declarations by object key
	// (FuncDecl of "import/path.(*T).M" or "import/path.F").
	funcs    map[string]*ast.FuncDecl
	settings *settingIndex
	flow     *flow // built on first use
	contents map[string][]byte
	errs     []extract.Error
	// Built on first use by asserted.go.
	testCallers map[types.Object][]string
	hits        map[string][]hit
	docsAt      map[docKey]*ast.CommentGroup
}

// file is one Go file of the module.
type file struct {
	ast  *ast.File
	pkg  *program.Package
	rel  string
	test bool // a _test.go file or a file of a scaffolding package: read for tests only
}

// ref is one use of a name, with the nodes around it, innermost last.
type ref struct {
	file *file
	path []ast.Node
}

func newIndex(prog *program.Program, errs []extract.Error, o Options) *index {
	ix := &index{prog: prog, o: o, errs: errs, files: map[string]*file{}, refs: map[string][]ref{}, funcs: map[string]*ast.FuncDecl{}}
	want := map[string]bool{}
	for i := range errs {
		for _, k := range targets(&errs[i], o) {
			want[k] = true
		}
	}
	for _, p := range prog.Packages {
		scaffold := program.Scaffolding(p.Rel) != ""
		for _, f := range p.Syntax {
			at, ok := prog.Where(f.Package)
			if !ok {
				continue
			}
			fi := &file{ast: f, pkg: p, rel: at.File, test: scaffold || strings.HasSuffix(at.File, "_test.go")}
			if _, seen := ix.files[at.File]; seen {
				continue
			}
			ix.files[at.File] = fi
			ix.declare(fi)
			ix.collectRefs(fi, want)
		}
	}
	ix.settings = newSettingIndex(ix)
	return ix
}

// declare notes the file's function declarations.
func (ix *index) declare(fi *file) {
	for _, d := range fi.ast.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			if obj, ok := fi.pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok && !fi.test {
				ix.funcs[funcKey(obj)] = fd
			}
		}
	}
}

// funcKey names a function or method: "import/path.F", "import/path.T.M".
func funcKey(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return fn.Pkg().Path() + "." + n.Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// targets are the keys of the package-level names that stand for e: the
// sentinel, the error type, the code constant, and names the options add.
func targets(e *extract.Error, o Options) []string {
	var out []string
	if e.Name != "" && e.Kind != extract.API {
		out = append(out, e.Package+"."+e.Name)
	}
	if e.Code != nil && e.Code.Name != "" {
		out = append(out, e.Code.Package+"."+e.Code.Name)
	}
	out = append(out, o.Names[e.Key()]...)
	slices.Sort(out)
	return slices.Compact(out)
}

// collectRefs records every use of a wanted name in fi, with its path.
func (ix *index) collectRefs(fi *file, want map[string]bool) {
	var stack []ast.Node
	ast.Inspect(fi.ast, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := fi.pkg.TypesInfo.Uses[id]
		if obj == nil || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
			return true
		}
		if k := obj.Pkg().Path() + "." + obj.Name(); want[k] {
			ix.refs[k] = append(ix.refs[k], ref{file: fi, path: slices.Clone(stack)})
		}
		return true
	})
}

// where is the provenance of pos, with the file as the repo names it.
func (ix *index) where(pos token.Pos) (errkb.Place, bool) {
	at, ok := ix.prog.Where(pos)
	if !ok {
		return errkb.Place{}, false
	}
	return errkb.Place{FilePath: ix.prog.Origin.RepoPath(at.File), LineNumber: at.Line, GithubURL: at.URL}, true
}

// text is the source of n as written, on one line when it spans several.
func (ix *index) text(fi *file, n ast.Node) string {
	return oneLine(ix.source(fi, n.Pos(), n.End()))
}

// source is the file's bytes between two positions.
func (ix *index) source(fi *file, from, to token.Pos) string {
	tf := ix.prog.Fset.File(fi.ast.Pos())
	if tf == nil {
		return ""
	}
	src := ix.content(fi)
	a, b := tf.Offset(from), tf.Offset(to)
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return string(src[a:b])
}

// oneLine joins a multi-line expression's lines with single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// enclosingFunc is the innermost function (a declaration, or a literal)
// on path, and the declaration the literal is in.
func enclosingFunc(path []ast.Node) (inner ast.Node, decl *ast.FuncDecl) {
	for i := len(path) - 1; i >= 0; i-- {
		switch n := path[i].(type) {
		case *ast.FuncLit:
			if inner == nil {
				inner = n
			}
		case *ast.FuncDecl:
			if inner == nil {
				inner = n
			}
			return inner, n
		}
	}
	return inner, nil
}

// funcName is "F", "T.M" or "(*T).M", as extract names functions; a
// function literal is named by the declaration it is in.
func funcName(fd *ast.FuncDecl) string {
	if fd == nil {
		return ""
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	ptr := false
	if st, ok := t.(*ast.StarExpr); ok {
		t, ptr = st.X, true
	}
	switch ix := t.(type) {
	case *ast.IndexExpr:
		t = ix.X
	case *ast.IndexListExpr:
		t = ix.X
	}
	recv := ""
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if ptr {
		return "(*" + recv + ")." + fd.Name.Name
	}
	return recv + "." + fd.Name.Name
}

// content is a file's bytes, read once.
func (ix *index) content(fi *file) []byte {
	if ix.contents == nil {
		ix.contents = map[string][]byte{}
	}
	if b, ok := ix.contents[fi.rel]; ok {
		return b
	}
	b, _ := os.ReadFile(filepath.Join(ix.prog.Root(), filepath.FromSlash(fi.rel)))
	ix.contents[fi.rel] = b // nil when unreadable: no text is quoted from it
	return b
}
