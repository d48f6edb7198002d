package web

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/internal/indextest"
)

// testDataset is the embedded dataset plus the hostile fictional record.
func testDataset(t testing.TB) *errkb.Dataset { return errkbtest.SeedWithHostile(t) }

// readyServer serves ds with a real in-memory index, as a started server
// does once /readyz answers 200.
func readyServer(t testing.TB, ds *errkb.Dataset, cfg Config) *Server {
	t.Helper()
	s := New(ds, cfg)
	s.SetSearcher(indextest.Build(t, ds))
	return s
}

// newTestServer serves testDataset with a real index.
func newTestServer(t testing.TB, cfg Config) *Server { return readyServer(t, testDataset(t), cfg) }

// get sends one GET through the full router with header name/value pairs
// and returns the recorder.
func get(t testing.TB, h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// fetch sends one request through the full router.
func fetch(t testing.TB, h http.Handler, target string) *http.Response {
	t.Helper()
	return do(h, httptest.NewRequest(http.MethodGet, target, nil))
}

func do(h http.Handler, req *http.Request) *http.Response {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t testing.TB, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkSecurityHeaders fails unless res carries the headers every response
// must have, and a charset when it is text.
func checkSecurityHeaders(t testing.TB, what string, res *http.Response) {
	t.Helper()
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
		"X-Content-Type-Options":  "nosniff",
		"X-Frame-Options":         "DENY",
		"X-Xss-Protection":        "0",
		"Referrer-Policy":         "no-referrer",
	}
	for k, v := range want {
		if got := res.Header.Get(k); got != v {
			t.Errorf("%s: header %s = %q, want %q", what, k, got, v)
		}
	}
	if strings.Contains(res.Header.Get("Content-Security-Policy"), "unsafe-inline") {
		t.Errorf("%s: CSP allows unsafe-inline", what)
	}
	ct := res.Header.Get("Content-Type")
	if (strings.HasPrefix(ct, "text/") || strings.Contains(ct, "json")) && !strings.Contains(strings.ToLower(ct), "charset=utf-8") {
		t.Errorf("%s: Content-Type %q has no charset", what, ct)
	}
}

// unsafeHTML lists what in page could run script: any <script>, <iframe>,
// <object>, <embed>, <base> or <form> element, any on* attribute, any
// inline style, and any URL attribute whose scheme is not http, https or
// mailto. The layout itself puts none of these in a page, so every finding
// came from data.
func unsafeHTML(page string) []string {
	var found []string
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return found
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		switch tok.Data {
		case "script":
			// The site's own script is allowed: an empty element loading a
			// file from /static/. Anything else is foreign.
			if !ownScript(tok) || z.Next() != html.EndTagToken {
				found = append(found, "<script>")
			}
		case "iframe", "object", "embed", "base", "frame", "frameset", "applet", "style", "svg", "math":
			found = append(found, "<"+tok.Data+">")
		}
		for _, a := range tok.Attr {
			key := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(key, "on"):
				found = append(found, "<"+tok.Data+" "+key+">")
			case key == "style" || key == "srcdoc" || key == "formaction":
				found = append(found, "<"+tok.Data+" "+key+">")
			case isURLAttr(key) && !safeURL(a.Val):
				found = append(found, "<"+tok.Data+" "+key+"="+a.Val+">")
			}
		}
		if tok.Data == "meta" {
			for _, a := range tok.Attr {
				if strings.EqualFold(a.Key, "http-equiv") {
					found = append(found, "<meta http-equiv>")
				}
			}
		}
	}
}

func ownScript(tok html.Token) bool {
	src := ""
	for _, a := range tok.Attr {
		switch a.Key {
		case "src":
			src = a.Val
		case "defer", "async":
		default:
			return false
		}
	}
	return strings.HasPrefix(src, "/static/") && !strings.Contains(src, "//")
}

var oracleScheme = regexp.MustCompile(`^[a-z][a-z0-9+.-]*$`)

func isURLAttr(key string) bool {
	switch key {
	case "href", "src", "action", "xlink:href", "poster", "background", "cite", "data", "srcset", "ping", "manifest":
		return true
	}
	return false
}

// safeURL accepts relative URLs, the http, https and mailto schemes and
// templ's inert stand-in for a refused URL,
// judged the way a browser would: after dropping control characters and
// white space, case-insensitively.
func safeURL(u string) bool {
	var b bytes.Buffer
	for _, r := range u {
		if r > ' ' && r != 0x7f {
			b.WriteRune(r)
		}
	}
	s := strings.ToLower(b.String())
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return true
	}
	if !oracleScheme.MatchString(s[:colon]) {
		return true // no scheme, as a browser parses it: a relative URL
	}
	switch s[:colon] {
	case "http", "https", "mailto":
		return true
	case "about":
		return s == "about:invalid#templfailedsanitizationurl" // templ's stand-in for a URL it refused
	}
	return false
}
