package web

import (
	"bufio"
	"context"
	"fmt"
	"github.com/errkb/errkb/web/internal/fast"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// wireServer serves s on loopback, through CoalescingListener when
// coalesce is set, and returns its address. conns collects the accepted
// connections, to count their writes.
func wireServer(t testing.TB, s http.Handler, coalesce bool) (addr string, conns func() []*fast.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		got []*fast.Conn
	)
	hs := &http.Server{Handler: s}
	if coalesce {
		ln = CoalescingListener(ln)
		hs.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
			mu.Lock()
			got = append(got, c.(*fast.Conn))
			mu.Unlock()
			return ConnContext(ctx, c)
		}
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String(), func() []*fast.Conn {
		mu.Lock()
		defer mu.Unlock()
		return append([]*fast.Conn(nil), got...)
	}
}

// dialTest connects to addr, with a deadline so that a short answer fails
// the test rather than hang it.
func dialTest(t testing.TB, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	return c
}

// exchangeRaw sends each raw request in turn on one keep-alive connection and
// returns each raw answer, head and body.
func exchangeRaw(t testing.TB, addr string, reqs []string) []string {
	t.Helper()
	c := dialTest(t, addr)
	defer c.Close()
	br := bufio.NewReader(c)
	var out []string
	for _, raw := range reqs {
		if _, err := io.WriteString(c, raw); err != nil {
			t.Fatal(err)
		}
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		res, err := http.ReadResponse(bufio.NewReader(io.TeeReader(br, &b)), req)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		out = append(out, b.String())
	}
	return out
}

// wireVolatile matches what differs between two answers to one request:
// the date and the request id.
var wireVolatile = regexp.MustCompile(`(?m)^(Date|X-Request-Id): .*\r$`)

// Coalescing changes how many system calls an answer takes, never its
// bytes: every answer of the fast path and the router, conditional ones,
// HEAD and gzip among them, is the same byte for byte with and without it,
// and each large cached answer leaves in one write.
func TestCoalescingListenerSameBytesFewerWrites(t *testing.T) {
	s := newTestServer(t, Config{})
	rec := s.ds.Records[0]
	page, api := "/errors/"+rec.Path(), "/api/v1/errors/"+rec.Path()
	plain, _ := wireServer(t, s, false)
	coal, conns := wireServer(t, s, true)

	// Cache the answers, then learn their ETags.
	var etag string
	for _, addr := range []string{plain, coal} {
		for _, res := range exchangeRaw(t, addr, []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET " + api + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}) {
			if etag == "" {
				etag = regexp.MustCompile(`(?m)^Etag: (.*)\r$`).FindStringSubmatch(res)[1]
			}
		}
	}
	if len(s.responses.Get(s.cacheKey(httpRequest(t, page), page)).Pick("").Body()) < 4096 {
		t.Fatal("the test page fits net/http's buffer: it would not test coalescing")
	}
	var reqs []string
	for _, target := range []string{page, api, "/static/" + s.assets.URL("style.css")[len("/static/"):], "/favicon.ico", "/no/such/page", "/search?q=timeout"} {
		for _, extra := range []string{"", "Accept-Encoding: gzip\r\n", "If-None-Match: " + etag + "\r\n", "If-Match: \"other\"\r\n", "Accept: text/plain\r\n"} {
			for _, method := range []string{"GET", "HEAD"} {
				reqs = append(reqs, fmt.Sprintf("%s %s HTTP/1.1\r\nHost: localhost\r\n%s\r\n", method, target, extra))
			}
		}
	}
	want := exchangeRaw(t, plain, reqs)
	got := exchangeRaw(t, coal, reqs)
	for i := range reqs {
		w, g := wireVolatile.ReplaceAllString(want[i], "$1: -"), wireVolatile.ReplaceAllString(got[i], "$1: -")
		if w != g {
			t.Errorf("%q: answers differ with coalescing:\nwithout: %.600q\nwith:    %.600q", reqs[i], w, g)
		}
	}

	// Answers that end the connection, one connection each.
	for _, raw := range []string{
		"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
		"GET " + page + " HTTP/1.0\r\nHost: localhost\r\n\r\n",
		"GET " + api + " HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n",
	} {
		w := wireVolatile.ReplaceAllString(exchangeRaw(t, plain, []string{raw})[0], "$1: -")
		g := wireVolatile.ReplaceAllString(exchangeRaw(t, coal, []string{raw})[0], "$1: -")
		if w != g {
			t.Errorf("%q: answers differ with coalescing:\nwithout: %.600q\nwith:    %.600q", raw, w, g)
		}
	}

	// Large 200s of cached answers: one write each.
	one := []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n", "GET " + api + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}
	before := 0
	for _, c := range conns() {
		before += int(c.Writes())
	}
	exchangeRaw(t, coal, one)
	after := 0
	for _, c := range conns() {
		after += int(c.Writes())
	}
	if after-before != len(one) {
		t.Errorf("%d cached answers took %d writes, want one each", len(one), after-before)
	}
}

func httpRequest(t testing.TB, target string) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, "http://localhost"+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fastServer serves s on loopback through FastListener.
func fastServer(t testing.TB, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: s, ConnContext: ConnContext}
	go hs.Serve(s.FastListener(ln, hs))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// BenchmarkWireCached fetches a cached page over one keep-alive loopback
// connection through net/http, as a client does: what it allocates per
// request is net/http's and the fast path's (the client reads raw bytes).
func BenchmarkWireCached(b *testing.B) {
	for _, kind := range []struct {
		name, prefix, header string
		coalesce             bool
	}{
		{"page", "/errors/", "", true},
		{"page/plain-listener", "/errors/", "", false},
		{"api", "/api/v1/errors/", "", true},
		{"page/gzip", "/errors/", "Accept-Encoding: gzip\r\n", true},
		{"page/wire", "/errors/", "", true},
		{"api/wire", "/api/v1/errors/", "", true},
	} {
		b.Run(kind.name, func(b *testing.B) {
			s := benchServer(b, 1000)
			var addr string
			if strings.HasSuffix(kind.name, "/wire") {
				addr = fastServer(b, s)
			} else {
				addr, _ = wireServer(b, s, kind.coalesce)
			}
			raw := []byte("GET " + kind.prefix + s.ds.Records[0].Path() + " HTTP/1.1\r\nHost: localhost\r\n" + kind.header + "\r\n")
			c, err := net.Dial("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			br := bufio.NewReaderSize(c, 64<<10)
			buf := make([]byte, 64<<10)
			fetch := func() {
				if _, err := c.Write(raw); err != nil {
					b.Fatal(err)
				}
				n := -1
				for {
					line, err := br.ReadSlice('\n')
					if err != nil {
						b.Fatal(err)
					}
					if len(line) <= 2 {
						break
					}
					if v, ok := strings.CutPrefix(string(line), "Content-Length: "); ok {
						fmt.Sscan(v, &n)
					}
				}
				if n < 0 {
					b.Fatal("no Content-Length")
				}
				if _, err := io.ReadFull(br, buf[:n]); err != nil {
					b.Fatal(err)
				}
			}
			fetch()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				fetch()
			}
		})
	}
}
