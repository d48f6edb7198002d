package web

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/errkb/errkb"
)

// linkPolicy keeps only links and images whose URL errkb.AllowedURL
// accepts: relative, or http, https or mailto. Goldmark
// itself drops javascript:, vbscript:, file: and most data: URLs, but lets
// any other scheme through, and an unknown scheme can start a program on
// the reader's machine (ms-msdt:, search-ms:). A refused link shows its
// text; a refused autolink shows its URL as text; a refused image shows its
// alt text.
type linkPolicy struct{}

func (linkPolicy) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var refused []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			if !allowedDestination(n.Destination) {
				refused = append(refused, n)
			}
		case *ast.Image:
			if !allowedDestination(n.Destination) {
				refused = append(refused, n)
			}
		case *ast.AutoLink:
			if !allowedDestination(n.URL(src)) {
				refused = append(refused, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range refused {
		unlink(n, src)
	}
}

// unlink replaces n by what it showed as text.
func unlink(n ast.Node, src []byte) {
	parent := n.Parent()
	if parent == nil {
		return
	}
	if al, ok := n.(*ast.AutoLink); ok {
		parent.ReplaceChild(parent, n, ast.NewString(al.Label(src)))
		return
	}
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}

// allowedDestination judges a destination by errkb.AllowedURL, the policy
// validation applies too, as the renderer will write it: percent-escaped,
// and with entities resolved ("A&colon;" becomes "A:"), which AllowedURL
// itself checks.
func allowedDestination(dest []byte) bool {
	return errkb.AllowedURL(string(dest)) && errkb.AllowedURL(string(util.URLEscape(dest, true)))
}
