package web

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// TestLinkPolicy checks which Markdown links survive rendering.
func TestLinkPolicy(t *testing.T) {
	md := newMarkdown(&lexers{})
	for _, tt := range []struct {
		src, want, notWant string
	}{
		{"[docs](https://example.com/a)", `<a href="https://example.com/a">docs</a>`, ""},
		{"[page](/errors/x)", `<a href="/errors/x">page</a>`, ""},
		{"[mail](mailto:a@example.com)", `href="mailto:a@example.com"`, ""},
		{"[run](ms-msdt:/id PCWDiagnostic)", "run", "<a"},
		{"[run](JaVaScRiPt:alert(1))", "run", "<a"},
		{"[run](search-ms:query=x)", "run", "<a"},
		{"<ms-msdt:foo>", "ms-msdt:foo", "<a"},
		{"<https://example.com>", `<a href="https://example.com">`, ""},
		{"![the alt](foo:bar)", "the alt", "<img"},
		{"[a *b*](x-app:y) after", "a <em>b</em> after", "<a"},
		{"[weird](:colon)", `<a href=":colon">`, ""},
		{"[](A&colon;)", "", "<a"}, // found by FuzzRecordPage: entities resolve when written
		{"[x](x-app&#58;y)", "x", "<a"},
		{"<x-app&colon;y>", "x-app", "<a"},
	} {
		got := string(renderMarkdown(md, tt.src))
		if !strings.Contains(got, tt.want) || (tt.notWant != "" && strings.Contains(got, tt.notWant)) {
			t.Errorf("%q rendered %q; want %q without %q", tt.src, got, tt.want, tt.notWant)
		}
	}
}

// TestValidationReportsDroppedLinks checks that the one link policy is
// applied alike: every link rendering drops is a problem validation
// reports, so a dataset that loads cleanly renders every link it wrote.
func TestValidationReportsDroppedLinks(t *testing.T) {
	plain := goldmark.New(goldmark.WithExtensions(extension.Strikethrough, extension.Table, extension.Linkify))
	for _, src := range []string{
		"[help](ms-msdt:/id)",
		"[run](search-ms:query=x)",
		"<ms-msdt:foo>",
		"![the alt](foo:bar)",
		"[](A&colon;)",
		"[x](x-app&#58;y)",
		"<x-app&colon;y>",
		"see [the file](C:\\tmp)",
		"fetch ftp://example.com/file",
		"   [r]: x-app:y\n\n[r]",
		"[ok](https://example.com) and [ok](/errors/x) and <mailto:a@example.com>",
		"std::vector<int> and C:\\Windows\\path",
	} {
		doc := plain.Parser().Parse(text.NewReader([]byte(src)))
		dropped := ""
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			var dest []byte
			switch n := n.(type) {
			case *ast.Link:
				dest = n.Destination
			case *ast.Image:
				dest = n.Destination
			case *ast.AutoLink:
				dest = n.URL([]byte(src))
			default:
				return ast.WalkContinue, nil
			}
			if entering && !allowedDestination(dest) {
				dropped = string(dest)
			}
			return ast.WalkContinue, nil
		})
		rec := errkbtest.Record(func(r *errkb.Record) { r.Documentation = src })
		_, err := errkb.Load(errkbtest.Folder(rec))
		reported := err != nil && strings.Contains(err.Error(), `field "documentation"`)
		if dropped != "" && !reported {
			t.Errorf("%q: rendering drops the link to %q but validation reports nothing (%v)", src, dropped, err)
		}
		if dropped == "" && reported {
			t.Logf("%q: validation reports a link rendering keeps: %v", src, err)
		}
	}
}
