package web

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/web/route"
	"github.com/errkb/errkb/web/siteurl"
)

// examplePath is a path pattern matches that has a page in ds: the seed
// record, its project, its first tag, the first sitemap part, the
// stylesheet.
func examplePath(pattern string, ds *errkb.Dataset) string {
	seed, _ := ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	p := strings.NewReplacer(
		":owner/:repo/:slug", seed.Repo+"/"+seed.Slug,
		":owner/:repo", seed.Repo,
		":tag", seed.Tags[0],
		":n", "1.xml",
		"*", "style.css",
	).Replace(pattern)
	return p
}

// contentTypes are what each format is answered as.
var contentTypes = map[route.Format]string{
	route.HTML: "text/html", route.Text: "text/plain", route.Markdown: "text/markdown",
	route.JSON: "application/json", route.XML: "xml",
}

// TestRoutesServedAsDeclared: every route of the table answers its
// example path in the format it declares (and, when it negotiates, in
// text and Markdown too), is answered before the router once kept exactly
// when it is Cached or Prepared, waits for a worker exactly when it is
// Admitted, and escapes the rate limit exactly when it is Unlimited.
// docs/architecture.md describes the table from these facts.
func TestRoutesServedAsDeclared(t *testing.T) {
	s := newTestServer(t, Config{})
	s.sitemapMax = 1 // so that /sitemap-1.xml exists
	for _, r := range Routes() {
		path := examplePath(r.Pattern, s.ds)
		t.Run(r.Pattern, func(t *testing.T) {
			w := get(t, s, path)
			if w.Code >= 400 {
				t.Fatalf("GET %s: %d", path, w.Code)
			}
			ct := w.Header().Get("Content-Type")
			if w.Code == http.StatusOK && r.Formats != route.File {
				ok := false
				for f, want := range contentTypes {
					ok = ok || r.Formats&f != 0 && strings.Contains(ct, want)
				}
				if !ok {
					t.Errorf("GET %s: Content-Type %q, but the route answers %v", path, ct, r.Formats)
				}
			}
			if r.Negotiated() {
				for accept, want := range map[string]string{"text/plain": "text/plain", "text/markdown": "text/markdown"} {
					target := path
					if r.Pattern == "/lookup" {
						target += "?q=JS_CONSUMER_OFFLINE" // the seed's code: a confident lookup
					}
					if got := get(t, s, target, "Accept", accept).Header().Get("Content-Type"); !strings.HasPrefix(got, want) {
						t.Errorf("GET %s with Accept %s: %q", target, accept, got)
					}
				}
			}
			get(t, s, path) // kept now, if it is kept at all
			fast := s.fast.Serve(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
			if want := r.Cached || r.Prepared; fast != want {
				t.Errorf("GET %s answered before the router: %v; the table says %v", path, fast, want)
			}
		})
	}
}

// TestRoutesAdmittedAsDeclared: with every worker busy and the queue
// full, exactly the Admitted routes answer 503 busy on a miss.
func TestRoutesAdmittedAsDeclared(t *testing.T) {
	s := newTestServer(t, Config{Workers: 1, QueuedWork: 1})
	s.sitemapMax = 1
	if !s.work.tryAcquire() {
		t.Fatal("no worker free")
	}
	defer s.work.done()
	s.work.queued.Store(s.work.maxQueued)
	defer s.work.queued.Store(0)
	for _, r := range Routes() {
		path := examplePath(r.Pattern, s.ds)
		w := get(t, s, path)
		if busy := w.Code == http.StatusServiceUnavailable; busy != r.Admitted {
			t.Errorf("GET %s under full load: %d; the table says admitted %v", path, w.Code, r.Admitted)
		}
	}
}

// TestRoutesRateLimitedAsDeclared: over a client's rate, exactly the
// routes that are not Unlimited answer 429.
func TestRoutesRateLimitedAsDeclared(t *testing.T) {
	s := newTestServer(t, Config{RateLimit: 0.001, RateBurst: 1})
	s.sitemapMax = 1
	for i, r := range Routes() {
		path := examplePath(r.Pattern, s.ds)
		var w *httptest.ResponseRecorder
		for range 2 {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.RemoteAddr = "192.0.2." + strconv.Itoa(i+1) + ":1234" // a client of its own
			w = httptest.NewRecorder()
			s.ServeHTTP(w, req)
		}
		if limited := w.Code == http.StatusTooManyRequests; limited == r.Unlimited {
			t.Errorf("GET %s twice over the rate: %d; the table says unlimited %v", path, w.Code, r.Unlimited)
		}
	}
}

// TestRoutesOnePattern: no two routes share a pattern, and every route
// is answered by its own handler (its example path is matched by no
// earlier route).
func TestRoutesOnePattern(t *testing.T) {
	ds := testDataset(t)
	seen := map[string]bool{}
	for i, r := range Routes() {
		if seen[r.Pattern] {
			t.Errorf("%s declared twice", r.Pattern)
		}
		seen[r.Pattern] = true
		path := examplePath(r.Pattern, ds)
		for _, other := range Routes()[:i] {
			if _, ok := other.Match(path); ok {
				t.Errorf("%s (%s) is matched by %s too", path, r.Pattern, other.Pattern)
			}
		}
	}
}

// TestSiteURLsHaveRoutes: every address package siteurl spells is
// answered by the route the table declares for it.
func TestSiteURLsHaveRoutes(t *testing.T) {
	for _, tc := range []struct{ url, pattern string }{
		{siteurl.Projects, "/errors"},
		{siteurl.Project("a/b"), "/errors/:owner/:repo"},
		{siteurl.Record("a/b", "c"), "/errors/:owner/:repo/:slug"},
		{siteurl.API(siteurl.Record("a/b", "c")), "/api/v1/errors/:owner/:repo/:slug"},
		{siteurl.Tag("x y"), "/tags/:tag"},
		{siteurl.Search("q"), "/search"},
		{siteurl.Lookup("q"), "/lookup"},
		{siteurl.APILookup("q"), "/api/v1/lookup"},
		{siteurl.SitemapPart(2), "/sitemap-:n"},
	} {
		path, _, _ := strings.Cut(tc.url, "?")
		var got []string
		for _, r := range Routes() {
			if _, ok := r.Match(path); ok {
				got = append(got, r.Pattern)
			}
		}
		if len(got) != 1 || got[0] != tc.pattern {
			t.Errorf("%s is answered by %v, want %s", tc.url, got, tc.pattern)
		}
	}
}
