package exchange

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// series is reg's exposition, as /metrics shows it.
func series(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	w := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	return w.Body.String()
}

// TestDone: one request is one log line with its attributes, one count
// under its route, method and status, and no request left in flight.
func TestDone(t *testing.T) {
	var logs bytes.Buffer
	reg := prometheus.NewRegistry()
	x := New(slog.New(slog.NewTextHandler(&logs, nil)), reg)
	for _, tc := range []struct {
		method, wantMethod string
		status             int
	}{
		{"GET", "GET", 404}, {"HEAD", "HEAD", 200}, {"BREW", "other", 405},
	} {
		logs.Reset()
		x.Begin()
		if m := series(t, reg); !strings.Contains(m, "errkb_http_requests_in_flight 1\n") {
			t.Fatalf("not in flight after Begin:\n%s", m)
		}
		x.Done(context.Background(), Request{Route: "/x/:n", ID: "id-1", Method: tc.method, Path: "/x/1",
			Status: tc.status, Start: time.Now(), Client: "192.0.2.7"})
		line := logs.String()
		for _, want := range []string{"msg=request", "request_id=id-1", "method=" + tc.method, "path=/x/1",
			"status=" + strconv.Itoa(tc.status), "latency=", "client=192.0.2.7"} {
			if !strings.Contains(line, want) {
				t.Errorf("%s: log line lacks %s: %s", tc.method, want, line)
			}
		}
		if n := strings.Count(line, "\n"); n != 1 {
			t.Errorf("%s: %d log lines", tc.method, n)
		}
		m := series(t, reg)
		if want := `errkb_http_requests_total{method="` + tc.wantMethod + `",route="/x/:n",status="` + strconv.Itoa(tc.status) + `"} 1` + "\n"; !strings.Contains(m, want) {
			t.Errorf("%s: no %s in\n%s", tc.method, want, m)
		}
		if !strings.Contains(m, "errkb_http_requests_in_flight 0\n") || !strings.Contains(m, `errkb_http_request_duration_seconds_count{route="/x/:n"}`) {
			t.Errorf("%s: in flight or latency wrong after Done:\n%s", tc.method, m)
		}
	}
}

// TestRequestID: a well-formed id from a proxy is kept; anything else is
// replaced by a fresh one, so no client writes what it likes into the log.
func TestRequestID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kept bool
	}{
		{"abc-123.x:y_z", true},
		{strings.Repeat("a", 64), true},
		{strings.Repeat("a", 65), false},
		{"", false},
		{"<script>", false},
		{"a b", false},
		{"é", false},
	} {
		got := RequestID(tc.in)
		if kept := got == tc.in; kept != tc.kept {
			t.Errorf("RequestID(%q) = %q; kept %v, want %v", tc.in, got, kept, tc.kept)
		}
		if !ValidID(got) {
			t.Errorf("RequestID(%q) = %q, not itself a valid id", tc.in, got)
		}
	}
	if a, b := RequestID(""), RequestID(""); a == b {
		t.Errorf("two fresh ids are the same: %q", a)
	}
}
