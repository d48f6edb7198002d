package web

import (
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkPolicy keeps only links and images whose URL is relative or uses
// http, https or mailto (the schemes pkgsite's sanitizer allows). Goldmark
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

// allowedDestination judges a destination as the renderer will write it:
// goldmark resolves entities ("A&colon;" becomes "A:") when it writes the
// href, so the raw destination alone would let such a link through.
func allowedDestination(dest []byte) bool {
	return allowedURL(string(dest)) &&
		allowedURL(string(util.URLEscape(dest, true))) &&
		allowedURL(html.UnescapeString(string(dest)))
}

var schemeRE = regexp.MustCompile(`^[a-z][a-z0-9+.-]*$`)

// allowedURL reports whether u is relative or uses http, https or mailto,
// parsed as a browser would: white space and control characters dropped,
// case ignored, and no scheme unless the text before ':' is one.
func allowedURL(u string) bool {
	s := strings.ToLower(strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, u))
	scheme, _, found := strings.Cut(s, ":")
	if !found || !schemeRE.MatchString(scheme) {
		return true
	}
	switch scheme {
	case "http", "https", "mailto":
		return true
	}
	return false
}
