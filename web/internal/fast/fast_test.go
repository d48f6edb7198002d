package fast

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/errkb/errkb/web/internal/answer"
	"github.com/errkb/errkb/web/internal/exchange"
	"github.com/errkb/errkb/web/route"
)

// origins is a plain path with one origin and no trusted proxy.
type origins struct{}

func (origins) Of(*http.Request) string      { return "http://h" }
func (origins) At(string, bool) string       { return "http://h" }
func (origins) FromProxy(*http.Request) bool { return false }

// testPath is the fast path of a plain path that kept /p/1 (HTML only) and
// /r/1 (HTML, or text for who asks), and prepared /s/a.css and /i.
func testPath(rateLimited bool) *Path {
	cache := answer.NewCache(1 << 20)
	cache.Put("http://h/p/1", answer.Rendered("/p/:n", "text/html", []byte("page"), "public", "Accept-Encoding"))
	cache.Put("http://h/r/1", answer.Rendered("/r/:n", "text/html", []byte("record"), "public", "Accept, Accept-Encoding"))
	css := answer.Prepare("/s/*", "text/css", []byte("b{}"), "t", "public", "Accept-Encoding", 0)
	icon := answer.Prepare("/i", "image/svg+xml", []byte("<svg/>"), "i", "public", "Accept-Encoding", 0)
	return New(Plain{
		Routes: []route.Route{
			{Pattern: "/p/:n", Formats: route.HTML, Cached: true},
			{Pattern: "/r/:n", Formats: route.HTML | route.Text, Cached: true},
			{Pattern: "/s/*", Formats: route.File, Prepared: true, Unlimited: true},
			{Pattern: "/i", Formats: route.File, Prepared: true},
		},
		Cache:    cache,
		CacheKey: func(origin, path string) string { return origin + path },
		Prepared: func(pattern, rest, ae string) *answer.Answer {
			switch {
			case pattern == "/s/*" && rest == "a.css":
				return css.Pick(ae)
			case pattern == "/i":
				return icon.Pick(ae)
			}
			return nil
		},
		RateLimited: rateLimited,
		MaxTarget:   64,
		Origins:     origins{},
		Client:      func(r *http.Request) string { return r.RemoteAddr },
		Draining:    func() bool { return false },
		Exchange:    exchange.New(slog.New(slog.DiscardHandler), prometheus.NewRegistry()),
	})
}

// TestAnswer: the fast path takes what the route table and the plain
// path's cache say it may, and leaves everything else to the plain path.
func TestAnswer(t *testing.T) {
	for _, tc := range []struct {
		name        string
		rateLimited bool
		path        string
		escapes     bool
		accept      string
		want        string // the route answered under; "" for the plain path
	}{
		{"kept page", false, "/p/1", false, "", "/p/:n"},
		{"not kept", false, "/p/2", false, "", ""},
		{"trailing slash", false, "/p/1/", false, "", ""},
		{"negotiated, HTML", false, "/r/1", false, "text/html", "/r/:n"},
		{"negotiated, text", false, "/r/1", false, "text/plain", ""},
		{"not negotiated, text", false, "/p/1", false, "text/plain", "/p/:n"},
		{"prepared under *", false, "/s/a.css", false, "", "/s/*"},
		{"prepared, escaped", false, "/s/a.css", true, "", ""},
		{"prepared, none", false, "/s/b.css", false, "", ""},
		{"prepared, fixed", false, "/i", false, "", "/i"},
		{"fixed, longer", false, "/ix", false, "", ""},
		{"rate limited: unlimited", true, "/s/a.css", false, "", "/s/*"},
		{"rate limited: limited", true, "/i", false, "", ""},
		{"rate limited: kept", true, "/p/1", false, "", ""},
	} {
		a, got := testPath(tc.rateLimited).answer(tc.path, tc.path, tc.escapes, "http://h", tc.accept, "")
		if got != tc.want || (a != nil) != (tc.want != "") {
			t.Errorf("%s: answered under %q (%v), want %q", tc.name, got, a != nil, tc.want)
		}
	}
}

// TestServe: a request the fast path takes is answered with the prepared
// bytes and a request id; one it does not is left untouched.
func TestServe(t *testing.T) {
	f := testPath(false)
	for _, tc := range []struct {
		method, target string
		taken          bool
	}{
		{http.MethodGet, "/p/1", true},
		{http.MethodHead, "/p/1", true},
		{http.MethodPost, "/p/1", false},
		{http.MethodGet, "/p/1?x=1", false},
		{http.MethodGet, "/p/1" + strings.Repeat("x", 64), false},
	} {
		w := httptest.NewRecorder()
		if taken := f.Serve(w, httptest.NewRequest(tc.method, tc.target, nil)); taken != tc.taken {
			t.Errorf("%s %.20s: taken %v, want %v", tc.method, tc.target, taken, tc.taken)
		}
		if !tc.taken {
			if w.Code != http.StatusOK || w.Body.Len() != 0 || len(w.Header()) != 0 {
				t.Errorf("%s %.20s: left %d %q %v written", tc.method, tc.target, w.Code, w.Body, w.Header())
			}
			continue
		}
		if w.Header().Get("X-Request-Id") == "" || w.Header().Get("ETag") == "" {
			t.Errorf("%s %s: headers %v", tc.method, tc.target, w.Header())
		}
		if want := map[string]string{http.MethodGet: "page", http.MethodHead: ""}[tc.method]; w.Body.String() != want {
			t.Errorf("%s %s: body %q, want %q", tc.method, tc.target, w.Body, want)
		}
	}
}
