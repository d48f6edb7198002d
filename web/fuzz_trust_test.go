package web

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequestChosenValues sends a cached page's path, or an arbitrary one,
// with an arbitrary Host, forwarded headers, If-None-Match and If-Match,
// from an untrusted peer. Whatever they hold: the answer is never a 5xx,
// a redirect stays on the site and holds no dot segment, a 200 of the
// record page is byte for byte the page every reader gets, and the cache
// gains no entry for these values.
func FuzzRequestChosenValues(f *testing.F) {
	for _, seed := range [][5]string{
		{seedPath, "evil.example", "https", `"x"`, ""},
		{seedPath, "errkb.example", "wss", "*", ""},
		{"/..//evil.com/", "errkb.example", "", "", ""},
		{"/errors/nats-io%2Fnats-server/js-consumer-offline", "a\x00b", "http, https", `W/"x", "y"`, `"z"`},
		{"/static/style.css", "", "", `W/"a"`, "*"},
		{"/%2e%2e/%2e%2e//x/", "127.0.0.1:1", "HTTPS", ",,,", "W/"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3], seed[4])
	}
	_, proxy, _ := net.ParseCIDR("10.0.0.0/8")
	s := newPagesServer(f, true, Config{Hosts: []string{"errkb.example"}, TrustedProxies: []*net.IPNet{proxy}})
	f.Fuzz(func(t *testing.T, path, host, proto, inm, im string) {
		want := get(t, s, seedPath, "Host", "errkb.example") // cached
		entries := s.responses.Len()

		target := path
		if !strings.HasPrefix(target, "/") {
			target = "/" + target
		}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL, req.RequestURI = mustParse(t, target), target
		req.Host, req.RemoteAddr = host, "192.0.2.7:1234"
		req.Header.Set("X-Forwarded-Proto", proto)
		req.Header.Set("X-Forwarded-Ssl", proto)
		req.Header.Set("If-None-Match", inm)
		req.Header.Set("If-Match", im)
		res := do(s, req)
		b := body(t, res)
		if res.StatusCode >= 500 {
			t.Fatalf("%q: status %d", target, res.StatusCode)
		}
		if loc := res.Header.Get("Location"); loc != "" && (!onSite(loc) || strings.Contains(loc, "/./") || strings.Contains(loc, "/../")) {
			t.Fatalf("%q: redirect to %q", target, loc)
		}
		if req.URL.Path == seedPath && req.URL.RawQuery == "" && res.StatusCode == 200 && b != want.Body.String() {
			t.Fatalf("Host %q, proto %q: the record page differs from every reader's", host, proto)
		}
		if n := s.responses.Len(); n > entries+1 {
			t.Fatalf("%q with Host %q: %d cache entries, was %d", target, host, n, entries)
		}
	})
}
