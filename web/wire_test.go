package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errkb/errkb/internal/indextest"
)

// wirePair is two servers of one dataset with the same limits: one served
// by net/http alone (as before the wire path), one through FastListener.
type wirePair struct {
	plain, fast         *Server
	plainAddr, fastAddr string
	plainLog, fastLog   *bytes.Buffer
	fl                  *FastListener
	hs, plainHS         *http.Server
	mu                  sync.Mutex
}

// testLimits are the timeouts and header cap of both servers of a pair:
// errkb serve's, with short timeouts where a test waits for one.
func testLimits(hs *http.Server, short bool) {
	hs.ReadHeaderTimeout, hs.ReadTimeout, hs.WriteTimeout, hs.IdleTimeout = 10*time.Second, 30*time.Second, 60*time.Second, 2*time.Minute
	if short {
		hs.ReadHeaderTimeout, hs.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond
	}
	hs.MaxHeaderBytes = 16 << 10
	hs.ConnContext = ConnContext
}

func newWirePair(t *testing.T, short bool) *wirePair { return newWirePairConfig(t, short, Config{}) }

// newWirePairConfig is newWirePair with cfg for both servers (its Logger is
// the pair's).
func newWirePairConfig(t *testing.T, short bool, cfg Config) *wirePair {
	t.Helper()
	ds := testDataset(t)
	ix := indextest.Build(t, ds)
	p := &wirePair{plainLog: &bytes.Buffer{}, fastLog: &bytes.Buffer{}}
	serve := func(logs *bytes.Buffer, fast bool) (*Server, string) {
		cfg.Logger = slog.New(slog.NewTextHandler(&lockedWriter{w: logs, mu: &p.mu}, nil))
		s := New(ds, cfg)
		s.SetSearcher(ix)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hs := &http.Server{Handler: s}
		testLimits(hs, short)
		var l net.Listener = CoalescingListener(ln)
		if fast {
			p.fl, p.hs = s.FastListener(ln, hs), hs
			l = p.fl
		} else {
			p.plainHS = hs
		}
		go hs.Serve(l)
		t.Cleanup(func() { hs.Close() })
		return s, ln.Addr().String()
	}
	p.plain, p.plainAddr = serve(p.plainLog, false)
	p.fast, p.fastAddr = serve(p.fastLog, true)
	return p
}

// converse sends the requests of one connection, all at once when
// pipelined, else each after the answer to the one before; it returns
// the raw answers and whether the connection was still open after them
// (a /healthz probe is answered).
func converse(t *testing.T, addr string, reqs []string, pipelined bool) string {
	t.Helper()
	c := dialTest(t, addr)
	defer c.Close()
	var out strings.Builder
	br := bufio.NewReader(io.TeeReader(c, &out))
	read := func(raw string) bool {
		method := http.MethodGet
		if strings.HasPrefix(raw, "HEAD ") {
			method = http.MethodHead
		}
		res, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			return false
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return err == nil
	}
	open := true
	if pipelined {
		_, _ = io.WriteString(c, strings.Join(reqs, ""))
		for _, raw := range reqs {
			if open = read(raw); !open {
				break
			}
		}
	} else {
		for _, raw := range reqs {
			if _, err := io.WriteString(c, raw); err != nil {
				open = false
				break
			}
			if open = read(raw); !open {
				break
			}
		}
	}
	probe := "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
	if open {
		_, err := io.WriteString(c, probe)
		open = err == nil && read(probe)
	}
	return out.String() + map[bool]string{true: "\n[open]", false: "\n[closed]"}[open]
}

// wireGenerated matches what differs between the two servers' answers to
// one request: the date, and request ids the servers made up (ids sent by
// the client are kept, so they must match).
var wireGenerated = regexp.MustCompile(`(?m)^(Date: .*|X-Request-Id: [0-9a-f]{8}-[0-9a-z]+)\r$`)

func normalize(s string) string { return wireGenerated.ReplaceAllString(s, "-") }

// TestWirePathAnswersAsNetHTTP: the same requests over raw TCP to a server
// with the wire path and to one without get the same bytes but the date,
// over connections that stay open or close the same way; the two servers
// log the same lines and count the same series.
func TestWirePathAnswersAsNetHTTP(t *testing.T) {
	p := newWirePair(t, false)
	recs := p.plain.ds.Records
	page, api := "/errors/"+recs[0].Path(), "/api/v1/errors/"+recs[0].Path()
	missPage, missAPI := "/errors/"+recs[1].Path(), "/api/v1/errors/"+recs[2].Path()
	css := p.plain.assets.URL("style.css")
	for _, addr := range []string{p.plainAddr, p.fastAddr} {
		converse(t, addr, []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET " + api + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false)
	}
	var etag, gzTag string
	for _, addr := range []string{p.plainAddr, p.fastAddr} {
		etag = regexp.MustCompile(`(?m)^Etag: (.*)\r$`).FindStringSubmatch(converse(t, addr, []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false))[1]
		gzTag = regexp.MustCompile(`(?m)^Etag: (.*)\r$`).FindStringSubmatch(converse(t, addr, []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n"}, false))[1]
	}
	p.plainLog.Reset()
	p.fastLog.Reset()
	plainMetrics, fastMetrics := requestSeries(t, p.plain), requestSeries(t, p.fast)

	get := func(target string, header ...string) string {
		return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + strings.Join(header, "") + "\r\n"
	}
	cases := []struct {
		name      string
		reqs      []string
		pipelined bool
	}{
		{"page", []string{get(page)}, false},
		{"API record", []string{get(api)}, false},
		{"HEAD", []string{"HEAD " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false},
		{"keep-alive, three hits", []string{get(page), get(api), get(page)}, false},
		{"gzip", []string{get(page, "Accept-Encoding: gzip, deflate, br\r\n")}, false},
		{"gzip;q=0", []string{get(page, "Accept-Encoding: gzip;q=0\r\n")}, false},
		{"Accept-Encoding twice", []string{get(page, "Accept-Encoding: identity\r\n", "Accept-Encoding: gzip\r\n")}, false},
		{"If-None-Match", []string{get(page, "If-None-Match: "+etag+"\r\n")}, false},
		{"If-None-Match weak in a list", []string{get(page, "If-None-Match: \"x\", W/"+etag+"\r\n")}, false},
		{"If-None-Match gzip", []string{get(page, "Accept-Encoding: gzip\r\n", "If-None-Match: "+gzTag+"\r\n")}, false},
		{"If-None-Match other", []string{get(page, "If-None-Match: \"other\"\r\n")}, false},
		{"If-None-Match *, HEAD", []string{"HEAD " + api + " HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: *\r\n\r\n"}, false},
		{"If-Modified-Since", []string{get(page, "If-Modified-Since: Tue, 01 Dec 2026 00:00:00 GMT\r\n")}, false},
		{"If-Match fails", []string{get(page, "If-Match: \"other\"\r\n"), get(page)}, false},
		{"HTTP/1.0", []string{"GET " + page + " HTTP/1.0\r\nHost: localhost\r\n\r\n"}, false},
		{"HTTP/1.0 keep-alive", []string{"GET " + api + " HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n", "HEAD " + page + " HTTP/1.0\r\nHost: localhost\r\nConnection: Keep-Alive\r\n\r\n"}, false},
		{"HTTP/1.0 keep-alive 304", []string{"GET " + page + " HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\nIf-None-Match: " + etag + "\r\n\r\n"}, false},
		{"HTTP/1.0 without Host", []string{"GET " + page + " HTTP/1.0\r\n\r\n"}, false},
		{"Connection: close", []string{get(page, "Connection: close\r\n")}, false},
		{"Connection: keep-alive", []string{get(page, "Connection: keep-alive\r\n"), get(api)}, false},
		{"Connection: keep-alive, close", []string{get(page, "Connection: keep-alive, close\r\n")}, false},
		{"pipelined hits", []string{get(page), get(api, "Accept-Encoding: gzip\r\n")}, true},
		{"pipelined hit, close", []string{get(api), get(page, "Connection: close\r\n"), get(api)}, true},
		{"pipelined hit, miss, hit", []string{get(page), get("/search?q=timeout"), get(api)}, true},
		{"miss then hit", []string{get(missPage), get(missPage), get(missAPI), get(missAPI)}, false},
		{"static", []string{get(css), get("/static/style.css", "Accept-Encoding: gzip\r\n"), get("/favicon.ico")}, false},
		{"no such static file", []string{get("/static/nope.css")}, false},
		{"404", []string{get("/no/such/page")}, false},
		{"trailing slash", []string{get(page + "/")}, false},
		{"query", []string{get(page + "?x=1"), get(page + "?")}, false},
		{"escaped path", []string{get(strings.Replace(page, "/errors/", "/%65rrors/", 1))}, false},
		{"Accept: text/plain", []string{get(page, "Accept: text/plain\r\n")}, false},
		{"request id kept", []string{get(page, "X-Request-Id: client-id.1\r\n")}, false},
		{"request id replaced", []string{get(page, "X-Request-Id: <script>\r\n")}, false},
		{"forged Host", []string{"GET " + page + " HTTP/1.1\r\nHost: evil.example\r\n\r\n", "GET " + api + " HTTP/1.1\r\nHost: LOCALHOST\r\n\r\n"}, false},
		{"Host empty", []string{"GET " + page + " HTTP/1.1\r\nHost:\r\n\r\n"}, false},
		{"Host malformed", []string{"GET " + page + " HTTP/1.1\r\nHost: a b\r\n\r\n"}, false},
		{"Host twice", []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n"}, false},
		{"no Host", []string{"GET " + page + " HTTP/1.1\r\n\r\n"}, false},
		{"bare LF", []string{"GET " + page + " HTTP/1.1\nHost: localhost\n\n"}, false},
		{"folded header", []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nX-A: 1\r\n 2\r\n\r\n"}, false},
		{"bad header name", []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nBad Name: 1\r\n\r\n"}, false},
		{"space before colon", []string{"GET " + page + " HTTP/1.1\r\nHost : localhost\r\n\r\n"}, false},
		{"control byte in value", []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nX-A: a\x01b\r\n\r\n"}, false},
		{"lower-case method", []string{"get " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false},
		{"two spaces", []string{"GET  " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false},
		{"HTTP/1.2", []string{"GET " + page + " HTTP/1.2\r\nHost: localhost\r\n\r\n"}, false},
		{"HTTP/2.0", []string{"GET " + page + " HTTP/2.0\r\nHost: localhost\r\n\r\n"}, false},
		{"absolute target", []string{"GET http://localhost" + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false},
		{"POST", []string{"POST " + page + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc", get(page)}, false},
		{"GET with a body", []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc", get(api)}, false},
		{"GET chunked", []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", get(api)}, false},
		{"Expect", []string{get(page, "Expect: 100-continue\r\n")}, false},
		{"Upgrade", []string{get(page, "Connection: Upgrade\r\n", "Upgrade: websocket\r\n")}, false},
		{"head over 4 KiB", []string{get(page, "Cookie: "+strings.Repeat("a", 6000)+"\r\n"), get(api)}, false},
		{"head over the limit", []string{get(page, "Cookie: "+strings.Repeat("a", 40000)+"\r\n")}, false},
	}
	for _, tc := range cases {
		want := normalize(converse(t, p.plainAddr, tc.reqs, tc.pipelined))
		got := normalize(converse(t, p.fastAddr, tc.reqs, tc.pipelined))
		if got != want {
			t.Errorf("%s: the wire path's answers differ from net/http's at %s", tc.name, firstDiff(want, got))
		}
	}
	if p.fl.Answered() == 0 {
		t.Fatal("the wire path answered nothing: the test compares net/http with itself")
	}

	logLine := regexp.MustCompile(`request_id=[0-9a-f]{8}-[0-9a-z]+ |latency=\S+ |time=\S+ `)
	if want, got := logLine.ReplaceAllString(p.plainLog.String(), ""), logLine.ReplaceAllString(p.fastLog.String(), ""); got != want {
		t.Errorf("the logs differ at %s", firstDiff(want, got))
	}
	plainAfter, fastAfter := requestSeries(t, p.plain), requestSeries(t, p.fast)
	if plainMetrics != fastMetrics || plainAfter != fastAfter {
		t.Errorf("the metrics differ\nnet/http:\n%s\nwire path:\n%s", plainAfter, fastAfter)
	}
}

// TestWirePathBehindTrustedProxy: on connections from a trusted proxy the
// wire path reads each request's forwarded headers as net/http's requests
// are read, so the scheme in the page's links, the cache entry and the
// client in the log are the same as without it.
func TestWirePathBehindTrustedProxy(t *testing.T) {
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	p := newWirePairConfig(t, false, Config{TrustedProxies: []*net.IPNet{loopback}})
	page := "/errors/" + p.plain.ds.Records[0].Path()
	get := func(header ...string) string {
		return "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n" + strings.Join(header, "") + "\r\n"
	}
	cases := [][]string{
		{get()},
		{get("X-Forwarded-Proto: https\r\n", "X-Forwarded-For: 203.0.113.7\r\n")},
		{get("x-forwarded-proto: http, https\r\n", "X-Forwarded-For: 198.51.100.1, 203.0.113.8\r\n")},
		{get("X-Forwarded-For: 203.0.113.9\r\n", "X-Forwarded-For: 127.0.0.2\r\n", "X-Url-Scheme: https\r\n")},
		{get("X-Forwarded-Ssl: on\r\n", "X-Forwarded-For: not-an-address\r\n")},
		{get("X-Forwarded-Protocol: ftp\r\n", "X-Forwarded-Proto: HTTPS\r\n"), get("X-Forwarded-Proto: https\r\n")},
		{"GET " + page + " HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Proto: https\r\n\r\n"},
	}
	for pass := range 2 { // the first pass caches each origin's page
		for _, reqs := range cases {
			want := normalize(converse(t, p.plainAddr, reqs, false))
			if got := normalize(converse(t, p.fastAddr, reqs, false)); got != want {
				t.Errorf("pass %d, %q: answers differ at %s", pass, reqs, firstDiff(want, got))
			}
		}
	}
	if n := p.fl.Answered(); n == 0 {
		t.Error("the wire path answered nothing from a trusted proxy")
	}
	logLine := regexp.MustCompile(`request_id=[0-9a-f]{8}-[0-9a-z]+ |latency=\S+ |time=\S+ `)
	want, got := logLine.ReplaceAllString(p.plainLog.String(), ""), logLine.ReplaceAllString(p.fastLog.String(), "")
	if got != want {
		t.Errorf("the logs differ at %s", firstDiff(want, got))
	}
	if !strings.Contains(got, "client=203.0.113.7") || !strings.Contains(got, "client=203.0.113.9") {
		t.Errorf("forwarded clients missing from the log: the test tests nothing:\n%s", got)
	}
	if !strings.Contains(normalize(converse(t, p.fastAddr, cases[1], false)), "https://localhost") {
		t.Error("the forwarded scheme is not in the page: the test tests nothing")
	}
}

// requestSeries are the request counts and latency histogram counts of
// s's /metrics.
func requestSeries(t *testing.T, s *Server) string {
	m := body(t, fetch(t, s, "/metrics"))
	var keep []string
	for _, line := range strings.Split(m, "\n") {
		if strings.HasPrefix(line, "errkb_http_requests_total{") || strings.HasPrefix(line, "errkb_http_request_duration_seconds_count") ||
			strings.HasPrefix(line, "errkb_http_requests_in_flight") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// TestWirePathTimeouts: a connection the wire path serves is closed, with
// no answer, when a request head is not complete within the read-header
// timeout, and when no request comes within the idle timeout, as net/http
// closes its own.
func TestWirePathTimeouts(t *testing.T) {
	p := newWirePair(t, true)
	page := "/errors/" + p.fast.ds.Records[0].Path()
	converse(t, p.fastAddr, []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false)
	for _, addr := range []string{p.plainAddr, p.fastAddr} {
		for _, tc := range []struct{ name, first, then string }{
			{"first head cut short", "GET " + page + " HTTP/1.1\r\nHost: loc", ""},
			{"idle after an answer", "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n", ""},
			{"second head cut short", "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET " + page + " HTTP/1.1\r\n"},
		} {
			c := dialTest(t, addr) // its deadline is far beyond the timeouts: a hang fails
			br := bufio.NewReader(c)
			_, _ = io.WriteString(c, tc.first)
			if strings.HasSuffix(tc.first, "\r\n\r\n") {
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_, _ = io.WriteString(c, tc.then)
			}
			rest, err := io.ReadAll(br)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || len(rest) != 0 {
				t.Errorf("%s: got %q, %v; want the connection closed without an answer", tc.name, rest, err)
			}
			c.Close()
		}
	}
}

// TestWirePathShutdown: Shutdown closes at once the connections the wire
// path serves that wait for a request (after an answer, or their first),
// lets a request that has begun be answered, and Wait returns once that
// connection is closed too.
func TestWirePathShutdown(t *testing.T) {
	p := newWirePair(t, false)
	page := "/errors/" + p.fast.ds.Records[0].Path()
	req := "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
	converse(t, p.fastAddr, []string{req}, false)
	dial := func() (net.Conn, *bufio.Reader) {
		c := dialTest(t, p.fastAddr)
		t.Cleanup(func() { c.Close() })
		return c, bufio.NewReader(c)
	}
	idle, idleR := dial()
	_, _ = io.WriteString(idle, req)
	res, err := http.ReadResponse(idleR, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	busy, busyR := dial()
	_, _ = io.WriteString(busy, req[:20])
	_, freshR := dial() // connected, nothing sent
	// Wait until the server holds the three, the busy one having read its
	// first bytes: one waiting for another request, one for its first,
	// and one reading a request.
	for {
		if busy, fresh, idle := p.fl.States(); busy == 1 && fresh == 1 && idle == 1 {
			break
		}
		time.Sleep(time.Millisecond)
	}

	done := make(chan error, 1)
	go func() { done <- p.hs.Shutdown(context.Background()) }()
	if rest, err := io.ReadAll(idleR); len(rest) != 0 || err != nil {
		t.Errorf("idle connection: got %q, %v; want it closed", rest, err)
	}
	if rest, err := io.ReadAll(freshR); len(rest) != 0 || err != nil {
		t.Errorf("connection with no request: got %q, %v; want it closed", rest, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- p.fl.Wait(context.Background()) }()
	_, _ = io.WriteString(busy, req[20:])
	res, err = http.ReadResponse(busyR, nil)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("request begun before Shutdown: %v, %v", res, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	if rest, err := io.ReadAll(busyR); len(rest) != 0 || err != nil {
		t.Errorf("after its answer: got %q, %v; want the connection closed", rest, err)
	}
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
}

// TestWirePathDrain: once the server drains (SIGTERM, before Shutdown),
// the wire path closes its idle connections, as net/http closes its own
// when keep-alive ends, and a new connection's requests get net/http's
// answer with Connection: close.
func TestWirePathDrain(t *testing.T) {
	p := newWirePair(t, false)
	page := "/errors/" + p.fast.ds.Records[0].Path()
	req := "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
	converse(t, p.plainAddr, []string{req}, false)
	converse(t, p.fastAddr, []string{req}, false)
	idle := dialTest(t, p.fastAddr)
	defer idle.Close()
	idleR := bufio.NewReader(idle)
	_, _ = io.WriteString(idle, req)
	res, err := http.ReadResponse(idleR, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)

	p.plain.Drain()
	p.plainHS.SetKeepAlivesEnabled(false)
	p.fast.Drain()
	p.hs.SetKeepAlivesEnabled(false)
	p.fl.CloseIdle()
	if rest, err := io.ReadAll(idleR); len(rest) != 0 || err != nil {
		t.Errorf("idle connection: got %q, %v; want it closed", rest, err)
	}
	want := normalize(converse(t, p.plainAddr, []string{req, req}, false))
	got := normalize(converse(t, p.fastAddr, []string{req, req}, false))
	if got != want || !strings.Contains(got, "Connection: close") {
		t.Errorf("answers while draining differ at %s\n%s", firstDiff(want, got), got)
	}
}

// TestWirePathCutOffRequest: a request head cut off by the client closing
// its side gets what net/http gives it, after answered requests or alone.
func TestWirePathCutOffRequest(t *testing.T) {
	p := newWirePair(t, false)
	page := "/errors/" + p.plain.ds.Records[0].Path()
	full := "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
	for _, addr := range []string{p.plainAddr, p.fastAddr} {
		converse(t, addr, []string{full}, false)
	}
	for _, raw := range []string{
		"GET " + page + " HTTP/1.1\r\nHost: loc",
		full + "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n",
		full + full,
		"",
	} {
		var answers [2]string
		for i, addr := range []string{p.plainAddr, p.fastAddr} {
			c := dialTest(t, addr)
			_, _ = io.WriteString(c, raw)
			_ = c.(*net.TCPConn).CloseWrite()
			b, err := io.ReadAll(c)
			c.Close()
			if err != nil {
				t.Fatalf("%q: %v", raw, err)
			}
			answers[i] = normalize(string(b))
		}
		if answers[0] != answers[1] {
			t.Errorf("%q: answers differ at %s", raw, firstDiff(answers[0], answers[1]))
		}
		if raw != "" && !strings.HasPrefix(answers[0], "HTTP/1.1 ") {
			t.Errorf("%q: net/http answered %q: the case tests nothing", raw, answers[0])
		}
	}
}
