package web

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestSnippetHTML(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"code span", "`ACCOUNT_TIMEOUT` is returned by `encodeAccount`",
			"<code>ACCOUNT_TIMEOUT</code> is returned by <code>encodeAccount</code>"},
		{"mark inside code", "`ACCOUNT_<mark>TIMEOUT</mark>` is returned",
			"<code>ACCOUNT_<mark>TIMEOUT</mark></code> is returned"},
		{"mark across a code boundary", "<mark>wait `bounded</mark> by` it",
			"<mark>wait </mark><code><mark>bounded</mark> by</code> it"},
		{"strong and em", "a **bold** and *soft* and _under_ word",
			"a <strong>bold</strong> and <em>soft</em> and <em>under</em> word"},
		{"snake_case stays", "set request_timeout_ms or max_wait", "set request_timeout_ms or max_wait"},
		{"asterisk inside code stays", "use `a*b` here", "use <code>a*b</code> here"},
		{"cut code span drops its backtick", "…is returned by `encodeAcc…", "…is returned by encodeAcc…"},
		{"cut emphasis drops its asterisks", "…the **stream is gone…", "…the stream is gone…"},
		{"lone asterisk between spaces is text", "5 * 3 retries", "5 * 3 retries"},
		{"link keeps its text", "see [the docs](https://example.com/x) now", "see the docs now"},
		{"escaped text stays escaped", "&lt;script&gt;alert(1)&lt;/script&gt; `&lt;b&gt;`",
			"&lt;script&gt;alert(1)&lt;/script&gt; <code>&lt;b&gt;</code>"},
		{"double backticks", "``a ` b`` done", "<code>a ` b</code> done"},
		{"heading mark", "## Causes\nThe **leader** left", "Causes The <strong>leader</strong> left"},
		{"backslash escape", `a \*literal\* star`, "a *literal* star"},
		{"mark spanning strong", "**<mark>quorum</mark> lost**", "<strong><mark>quorum</mark> lost</strong>"},
		{"multibyte text", "`naïve` — “quoted”", "<code>naïve</code> — “quoted”"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(snippetHTML(tc.in))
			if got != tc.want {
				t.Errorf("snippetHTML(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzSnippetHTML: whatever the fragment, the output is well-formed,
// holds only mark, code, em and strong elements without attributes, and
// has no backtick outside code.
func FuzzSnippetHTML(f *testing.F) {
	for _, s := range []string{"`a` **b** *c* _d_", "<mark>x `y</mark> z`", "[t](u) \\* ## h", "&lt;&amp;&gt;", "***a***", "`<mark>`</mark>`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := string(snippetHTML(in))
		z := html.NewTokenizer(strings.NewReader(out))
		var open []string
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			tok := z.Token()
			switch tt {
			case html.StartTagToken:
				if !allowedSnippetTag[tok.Data] || len(tok.Attr) > 0 {
					t.Fatalf("snippetHTML(%q) = %q: tag %s", in, out, tok.String())
				}
				open = append(open, tok.Data)
			case html.EndTagToken:
				if len(open) == 0 || open[len(open)-1] != tok.Data {
					t.Fatalf("snippetHTML(%q) = %q: badly nested </%s>", in, out, tok.Data)
				}
				open = open[:len(open)-1]
			case html.TextToken:
				if !inCode(open) && strings.Contains(tok.Data, "`") {
					t.Fatalf("snippetHTML(%q) = %q: raw backtick", in, out)
				}
			default:
				t.Fatalf("snippetHTML(%q) = %q: token %v", in, out, tt)
			}
		}
		if len(open) > 0 {
			t.Fatalf("snippetHTML(%q) = %q: unclosed %v", in, out, open)
		}
	})
}

var allowedSnippetTag = map[string]bool{"mark": true, "code": true, "em": true, "strong": true}

func inCode(open []string) bool {
	for _, o := range open {
		if o == "code" {
			return true
		}
	}
	return false
}
