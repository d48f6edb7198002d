package route

import "testing"

func TestNegotiate(t *testing.T) {
	for _, tc := range []struct {
		accept string
		want   Format
	}{
		{"text/plain", Text},
		{"text/plain; charset=utf-8", Text},
		{"TEXT/PLAIN", Text},
		{"", HTML},
		{"*/*", HTML},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", HTML},
		{"text/html, text/plain;q=0.5", HTML},
		{"text/html;q=0.5, text/plain", Text},
		{"text/plain;q=0", HTML},
		{"application/json", HTML},
		{"text/markdown", Markdown},
		{"text/markdown, text/plain;q=0.9", Markdown},
		{"text/plain, text/markdown;q=0.5", Text},
		{"text/html, text/markdown;q=0.5", HTML},
	} {
		if got := Negotiate(tc.accept); got != tc.want {
			t.Errorf("Negotiate(%q) = %v, want %v", tc.accept, got, tc.want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		ok            bool
		rest          string
	}{
		{"/", "/", true, ""},
		{"/", "/x", false, ""},
		{"/errors", "/errors", true, ""},
		{"/errors", "/errors/", false, ""},
		{"/errors/:owner/:repo", "/errors/a/b", true, ""},
		{"/errors/:owner/:repo", "/errors/a/b/c", false, ""},
		{"/errors/:owner/:repo", "/errors/a/", false, ""},
		{"/errors/:owner/:repo/:slug", "/errors/a/b/c", true, ""},
		{"/api/v1/errors/:owner/:repo/:slug", "/api/v1/errors/a/b/c", true, ""},
		{"/sitemap-:n", "/sitemap-2.xml", true, ""},
		{"/sitemap-:n", "/sitemap.xml", false, ""},
		{"/static/*", "/static/style.css", true, "style.css"},
		{"/static/*", "/static/a/b", true, "a/b"},
		{"/static/*", "/favicon.ico", false, ""},
	} {
		rest, ok := Route{Pattern: tc.pattern}.Match(tc.path)
		if ok != tc.ok || rest != tc.rest {
			t.Errorf("%s matching %s: %q, %v; want %q, %v", tc.pattern, tc.path, rest, ok, tc.rest, tc.ok)
		}
	}
}

func TestNegotiated(t *testing.T) {
	for _, tc := range []struct {
		f    Format
		want bool
	}{
		{HTML, false}, {HTML | Text, true}, {HTML | Markdown | Text, true}, {JSON, false}, {Text, false},
	} {
		if got := (Route{Formats: tc.f}).Negotiated(); got != tc.want {
			t.Errorf("%v: negotiated %v, want %v", tc.f, got, tc.want)
		}
	}
}
