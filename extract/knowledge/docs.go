package knowledge

import (
	"go/ast"
	"strconv"
	"strings"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
)

// docs are what documents e: the project's own documents of it (the
// options'), the doc comment of each function that makes it, and the doc
// comment of each exported entry that names it or quotes its message.
func (ix *index) docs(e *extract.Error, places []place, entries []errkb.Entry) []errkb.Doc {
	out := append([]errkb.Doc{}, ix.o.Docs[e.Key()]...)
	seen := map[string]bool{}
	add := func(of string, cg *ast.CommentGroup) {
		text := docText(cg)
		if text == "" {
			return
		}
		at, ok := ix.where(cg.Pos())
		k := at.FilePath + ":" + strconv.Itoa(at.LineNumber) // a link is "" without a ref
		if !ok || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, errkb.Doc{Of: of, Text: text, FilePath: at.FilePath, LineNumber: at.LineNumber, GithubURL: at.GithubURL})
	}
	for _, p := range places {
		if _, decl := enclosingFunc(p.path); decl != nil {
			add(funcName(decl), decl.Doc)
		}
	}
	names := mentions(e)
	for _, en := range entries {
		d := ix.docAt(en.FilePath, en.LineNumber)
		if d == nil {
			continue
		}
		if text := docText(d); containsAny(text, names) {
			add(en.Function, d)
		}
	}
	return out
}

// mentions are the words by which a doc comment speaks of e: its name,
// its code constant, its message's longest fixed text.
func mentions(e *extract.Error) []string {
	var out []string
	if e.Name != "" {
		out = append(out, e.Name)
	}
	if e.Code != nil && e.Code.Name != "" {
		out = append(out, e.Code.Name)
	}
	if lit := extract.LongestLiteral(e.Message); len(lit) >= minAssertedText {
		out = append(out, lit)
	}
	return out
}

func containsAny(text string, words []string) bool {
	for _, w := range words {
		if w != "" && strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// docAt is the doc comment of the function, method or interface method
// declared at a line of a file (as the repo names it), or nil.
func (ix *index) docAt(repoPath string, line int) *ast.CommentGroup {
	if ix.docsAt == nil {
		ix.docsAt = map[docKey]*ast.CommentGroup{}
		for _, fi := range ix.files {
			if fi.test {
				continue
			}
			ast.Inspect(fi.ast, func(n ast.Node) bool {
				var name *ast.Ident
				var doc *ast.CommentGroup
				switch n := n.(type) {
				case *ast.FuncDecl:
					name, doc = n.Name, n.Doc
				case *ast.Field:
					if len(n.Names) == 1 {
						name, doc = n.Names[0], n.Doc
					}
				}
				if name != nil && doc != nil {
					if at, ok := ix.where(name.Pos()); ok {
						ix.docsAt[docKey{at.FilePath, at.LineNumber}] = doc
					}
				}
				return true
			})
		}
	}
	return ix.docsAt[docKey{repoPath, line}]
}

type docKey struct {
	file string
	line int
}
