package web

import (
	"bytes"
	"html"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"github.com/errkb/errkb/templates"
)

// newMarkdown builds the one Markdown renderer of the server. Raw HTML stays
// off (goldmark's default), so its output is safe for templ.Raw; but instead
// of goldmark's "raw HTML omitted" comment, HTML-looking text such as
// "<stream>" is shown as written, because in error documentation it is
// nearly always a placeholder, not markup.
func newMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Strikethrough, extension.Table, extension.Linkify),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(linkPolicy{}, 1000))),
		goldmark.WithRendererOptions(
			renderer.WithNodeRenderers(util.Prioritized(literalHTML{}, 100)),
		),
	)
}

// renderMarkdown renders src, or shows it escaped if goldmark fails.
func renderMarkdown(md goldmark.Markdown, src string) templates.HTML {
	var buf bytes.Buffer
	if err := md.Convert([]byte(src), &buf); err != nil {
		return templates.HTML("<p>" + html.EscapeString(src) + "</p>")
	}
	return templates.HTML(buf.String())
}

// literalHTML renders raw HTML nodes as escaped text.
type literalHTML struct{}

func (literalHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	segs := node.(*ast.RawHTML).Segments
	for i := range segs.Len() {
		s := segs.At(i)
		_, _ = w.WriteString(html.EscapeString(string(s.Value(source))))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		_, _ = w.WriteString("<p>")
		for i := range n.Lines().Len() {
			line := n.Lines().At(i)
			_, _ = w.WriteString(html.EscapeString(string(line.Value(source))))
		}
		return ast.WalkContinue, nil
	}
	if n.HasClosure() {
		_, _ = w.WriteString(html.EscapeString(string(n.ClosureLine.Value(source))))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkContinue, nil
}
