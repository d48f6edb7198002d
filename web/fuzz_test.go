package web

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/templates"
)

// pageSeeds are Markdown and text that tried to get script into pages of
// other servers: raw HTML, entity-encoded and mixed-case schemes, reference
// links, autolinks, data URIs, and code that closes its own element.
var pageSeeds = []string{
	"plain text with <stream> and `code`",
	"[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))", "[x](javascript&colon;alert(1))",
	"[x](&#106;avascript:alert(1))", "[x](java\tscript:alert(1))", "[x][r]\n\n[r]: javascript:alert(1)",
	"<javascript:alert(1)>", "![i](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
	"[x](data:text/html,<script>alert(1)</script>)", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
	"<a href=\"javascript:alert(1)\">x</a>", "<svg/onload=alert(1)>", "<iframe srcdoc=\"<script>\"></iframe>",
	"```\n</code></pre><script>alert(1)</script>\n```", "`</code><script>`", "<!-- --><script>x</script>",
	"[a](b" + strings.Repeat("[a](b", 50), "> " + strings.Repeat("> ", 100), "a**b" + strings.Repeat("c* ", 50),
	"https://example.com/\"onmouseover=\"alert(1)", "www.example.com/<script>", "<style>*{}</style>",
	"[x](vbscript:msgbox(1))", "[x](  javascript:alert(1)  \"t\")", "\x00\xff<script>",
}

// FuzzRecordPage renders a record page with arbitrary text in its Markdown,
// code, text and URL fields, and parses the page: it must hold no script,
// event handler, inline style or non-http(s) link, since the layout puts
// none there and a dataset must not be able to.
func FuzzRecordPage(f *testing.F) {
	for _, s := range pageSeeds {
		f.Add(s, s, "https://github.com/example-org/fixture/blob/0123456789ab/f.go#L1-L2")
	}
	f.Add("doc", "E_CODE", "javascript:alert(1)")
	f.Add("doc", "</title><script>", "https://github.com/\"><script>")
	s := New(testDataset(f), Config{})
	f.Fuzz(func(t *testing.T, md, text, link string) {
		r := &errkb.Record{
			ID: "fuzz", Repo: "example-org/fuzz", Slug: "fuzz", ErrorCode: text, ErrorMessage: text, MessagePattern: text,
			ErrorClass: text, ErrorType: text, Severity: text, FilePath: text, GithubURL: link,
			Documentation: md, TriggerScenarios: md, CommonSituations: md, Solutions: []string{md, text},
			PreventionTips: []string{md}, ExampleFix: md, ValidationCode: text, TypeGuard: md, TryCatchPattern: text,
			SourceCode: md + "\n" + text, SourceCodeStart: 1, SourceCodeEnd: 2, LineNumber: 2,
			Tags: []string{text}, AnalyzedSha: text, AnalyzedAt: text, DatasetVersion: text,
		}
		var buf bytes.Buffer
		if err := templates.Record(*s.recordView(context.Background(), r)).Render(context.Background(), &buf); err != nil {
			t.Fatalf("render: %v", err)
		}
		if bad := unsafeHTML(buf.String()); len(bad) > 0 {
			t.Fatalf("record page holds %q\nfor md=%q text=%q link=%q", bad, md, text, link)
		}
	})
}

// FuzzSearchPage sends arbitrary query text through every route that takes
// one, over a dataset whose records hold markup: never a 5xx, and no
// script in any page, highlights included.
func FuzzSearchPage(f *testing.F) {
	for _, s := range pageSeeds {
		f.Add(s)
	}
	for _, s := range hostileQueries {
		f.Add(s)
	}
	// Built with f, not with one input's t, whose cleanup would close the
	// index under the inputs after it; built anew for each run of the
	// target (-count), since f's cleanup closes it at the end of one.
	searchServer := newTestServer(f, Config{})
	f.Fuzz(func(t *testing.T, q string) {
		v := url.Values{"q": {q}}.Encode()
		for _, target := range []string{"/search?" + v, "/api/v1/search?" + v, "/lookup?" + v, "/api/v1/lookup?" + v, "/errors/" + url.PathEscape(q)} {
			res := fetch(t, searchServer, target)
			b := body(t, res)
			if res.StatusCode >= 500 {
				t.Fatalf("%s: status %d: %s", shorten(target), res.StatusCode, shorten(b))
			}
			if res.StatusCode == http.StatusOK && strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				if bad := unsafeHTML(b); len(bad) > 0 {
					t.Fatalf("%s: page holds %q", shorten(target), bad)
				}
			}
		}
	})
}
