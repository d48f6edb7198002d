package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// What a raw-socket review of the two request paths found, each a test
// that failed before its fix.

// rawAfterAnswer sends first on a new connection to addr, reads its
// answer, then sends then, half-closes when fin is set, and returns
// everything the server wrote after the first answer until it closed.
func rawAfterAnswer(t *testing.T, addr, first, then string, fin bool) string {
	t.Helper()
	c := dialTest(t, addr)
	defer c.Close()
	br := bufio.NewReader(c)
	if first != "" {
		_, _ = io.WriteString(c, first)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("first answer: %v", err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	_, _ = io.WriteString(c, then)
	if fin {
		_ = c.(*net.TCPConn).CloseWrite()
	}
	rest, err := io.ReadAll(br)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("%q then %q: the server never closed the connection", first, then)
	}
	return normalize(string(rest))
}

// TestWirePathStrayBytesAfterAnswer: bytes too few to be a request after
// a cached answer (a stray CRLF, the start of a request) draw no answer
// when the client half-closes or goes quiet, as on net/http, which waits
// for four bytes between requests and closes without a word when they do
// not come.
func TestWirePathStrayBytesAfterAnswer(t *testing.T) {
	p := newWirePair(t, true)
	page := "/errors/" + p.plain.ds.Records[0].Path()
	req := "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
	converse(t, p.fastAddr, []string{req}, false) // cached from here on
	for _, tc := range []struct {
		name, then string
		fin        bool
	}{
		{"CRLF and FIN", "\r\n", true},
		{"CRLF and quiet", "\r\n", false},
		{"LF and FIN", "\n", true},
		{"three bytes and FIN", "GET", true},
		{"three bytes and quiet", "GET", false},
	} {
		want := rawAfterAnswer(t, p.plainAddr, req, tc.then, tc.fin)
		got := rawAfterAnswer(t, p.fastAddr, req, tc.then, tc.fin)
		if got != want {
			t.Errorf("%s: net/http wrote %q, the wire path %q", tc.name, want, got)
		}
	}
}

// TestWirePathHeaderTimeoutAsNetHTTP: when the read-header timeout ends a
// request head, both paths do what net/http does: a 400 when the head
// stops inside its request line or inside a header name, nothing when it
// stops at a line's end or inside a value. The wire path hands such a
// head to net/http with the deadline already passed rather than copying
// its rules.
func TestWirePathHeaderTimeoutAsNetHTTP(t *testing.T) {
	p := newWirePair(t, true)
	page := "/errors/" + p.plain.ds.Records[0].Path()
	req := "GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"
	converse(t, p.fastAddr, []string{req}, false)
	saw400 := false
	for _, first := range []string{"", req} {
		for _, head := range []string{
			"GET " + page + " HTT",
			"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nX-Partial",
			"GET " + page + " HTTP/1.1\r\nHost: loc",
			"GET " + page + " HTTP/1.1\r\n",
		} {
			want := rawAfterAnswer(t, p.plainAddr, first, head, false)
			got := rawAfterAnswer(t, p.fastAddr, first, head, false)
			if got != want {
				t.Errorf("after %q, head %q: net/http wrote %q, the wire path %q", first, head, want, got)
			}
			saw400 = saw400 || strings.HasPrefix(want, "HTTP/1.1 400 ")
		}
	}
	if !saw400 {
		t.Error("net/http never answered 400 on a timed-out head: the test tests nothing")
	}
}

// TestWirePathConnectionTokensFoldASCIIOnly: Connection options are ASCII
// tokens (RFC 9110 7.6.1) and net/http folds their case in ASCII only, so
// "\u212Aeep-alive" (KELVIN SIGN) keeps no HTTP/1.0 connection open and
// "clo\u017Fe" (LONG S) closes no HTTP/1.1 one; the wire path agrees.
func TestWirePathConnectionTokensFoldASCIIOnly(t *testing.T) {
	p := newWirePair(t, false)
	page := "/errors/" + p.plain.ds.Records[0].Path()
	for _, addr := range []string{p.plainAddr, p.fastAddr} {
		converse(t, addr, []string{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\n\r\n"}, false)
	}
	for _, reqs := range [][]string{
		{"GET " + page + " HTTP/1.0\r\nHost: localhost\r\nConnection: \u212Aeep-alive\r\n\r\n"},
		{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nConnection: clo\u017Fe\r\n\r\n"},
		{"GET " + page + " HTTP/1.0\r\nHost: localhost\r\nConnection: KEEP-ALIVE\r\n\r\n"},
		{"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nConnection: CLOSE\r\n\r\n"},
	} {
		want := normalize(converse(t, p.plainAddr, reqs, false))
		if got := normalize(converse(t, p.fastAddr, reqs, false)); got != want {
			t.Errorf("%q: answers differ at %s", reqs[0], firstDiff(want, got))
		}
	}
	if p.fl.Answered() == 0 {
		t.Error("the wire path answered nothing: the test compares net/http with itself")
	}
}

// failingListener is a listener whose Accept fails with EMFILE, as when
// the process is out of file descriptors, once its first connection has
// been accepted and while failing is set.
type failingListener struct {
	net.Listener
	failing  atomic.Bool
	failures atomic.Int64
}

func (l *failingListener) Accept() (net.Conn, error) {
	if l.failing.Load() {
		l.failures.Add(1)
		time.Sleep(time.Millisecond) // a real accept(2) failing this way returns at once; spare the CPU
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}

// countingAccepts counts the errors net/http's Accept loop is given; each
// one makes it sleep before it asks again, and a hand-off waits for that.
type countingAccepts struct {
	net.Listener
	errs atomic.Int64
}

func (l *countingAccepts) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		l.errs.Add(1)
	}
	return c, err
}

// TestWirePathHandOffWhileAcceptFails: while accept(2) fails with EMFILE,
// the connections already open still reach net/http at once: the failures
// are the listener's to retry, so net/http never backs off (up to a
// second a time) while a request waits to be handed over.
func TestWirePathHandOffWhileAcceptFails(t *testing.T) {
	s := newTestServer(t, Config{})
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fails := &failingListener{Listener: inner}
	hs := &http.Server{Handler: s}
	testLimits(hs, false)
	var errLog bytes.Buffer
	var mu sync.Mutex
	hs.ErrorLog = log.New(&lockedWriter{w: &errLog, mu: &mu}, "", 0)
	fl := s.FastListener(fails, hs)
	counted := &countingAccepts{Listener: fl}
	go hs.Serve(counted)
	t.Cleanup(func() { hs.Close() })

	page := "/errors/" + s.ds.Records[0].Path()
	c := dialTest(t, inner.Addr().String())
	defer c.Close()
	br := bufio.NewReader(c)
	ask := func(target string) int {
		_, _ = io.WriteString(c, "GET "+target+" HTTP/1.1\r\nHost: localhost\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("GET %s: %v", target, err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	ask(page) // the connection is the wire path's
	fails.failing.Store(true)
	// The accept under way takes this one; the ones after it fail.
	dialTest(t, inner.Addr().String()).Close()
	for i := 0; fails.failures.Load() < 3; i++ {
		if i == 10000 {
			t.Fatal("the listener never failed: the test tests nothing")
		}
		time.Sleep(time.Millisecond)
	}
	if code := ask("/search?q=timeout"); code != http.StatusOK {
		t.Fatalf("search handed over while accept fails: %d", code)
	}
	if n := counted.errs.Load(); n != 0 {
		t.Errorf("net/http was given %d accept errors, each a pause of every hand-off", n)
	}
	mu.Lock()
	logged := errLog.String()
	mu.Unlock()
	if !strings.Contains(logged, "too many open files") {
		t.Errorf("the accept failures are not logged:\n%s", logged)
	}
}

// TestErrorStatusSurvivesCancelledRequest: a request whose context is
// already cancelled (net/http cancels it when the client half-closes after
// sending) still gets the status its log line and metrics give, with a
// body, never an empty 200: the status never depends on whether a page
// could be rendered.
func TestErrorStatusSurvivesCancelledRequest(t *testing.T) {
	var mu sync.Mutex
	var logs bytes.Buffer
	s := newTestServer(t, Config{Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil))})
	for _, tc := range []struct {
		target string
		accept string
		want   int
	}{
		{"/no/such/page", "", http.StatusNotFound},
		{"/errors/no-such/project", "", http.StatusNotFound},
		{"/errors/no-such/project/slug", "text/plain", http.StatusNotFound},
		{"/search?page=x", "", http.StatusBadRequest},
		{"/search?q=timeout", "", StatusClientClosed},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequest(http.MethodGet, tc.target, nil).WithContext(ctx)
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		mu.Lock()
		logs.Reset()
		mu.Unlock()
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		mu.Lock()
		logged := logs.String()
		mu.Unlock()
		if w.Code != tc.want || w.Body.Len() == 0 {
			t.Errorf("GET %s with a cancelled context: %d with %d bytes, want %d with a body", tc.target, w.Code, w.Body.Len(), tc.want)
		}
		if !strings.Contains(logged, fmt.Sprintf("status=%d", w.Code)) {
			t.Errorf("GET %s: answered %d, logged:\n%s", tc.target, w.Code, logged)
		}
	}
}

// TestHalfClosedClientGetsItsStatus: over a real connection, a client
// that sends its request and half-closes (printf ... | nc -N) reads the
// 404 of a missing page, on net/http alone and through the wire path.
func TestHalfClosedClientGetsItsStatus(t *testing.T) {
	p := newWirePair(t, false)
	for _, addr := range []string{p.plainAddr, p.fastAddr} {
		got := rawAfterAnswer(t, addr, "", "GET /no/such/page HTTP/1.1\r\nHost: localhost\r\n\r\n", true)
		if !strings.HasPrefix(got, "HTTP/1.1 404 ") || strings.Contains(got, "Content-Length: 0\r\n") {
			t.Errorf("%s: half-closed request for a missing page got %.200q", addr, got)
		}
	}
}

// deadlineConn records the read deadlines set on a connection.
type deadlineConn struct {
	net.Conn
	mu        sync.Mutex
	deadlines []time.Time // zero: none
}

func (c *deadlineConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadlines = append(c.deadlines, t)
	c.mu.Unlock()
	return c.Conn.SetReadDeadline(t)
}

func (c *deadlineConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadlines = append(c.deadlines, t)
	c.mu.Unlock()
	return c.Conn.SetDeadline(t)
}

// recordingListener hands out deadlineConns.
type recordingListener struct {
	net.Listener
	mu    sync.Mutex
	conns []*deadlineConn
}

func (l *recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	dc := &deadlineConn{Conn: c}
	l.mu.Lock()
	l.conns = append(l.conns, dc)
	l.mu.Unlock()
	return dc, nil
}

// TestWirePathHeadLimitRunsFromAccept: a request head that outgrows the
// wire path's buffer is handed to net/http, and its read-header limit
// still runs from accept, as cmd/errkb/hardening.go promises: no deadline
// set after the first, by either path, lies beyond it or lifts it.
func TestWirePathHeadLimitRunsFromAccept(t *testing.T) {
	s := newTestServer(t, Config{})
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingListener{Listener: inner}
	hs := &http.Server{Handler: s}
	testLimits(hs, true)
	fl := s.FastListener(rec, hs)
	go hs.Serve(fl)
	t.Cleanup(func() { hs.Close() })

	page := "/errors/" + s.ds.Records[0].Path()
	for _, head := range []string{
		// Over the 4 KiB buffer, never finished.
		"GET " + page + " HTTP/1.1\r\nHost: localhost\r\nCookie: " + strings.Repeat("a", 6000),
		// Not one the wire path answers: handed over at once.
		"POST " + page + " HTTP/1.1\r\nHost: localhost\r\n",
	} {
		c := dialTest(t, inner.Addr().String())
		_, _ = io.WriteString(c, head[:10])
		time.Sleep(50 * time.Millisecond) // so that a limit restarted later ends later
		_, _ = io.WriteString(c, head[10:])
		if _, err := io.ReadAll(c); err != nil {
			t.Fatalf("%.20q: %v", head, err)
		}
		c.Close()
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.conns) != 2 {
		t.Fatalf("%d connections accepted, want 2", len(rec.conns))
	}
	for i, c := range rec.conns {
		c.mu.Lock()
		ds := c.deadlines
		c.mu.Unlock()
		if len(ds) == 0 || ds[0].IsZero() {
			t.Fatalf("connection %d: no read-header deadline from accept: %v", i, ds)
		}
		for _, d := range ds[1:] {
			if d.IsZero() || d.After(ds[0]) {
				t.Errorf("connection %d: the head's deadline %v was moved to %v", i, ds[0].Format(time.StampMicro), d.Format(time.StampMicro))
			}
		}
	}
}
