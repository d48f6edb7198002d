package fast

import (
	"bufio"
	"bytes"
	"net/http"
	"net/textproto"
	"slices"
	"testing"

	"golang.org/x/net/http/httpguts"
)

// FuzzParseHead: parseHead never panics, and every request head it takes
// for the wire path is one net/http reads the same way (method, target,
// protocol, every header field in order, Host, keep-alive) and its server
// would take as it is (a valid Host, valid header names and values, no
// body), with a path that is the target itself.
func FuzzParseHead(f *testing.F) {
	for _, s := range []string{
		"GET /errors/a/b/c HTTP/1.1\r\nHost: localhost\r\n\r\n",
		"HEAD /api/v1/errors/a/b/c HTTP/1.0\r\nHost: 127.0.0.1:8080\r\nConnection: keep-alive\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: [::1]:80\r\nAccept-Encoding: gzip, br\r\nIf-None-Match: W/\"x\"\r\nX-Request-Id: a.b\r\nAccept: */*\r\nConnection: close\r\n\r\nGET / HTTP/1.1\r\n",
		"GET /static/style.css HTTP/1.1\r\nhost: x\r\naccept-encoding:\tgzip \r\nUser-Agent: \xff\xfe\r\n\r\n",
		"GET /x HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
		"GET /x HTTP/1.1\nHost: a\n\n",
		"GET /x HTTP/1.1\r\nHost: a\r\nX: 1\r\n 2\r\n\r\n",
		"GET /x?y HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /%41 HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
		"GET /x HTTP/1.1\r\nHost: a\r\nX-A: a\rb\r\n\r\n",
		"GET /x HTTP/1.1\r\nHost:  \r\n\r\n",
		"POST /x HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET //a/../b HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET / HTTP/1.0\r\nHost: a\r\nConnection: \u212Aeep-alive\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: a\r\nConnection: clo\u017Fe\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var req wireRequest
		r := parseHead(b, &req)
		if r != headFast {
			return
		}
		head := b[:req.size]
		hr, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
		if err != nil {
			t.Fatalf("parseHead took %q; net/http: %v", head, err)
		}
		method := map[bool]string{true: http.MethodHead, false: http.MethodGet}[req.head]
		proto := map[bool]string{true: "HTTP/1.0", false: "HTTP/1.1"}[req.http10]
		target := string(req.target)
		if hr.Method != method || hr.RequestURI != target || hr.Proto != proto ||
			hr.URL.Path != target || hr.URL.EscapedPath() != target || hr.URL.RawQuery != "" || hr.URL.Host != "" {
			t.Fatalf("%q: parseHead read %s %s %s; net/http %s %q (path %q, escaped %q, query %q, host %q) %s",
				head, method, target, proto, hr.Method, hr.RequestURI, hr.URL.Path, hr.URL.EscapedPath(), hr.URL.RawQuery, hr.URL.Host, hr.Proto)
		}
		got := http.Header{}
		for _, kv := range req.fields[:req.nField] {
			k := textproto.CanonicalMIMEHeaderKey(string(kv[0]))
			got[k] = append(got[k], string(kv[1]))
		}
		hosts := got["Host"]
		delete(got, "Host") // http.ReadRequest moves it to Request.Host
		if !equalHeaders(got, hr.Header) {
			t.Fatalf("%q: parseHead read headers %q; net/http %q", head, got, hr.Header)
		}
		for name, want := range map[string][]byte{"Accept": req.accept, "Accept-Encoding": req.acceptEncoding,
			"If-None-Match": req.ifNoneMatch, "X-Request-Id": req.requestID} {
			if hr.Header.Get(name) != string(want) {
				t.Fatalf("%q: %s %q, net/http %q", head, name, want, hr.Header.Get(name))
			}
		}
		// What net/http's server checks before a handler runs.
		if hr.Host != string(req.host) || !httpguts.ValidHostHeader(hr.Host) || len(hosts) != 1 || hosts[0] != hr.Host {
			t.Fatalf("%q: Host %q, net/http %q", head, req.host, hr.Host)
		}
		for k, vv := range hr.Header {
			if !httpguts.ValidHeaderFieldName(k) || slices.ContainsFunc(vv, func(v string) bool { return !httpguts.ValidHeaderFieldValue(v) }) {
				t.Fatalf("%q: net/http's server refuses header %q: %q", head, k, vv)
			}
		}
		if hr.ContentLength != 0 || len(hr.TransferEncoding) != 0 || hr.Header.Get("Expect") != "" || hr.Header.Get("Upgrade") != "" || hr.Header.Get("If-Match") != "" {
			t.Fatalf("%q: taken with a body, an expectation, an upgrade or If-Match", head)
		}
		if wantClose := req.close || req.http10 && !req.keepAlive; hr.Close != wantClose {
			t.Fatalf("%q: close %v, net/http %v", head, wantClose, hr.Close)
		}
		// The same head cut short is never taken.
		for i := range head {
			if parseHead(head[:i], &req) == headFast {
				t.Fatalf("%q taken cut to %d bytes", head, i)
			}
		}
	})
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
