package web

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errkb/errkb/index"
)

// TestSecurityHeadersEveryKindOfAnswer covers the answers not built by a
// page handler: router 404 and 405, redirects, static files, probes,
// metrics, JSON errors and HEAD.
func TestSecurityHeadersEveryKindOfAnswer(t *testing.T) {
	s := newTestServer(t, Config{})
	for _, tt := range []struct {
		method, target string
		status         int
	}{
		{"GET", "/", 200},
		{"HEAD", "/", 200},
		{"PUT", "/", 405},
		{"GET", "/no/such/page", 404},
		{"POST", "/search", 405},
		{"DELETE", "/api/v1/search", 405},
		{"GET", "/errors/", 301},
		{"GET", "/lookup?q=JS_CONSUMER_OFFLINE", 303},
		{"GET", "/static/style.css", 200},
		{"GET", "/static/missing.css", 404},
		{"GET", "/healthz", 200},
		{"GET", "/readyz", 200},
		{"GET", "/metrics", 200},
		{"GET", "/api/v1/openapi.json", 200},
		{"GET", "/api/v1/errors/a/b/c", 404},
		{"GET", "/api/v1/search?limit=x", 400},
	} {
		res := do(s, httptest.NewRequest(tt.method, tt.target, nil))
		what := tt.method + " " + tt.target
		if res.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", what, res.StatusCode, tt.status)
		}
		checkSecurityHeaders(t, what, res)
	}
}

// panicky is a Searcher whose every call panics, standing in for a bug.
type panicky struct{}

func (panicky) Search(context.Context, index.Query) (*index.Result, error) { panic("boom in search") }
func (panicky) Lookup(context.Context, string) (*index.LookupResult, error) {
	panic("boom in lookup")
}

// TestPanicAnswers500 checks that a panicking handler answers a plain 500,
// logs the stack for the operator only, and leaves the server serving.
func TestPanicAnswers500(t *testing.T) {
	var logs bytes.Buffer
	s := New(testDataset(t), Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	s.SetSearcher(panicky{})
	for _, target := range []string{"/search?q=x", "/api/v1/search?q=x", "/api/v1/lookup?q=x", "/lookup?q=x"} {
		res := fetch(t, s, target)
		b := body(t, res)
		if res.StatusCode != http.StatusInternalServerError {
			t.Errorf("%s: status %d, want 500", target, res.StatusCode)
		}
		if strings.Contains(b, "boom") || strings.Contains(b, "goroutine") || strings.Contains(b, ".go:") {
			t.Errorf("%s: the answer shows internals: %s", target, b)
		}
		if strings.HasPrefix(target, "/api/") && !strings.Contains(b, `"code":"internal"`) {
			t.Errorf("%s: want a JSON error, got %s", target, b)
		}
		checkSecurityHeaders(t, target, res)
	}
	if res := fetch(t, s, "/healthz"); res.StatusCode != http.StatusOK {
		t.Errorf("after panics /healthz answers %d", res.StatusCode)
	}
	if res := fetch(t, s, "/errors/nats-io/nats-server"); res.StatusCode != http.StatusOK {
		t.Errorf("after panics a project page answers %d", res.StatusCode)
	}
	if !strings.Contains(logs.String(), "boom in search") || !strings.Contains(logs.String(), "goroutine") {
		t.Errorf("the panic and its stack are not in the log:\n%s", logs.String())
	}
}

// stuck is a Searcher that waits for its context to end, like a search
// that would take forever.
type stuck struct{}

func (stuck) Search(ctx context.Context, _ index.Query) (*index.Result, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
func (stuck) Lookup(ctx context.Context, _ string) (*index.LookupResult, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestRequestDeadline checks that a request stopped by its deadline gets a
// 503 with a message, soon after the deadline.
func TestRequestDeadline(t *testing.T) {
	s := New(testDataset(t), Config{RequestTimeout: 50 * time.Millisecond})
	s.SetSearcher(stuck{})
	for _, target := range []string{"/search?q=x", "/api/v1/search?q=x", "/api/v1/lookup?q=x"} {
		start := time.Now()
		res := fetch(t, s, target)
		took := time.Since(start)
		b := body(t, res)
		if res.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s: status %d, want 503", target, res.StatusCode)
		}
		if !strings.Contains(b, "took too long") {
			t.Errorf("%s: body does not explain the timeout: %s", shorten(b), target)
		}
		if took > time.Second {
			t.Errorf("%s: answered after %v", target, took)
		}
	}
	m := body(t, fetch(t, s, "/metrics"))
	if !strings.Contains(m, "errkb_request_timeouts_total 3") {
		t.Errorf("metrics do not count 3 timeouts:\n%s", grepLines(m, "timeouts"))
	}
}

// TestMetrics checks the series an operator graphs: requests by route
// pattern (never the raw path) and status, latency, queries without a
// match, and the index's size and build time.
func TestMetrics(t *testing.T) {
	s := newTestServer(t, Config{})
	s.IndexBuilt(2, 1500*time.Millisecond)
	for _, target := range []string{
		"/search?q=consumer", "/search?q=zzqxnotaword", "/api/v1/lookup?q=JS_CONSUMER_OFFLINE",
		"/api/v1/lookup?q=zzqxnotaword", "/errors/nope/nope/secret-slug-123", "/no/such/route-456",
	} {
		fetch(t, s, target)
	}
	m := body(t, fetch(t, s, "/metrics"))
	for _, want := range []string{
		`errkb_http_requests_total{method="GET",route="/search",status="200"} 2`,
		`errkb_http_requests_total{method="GET",route="/errors/:owner/:repo/:slug",status="404"} 1`,
		`errkb_http_request_duration_seconds_bucket{route="/search",le="+Inf"} 2`,
		`errkb_queries_total{kind="lookup"} 2`,
		`errkb_queries_no_match_total{kind="lookup"} 1`,
		`errkb_queries_no_match_total{kind="search"} 1`,
		`errkb_index_records 2`,
		`errkb_index_build_seconds 1.5`,
		"errkb_dataset_records " + strconv.Itoa(s.ds.Len()), // the embedded dataset and the hostile record
		`errkb_ready 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	for _, leak := range []string{"secret-slug-123", "route-456"} {
		if strings.Contains(m, leak) {
			t.Errorf("metrics hold the raw path %q: unbounded labels", leak)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", grepLines(m, "errkb_"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestRateLimit checks the per-client limit: off by default, keyed on the
// connection's address so a forged X-Forwarded-For changes nothing, and on
// the forwarded address only when the proxy is trusted.
func TestRateLimit(t *testing.T) {
	from := func(s *Server, remote, xff string) int {
		req := httptest.NewRequest(http.MethodGet, "/search?q=stream", nil)
		req.RemoteAddr = remote
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		return do(s, req).StatusCode
	}
	t.Run("off by default", func(t *testing.T) {
		s := newTestServer(t, Config{})
		for i := range 50 {
			if got := from(s, "192.0.2.1:1000", ""); got != 200 {
				t.Fatalf("request %d: status %d", i, got)
			}
		}
	})
	t.Run("forged forwarded-for is ignored", func(t *testing.T) {
		s := newTestServer(t, Config{RateLimit: 0.001, RateBurst: 3})
		var statuses []int
		for i := range 5 {
			statuses = append(statuses, from(s, "192.0.2.1:1000", "198.51.100."+string(rune('1'+i))))
		}
		if want := []int{200, 200, 200, 429, 429}; !equalInts(statuses, want) {
			t.Errorf("statuses %v, want %v", statuses, want)
		}
		if got := from(s, "192.0.2.2:1000", ""); got != 200 {
			t.Errorf("another client: status %d, want 200", got)
		}
		if got := do(s, withRemote(httptest.NewRequest("GET", "/healthz", nil), "192.0.2.1:1")).StatusCode; got != 200 {
			t.Errorf("/healthz of a limited client: %d, want 200", got)
		}
		if m := body(t, fetch(t, s, "/metrics")); !strings.Contains(m, "errkb_rate_limited_total 2") {
			t.Errorf("metrics do not count 2 refusals:\n%s", grepLines(m, "rate"))
		}
	})
	t.Run("trusted proxy", func(t *testing.T) {
		_, proxy, _ := net.ParseCIDR("127.0.0.1/32")
		s := newTestServer(t, Config{RateLimit: 0.001, RateBurst: 1, TrustedProxies: []*net.IPNet{proxy}})
		if got := from(s, "127.0.0.1:5000", "198.51.100.1"); got != 200 {
			t.Errorf("first client via proxy: %d", got)
		}
		if got := from(s, "127.0.0.1:5000", "198.51.100.2"); got != 200 {
			t.Errorf("second client via proxy: %d, want its own bucket", got)
		}
		// A client prepending a forged address still lands in its own bucket.
		if got := from(s, "127.0.0.1:5000", "203.0.113.9, 198.51.100.1"); got != 429 {
			t.Errorf("forged leftmost entry: %d, want 429 (bucket of 198.51.100.1)", got)
		}
		// An untrusted peer cannot choose its bucket with the header.
		from(s, "192.0.2.7:1", "198.51.100.50")
		if got := from(s, "192.0.2.7:1", "198.51.100.51"); got != 429 {
			t.Errorf("untrusted peer with forged header: %d, want 429", got)
		}
	})
}

func withRemote(r *http.Request, addr string) *http.Request {
	r.RemoteAddr = addr
	return r
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRequestID checks that every answer and its log lines carry one id,
// that a proxy's well-formed id is kept and that anything else is replaced.
func TestRequestID(t *testing.T) {
	var mu sync.Mutex
	var logs bytes.Buffer
	h := slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil)
	s := newTestServer(t, Config{Logger: slog.New(h)})

	res := fetch(t, s, "/search?limit=x&page=0")
	id := res.Header.Get("X-Request-Id")
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-z]+$`).MatchString(id) {
		t.Fatalf("X-Request-Id %q", id)
	}
	mu.Lock()
	n := strings.Count(logs.String(), "request_id="+id)
	mu.Unlock()
	if n < 2 {
		t.Errorf("the id is on %d log lines, want the request line and the refusal:\n%s", n, logs.String())
	}
	if other := fetch(t, s, "/").Header.Get("X-Request-Id"); other == id {
		t.Errorf("two requests share id %q", id)
	}
	for in, keep := range map[string]bool{"proxy-abc.123": true, "bad id\nwith newline": false, strings.Repeat("x", 65): false, "<script>": false} {
		req := httptest.NewRequest("GET", "/healthz", nil)
		req.Header.Set("X-Request-Id", in)
		got := do(s, req).Header.Get("X-Request-Id")
		if (got == in) != keep {
			t.Errorf("incoming id %q: answered %q, kept=%v want %v", in, got, got == in, keep)
		}
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestDrain checks that a draining server reports not ready while it
// still answers everything else.
func TestDrain(t *testing.T) {
	s := newTestServer(t, Config{})
	if res := fetch(t, s, "/readyz"); res.StatusCode != 200 {
		t.Fatalf("/readyz before drain: %d", res.StatusCode)
	}
	s.Drain()
	if res := fetch(t, s, "/readyz"); res.StatusCode != 503 {
		t.Errorf("/readyz while draining: %d, want 503", res.StatusCode)
	}
	for _, target := range []string{"/healthz", "/search?q=stream", "/api/v1/lookup?q=JS_CONSUMER_OFFLINE"} {
		if res := fetch(t, s, target); res.StatusCode != 200 {
			t.Errorf("%s while draining: %d, want 200", target, res.StatusCode)
		}
	}
	if m := body(t, fetch(t, s, "/metrics")); !strings.Contains(m, "errkb_ready 0") {
		t.Errorf("metrics still report ready")
	}
}

// TestClientGone checks that a request whose client leaves mid-search is
// counted and logged as 499, not as a server error.
func TestClientGone(t *testing.T) {
	var logs bytes.Buffer
	s := New(testDataset(t), Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	s.SetSearcher(stuck{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	do(s, httptest.NewRequest(http.MethodGet, "/search?q=x", nil).WithContext(ctx))
	m := body(t, fetch(t, s, "/metrics"))
	if !strings.Contains(m, `errkb_http_requests_total{method="GET",route="/search",status="499"} 1`) || strings.Contains(m, `status="500"`) {
		t.Errorf("a client that left is not counted as 499:\n%s", grepLines(m, "requests_total"))
	}
	if strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "status=499") {
		t.Errorf("log:\n%s", logs.String())
	}
}
