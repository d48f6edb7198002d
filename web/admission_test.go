package web

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/errkb/errkb/index"
)

// gatedSearcher blocks searches for "block" until open is closed, so a
// test can hold the workers busy for as long as it needs.
type gatedSearcher struct {
	Searcher
	open    chan struct{}
	entered chan struct{}
}

func (g gatedSearcher) Search(ctx context.Context, q index.Query) (*index.Result, error) {
	if q.Text == "block" {
		g.entered <- struct{}{}
		select {
		case <-g.open:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.Searcher.Search(ctx, q)
}

// TestAdmissionControl holds the one worker with a search, fills the queue,
// and checks that: more searches answer 503 busy with Retry-After at once;
// one client cannot take the whole queue; an uncached page is refused like
// a search; and cached pages, static files, health checks and metrics are
// answered meanwhile. Then everything admitted completes.
func TestAdmissionControl(t *testing.T) {
	var logMu sync.Mutex
	var logs bytes.Buffer
	s := newTestServer(t, Config{Workers: 1, QueuedWork: 2,
		Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &logMu}, nil))})
	get(t, s, seedPath) // cached
	g := gatedSearcher{Searcher: s.searcher.Load().Searcher, open: make(chan struct{}), entered: make(chan struct{}, 10)}
	s.SetSearcher(g)

	from := func(client, target string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.RemoteAddr = client + ":1000"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w
	}
	var wg sync.WaitGroup
	var admitted []*httptest.ResponseRecorder
	var mu sync.Mutex
	start := func(client string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := from(client, "/search?q=block")
			mu.Lock()
			admitted = append(admitted, w)
			mu.Unlock()
		}()
	}
	waitQueued := func(n int64) {
		for s.work.queued.Load() != n {
			runtime.Gosched()
		}
	}

	start("192.0.2.1") // runs
	<-g.entered
	start("192.0.2.1") // waits
	waitQueued(1)
	// Client 1 holds the worker and half the queue: its share.
	busy := func(what string, w *httptest.ResponseRecorder) {
		t.Helper()
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), "busy") {
			t.Errorf("%s: %d, Retry-After %q; want 503 busy, Retry-After 1", what, w.Code, w.Header().Get("Retry-After"))
		}
	}
	busy("a third search of one client", from("192.0.2.1", "/search?q=other"))
	start("192.0.2.2") // another client still finds room
	waitQueued(2)
	busy("a search with the queue full", from("192.0.2.3", "/api/v1/search?q=stream"))
	busy("an uncached page with the queue full", from("192.0.2.3", "/errors/nats-io/nats-server"))

	for _, target := range []string{seedPath, "/healthz", "/readyz", "/metrics", "/static/style.css", s.assets.URL("app.js"), "/favicon.ico"} {
		if w := from("192.0.2.3", target); w.Code != http.StatusOK {
			t.Errorf("%s while the workers are busy: %d, want 200", target, w.Code)
		}
	}
	logMu.Lock()
	if l := logs.String(); strings.Contains(l, "level=ERROR") || strings.Count(l, "msg=\"request refused\"") != 3 {
		t.Errorf("busy refusals are not logged as 3 refusals (never at Error):\n%s", l)
	}
	logMu.Unlock()
	m := body(t, fetch(t, s, "/metrics"))
	if !strings.Contains(m, "errkb_busy_total 3") {
		t.Errorf("metrics do not count 3 busy refusals:\n%s", grepLines(m, "busy"))
	}

	close(g.open)
	wg.Wait()
	for _, w := range admitted {
		if w.Code != http.StatusOK {
			t.Errorf("an admitted search answered %d", w.Code)
		}
	}
	if n := len(s.work.clients); n != 0 || s.work.queued.Load() != 0 || len(s.work.workers) != 0 {
		t.Errorf("after the load: %d clients, %d queued, %d working; want none", n, s.work.queued.Load(), len(s.work.workers))
	}
}

// TestAdmissionWaitEndsWithTheRequest: a request waiting in the queue
// whose client leaves gives up its place.
func TestAdmissionWaitEndsWithTheRequest(t *testing.T) {
	a := newAdmission(1, 4)
	if a.acquire(context.Background(), "x") != admitted {
		t.Fatal("first acquire refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- a.acquire(ctx, "y") == admitted }()
	for a.queued.Load() != 1 {
		runtime.Gosched()
	}
	cancel()
	if <-done {
		t.Error("a cancelled wait was admitted")
	}
	a.release("x")
	if len(a.clients) != 0 || a.queued.Load() != 0 {
		t.Errorf("left %v clients, %d queued", a.clients, a.queued.Load())
	}
}

// TestAdmissionFairBehindTrustedProxy: behind a --trust-proxy, each client
// named by X-Forwarded-For has its own share, so one flooding client does
// not shut out another coming through the same proxy; a forged entry on
// the left of X-Forwarded-For does not make a new client.
func TestAdmissionFairBehindTrustedProxy(t *testing.T) {
	_, proxy, _ := net.ParseCIDR("10.0.0.0/8")
	s := newTestServer(t, Config{Workers: 1, QueuedWork: 2, TrustedProxies: []*net.IPNet{proxy}})
	g := gatedSearcher{Searcher: s.searcher.Load().Searcher, open: make(chan struct{}), entered: make(chan struct{}, 10)}
	s.SetSearcher(g)
	via := func(xff string) *http.Request {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/search?q=block", nil)
		req.RemoteAddr = "10.0.0.1:5000"
		req.Header.Set("X-Forwarded-For", xff)
		return req
	}
	var wg sync.WaitGroup
	codes := make(chan int, 3)
	run := func(xff string) {
		wg.Add(1)
		go func() { defer wg.Done(); codes <- do(s, via(xff)).StatusCode }()
	}
	run("198.51.100.1")
	<-g.entered
	run("198.51.100.1")
	for s.work.queued.Load() != 1 {
		runtime.Gosched()
	}
	// Client 1 holds its share; a forged left-hand entry is still client 1.
	if got := do(s, via("203.0.113.77, 198.51.100.1")).StatusCode; got != http.StatusServiceUnavailable {
		t.Errorf("client 1 over its share through the proxy: %d, want 503", got)
	}
	run("198.51.100.2")
	for s.work.queued.Load() != 2 {
		runtime.Gosched()
	}
	close(g.open)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Errorf("an admitted search through the proxy answered %d", c)
		}
	}
}
