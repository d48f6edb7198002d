package web

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// pageFrom requests target with the given Host, peer address and header
// name/value pairs.
func pageFrom(t testing.TB, s *Server, target, host, remote string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host, req.RemoteAddr = host, remote
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return do(s, req)
}

// TestForgedHostsDoNotFlushTheCache floods a server without --base-url
// with requests for one record page, each with a fresh Host and a forged
// X-Forwarded-Proto from an untrusted peer. Every answer must be the page a
// real reader gets, with links to the configured host only, and the cache
// must keep one entry: forged values neither split it nor evict others.
func TestForgedHostsDoNotFlushTheCache(t *testing.T) {
	s := newPagesServer(t, true, Config{Hosts: []string{"errkb.internal:8080"}})
	const real = "errkb.internal:8080"
	want := body(t, pageFrom(t, s, seedPath, real, "192.0.2.1:1000"))
	if !strings.Contains(want, "http://errkb.internal:8080"+seedPath) {
		t.Fatalf("the page does not link to the configured host")
	}
	other := body(t, pageFrom(t, s, "/errors", real, "192.0.2.1:1000"))
	entries := s.responses.Len()
	for i := range 2000 {
		res := pageFrom(t, s, seedPath, fmt.Sprintf("forged-%d.example", i), "203.0.113.9:4000",
			"X-Forwarded-Proto", "wss", "X-Forwarded-Ssl", "on", "X-Url-Scheme", "https")
		if b := body(t, res); res.StatusCode != 200 || b != want {
			t.Fatalf("forged host %d: status %d, page differs from a real reader's: %v", i, res.StatusCode,
				strings.Contains(b, "forged-"))
		}
	}
	if n := s.responses.Len(); n != entries {
		t.Errorf("%d cache entries after the flood, %d before: forged hosts split the cache", n, entries)
	}
	if b := body(t, pageFrom(t, s, "/errors", real, "192.0.2.1:1000")); b != other {
		t.Error("another cached page changed during the flood")
	}
	for _, path := range []string{seedPath, "/errors"} {
		if s.responses.Get(s.cacheKey(httptest.NewRequest("GET", path, nil), path)) == nil {
			t.Errorf("%s was evicted by the flood", path)
		}
	}
}

// TestForwardedSchemeOnlyFromTrustedProxies: X-Forwarded-Proto and its
// kin change the scheme of links only when the peer is a --trust-proxy
// address, only to http or https, and each scheme's page is cached apart,
// so one reader's scheme never reaches another.
func TestForwardedSchemeOnlyFromTrustedProxies(t *testing.T) {
	_, proxy, _ := net.ParseCIDR("10.0.0.0/8")
	s := newPagesServer(t, true, Config{Hosts: []string{"errkb.example"}, TrustedProxies: []*net.IPNet{proxy}})
	link := func(res *http.Response) string {
		d := doc(t, res)
		return d.Find("code.stable-url").Text()
	}
	for _, tc := range []struct {
		name, remote string
		header       []string
		want         string
	}{
		{"untrusted https", "192.0.2.1:1", []string{"X-Forwarded-Proto", "https"}, "http://"},
		{"untrusted ssl", "127.0.0.1:1", []string{"X-Forwarded-Ssl", "on"}, "http://"},
		{"trusted https", "10.1.2.3:1", []string{"X-Forwarded-Proto", "https"}, "https://"},
		{"trusted chain", "10.1.2.3:1", []string{"X-Forwarded-Proto", "http, https"}, "https://"},
		{"trusted ssl", "10.1.2.3:1", []string{"X-Forwarded-Ssl", "on"}, "https://"},
		{"trusted url-scheme", "10.1.2.3:1", []string{"X-Url-Scheme", "https"}, "https://"},
		{"trusted wss", "10.1.2.3:1", []string{"X-Forwarded-Proto", "wss"}, "http://"},
		{"plain after https", "192.0.2.1:1", nil, "http://"},
	} {
		got := link(pageFrom(t, s, seedPath, "errkb.example", tc.remote, tc.header...))
		if want := tc.want + "errkb.example" + seedPath; got != want {
			t.Errorf("%s: link box %q, want %q", tc.name, got, want)
		}
	}
	// The same through robots.txt, which is not cached.
	res := pageFrom(t, s, "/robots.txt", "errkb.example", "192.0.2.1:1", "X-Forwarded-Proto", "https")
	if b := body(t, res); !strings.Contains(b, "Sitemap: http://errkb.example/sitemap.xml") {
		t.Errorf("robots.txt believed an untrusted X-Forwarded-Proto:\n%s", b)
	}
}

// TestCacheKeySeesTheRouterPath: a path whose '/' is escaped is routed as
// one segment, so it names a project, not a record, and answers 404 both
// before and after the record page is cached, counted under the route the
// router chose. Spelling letters escaped ("%6F") makes no new entry.
func TestCacheKeySeesTheRouterPath(t *testing.T) {
	s := newPagesServer(t, true, Config{})
	const escaped = "/errors/nats-io%2Fnats-server/js-consumer-offline"
	status := func(target string) int {
		return fetch(t, s, target).StatusCode
	}
	if got := status(escaped); got != http.StatusNotFound {
		t.Fatalf("%s before caching: %d, want 404", escaped, got)
	}
	if got := status(seedPath); got != 200 {
		t.Fatalf("%s: %d", seedPath, got)
	}
	if got := status(escaped); got != http.StatusNotFound {
		t.Errorf("%s after caching the record page: %d, want 404", escaped, got)
	}
	entries := s.responses.Len()
	status("/errors/nats-io/nats-server/js-consumer-%6Ffflin%65")
	if n := s.responses.Len(); n != entries {
		t.Errorf("escaped letters made a new cache entry (%d, was %d)", n, entries)
	}
	m := body(t, fetch(t, s, "/metrics"))
	if want := `errkb_http_requests_total{method="GET",route="/errors/:owner/:repo",status="404"} 2`; !strings.Contains(m, want) {
		t.Errorf("metrics lack %s:\n%s", want, grepLines(m, "requests_total"))
	}
}

// TestRedirectsAreCleaned: the trailing-slash redirect sends a cleaned
// path, never one with dot segments or a leading "//".
func TestRedirectsAreCleaned(t *testing.T) {
	s := newPagesServer(t, false, Config{})
	for target, want := range map[string]string{
		"/..//evil.com/":           "/evil.com",
		"/errors/./x/../nats-io/":  "/errors/nats-io",
		"/a//b///":                 "/a/b",
		"/..%2f..%2fevil.com/":     "/evil.com",
		"/%2e%2e//evil.com/":       "/evil.com",
		"/errors/nats-io/?q=1":     "/errors/nats-io?q=1",
		"/\\evil.com/":             "/%5Cevil.com",
		"/errors/../../../etc/x/":  "/etc/x",
		"/tags/a%20b/":             "/tags/a%20b",
		"/errors/nats-io/./../../": "/",
	} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL, req.RequestURI = mustParse(t, target), target
		res := do(s, req)
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusMovedPermanently || loc != want {
			t.Errorf("%s: %d to %q, want 301 to %q", target, res.StatusCode, loc, want)
		}
		if strings.Contains(loc, "/.") || !onSite(loc) {
			t.Errorf("%s: Location %q keeps a dot segment or leaves the site", target, loc)
		}
	}
}
