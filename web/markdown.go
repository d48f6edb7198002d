package web

import (
	"bytes"
	"html"
	"strings"

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
func newMarkdown(lx *lexers) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Strikethrough, extension.Table, extension.Linkify),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(linkPolicy{}, 1000))),
		goldmark.WithRendererOptions(
			renderer.WithNodeRenderers(util.Prioritized(literalHTML{}, 100), util.Prioritized(codeBlocks{lx}, 100)),
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

// codeBlocks renders fenced and indented code blocks highlighted by chroma,
// with the same classes as the source snippet. The language comes from the
// fence's info string; a block without one is shown plain.
type codeBlocks struct{ lexers *lexers }

func (cb codeBlocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, cb.render)
	reg.Register(ast.KindCodeBlock, cb.render)
}

func (cb codeBlocks) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	var lang string
	if f, ok := node.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(source))
	}
	var code strings.Builder
	lines := node.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		code.Write(seg.Value(source))
	}
	lexer := cb.lexers.named(lang)
	// The same box as the code fields: a language label, and a copy button
	// that the page's script adds.
	_, _ = w.WriteString(`<div class="codebox" data-copy="code"><div class="codebar">`)
	if name := languageName(lexer); name != "" {
		_, _ = w.WriteString(`<span class="lang">` + html.EscapeString(name) + `</span>`)
	}
	_, _ = w.WriteString(`</div><pre class="chroma"><code>`)
	_, _ = w.WriteString(string(highlightBlock(lexer, code.String())))
	_, _ = w.WriteString("</code></pre></div>\n")
	return ast.WalkSkipChildren, nil
}
