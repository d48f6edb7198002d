package web

import (
	"strings"
	"testing"
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
