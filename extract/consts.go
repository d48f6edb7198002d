package extract

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/errkb/errkb/extract/program"
)

// declareConstSentinels finds p's constants of an error type: a string
// constant (const ErrX = MyError("…")) says its message through the
// type's format; an integer constant (syscall.ECONNREFUSED) has the text
// the type's Error method looks up for it, in a table or a switch. Of
// constants with the same value (EAGAIN, EWOULDBLOCK) the first name in
// sort order is the record: they are one error.
func (m *modIndex) declareConstSentinels(p *program.Package) {
	s := m.scope(p)
	docs := constDocs(p)
	seen := map[string]bool{} // type key and value already taken
	scope := p.Types.Scope()
	names := scope.Names() // sorted
	for _, name := range names {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || name == "_" {
			continue
		}
		tk := namedKey(c.Type())
		t := m.types[tk]
		if t == nil {
			continue
		}
		e := &Error{Kind: Sentinel, Package: p.PkgPath, PkgName: p.Name, Name: name, Doc: docs[c.Pos()], Internal: p.Internal}
		switch c.Val().Kind() {
		case constant.String:
			e.Message = applyFormat(t.Message, constant.StringVal(c.Val()))
			at, ok := s.where(c.Pos())
			if !ok {
				continue
			}
			e.Where = at
		case constant.Int:
			v, exact := constantInt(c)
			b, inTable := m.cov.tables[tk][v]
			ok := exact && inTable
			if !ok {
				b, ok = m.cov.branches[key(c)]
			}
			if !ok || seen[tk+"\x00"+b.text] {
				continue
			}
			seen[tk+"\x00"+b.text] = true
			e.Message, e.Where = b.text, b.at
			if inTable { // a table's index is the number users see (errno 111)
				e.Code = &Code{Name: name, Value: v, Package: p.PkgPath, PkgName: p.Name}
			}
		default:
			continue
		}
		m.sentinels[key(c)] = e
	}
}

// constDocs maps each constant's position to its doc comment.
func constDocs(p *program.Package) map[token.Pos]string {
	out := map[token.Pos]string{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				doc := docText(vs.Doc, vs.Comment)
				if !gd.Lparen.IsValid() {
					doc = docText(vs.Doc, gd.Doc, vs.Comment)
				}
				for _, n := range vs.Names {
					out[n.Pos()] = doc
				}
			}
		}
	}
	return out
}
