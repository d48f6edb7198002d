package web

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestFastPathAnswersAsTheRouterDoes: every request the fast path (fast.Path.Serve) takes (cached
// page, API record, static files, favicon; GET and HEAD; gzip; conditional)
// gets the same status, headers and bytes as through the router, and the
// same request log line.
func TestFastPathAnswersAsTheRouterDoes(t *testing.T) {
	var mu sync.Mutex
	var logs bytes.Buffer
	s := newTestServer(t, Config{Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil))})
	api := "/api/v1" + seedPath
	for _, p := range []string{seedPath, api, "/"} {
		get(t, s, p) // cached from here on
	}
	css := s.assets.URL("style.css")
	etag := get(t, s, seedPath).Header().Get("ETag")
	cssTag := get(t, s, css).Header().Get("ETag")
	variants := [][]string{
		nil,
		{"Accept-Encoding", "gzip"},
		{"If-None-Match", etag},
		{"If-None-Match", `"x", W/` + etag},
		{"If-None-Match", cssTag},
		{"If-None-Match", "*"},
		{"If-Match", `"other"`},
		{"If-Match", etag, "If-None-Match", etag},
	}
	logLine := regexp.MustCompile(`msg=request .*`)
	strip := regexp.MustCompile(`request_id=\S+|latency=\S+`)
	for _, target := range []string{seedPath, api, "/", css, "/static/style.css", "/favicon.ico"} {
		for _, method := range []string{http.MethodGet, http.MethodHead} {
			for _, hdr := range variants {
				what := method + " " + target + " " + strings.Join(hdr, ": ")
				req := func() *http.Request {
					r := httptest.NewRequest(method, target, nil)
					for i := 0; i+1 < len(hdr); i += 2 {
						r.Header.Set(hdr[i], hdr[i+1])
					}
					return r
				}
				mu.Lock()
				logs.Reset()
				mu.Unlock()
				fast := httptest.NewRecorder()
				if !s.fast.Serve(fast, req()) {
					t.Fatalf("%s: not answered before the router", what)
				}
				mu.Lock()
				fastLog := strip.ReplaceAllString(logLine.FindString(logs.String()), "")
				logs.Reset()
				mu.Unlock()
				slow := httptest.NewRecorder()
				s.echo.ServeHTTP(slow, req())
				mu.Lock()
				slowLog := strip.ReplaceAllString(logLine.FindString(logs.String()), "")
				mu.Unlock()

				if fast.Code != slow.Code || !bytes.Equal(fast.Body.Bytes(), slow.Body.Bytes()) {
					t.Errorf("%s: fast %d (%d bytes), router %d (%d bytes)", what, fast.Code, fast.Body.Len(), slow.Code, slow.Body.Len())
				}
				fh, sh := fast.Header().Clone(), slow.Header().Clone()
				if fh.Get("X-Request-Id") == "" || sh.Get("X-Request-Id") == "" {
					t.Errorf("%s: no X-Request-Id", what)
				}
				fh.Del("X-Request-Id")
				sh.Del("X-Request-Id")
				if a, b := headerText(fh), headerText(sh); a != b {
					t.Errorf("%s: headers differ\nfast:\n%s\nrouter:\n%s", what, a, b)
				}
				if fastLog == "" || fastLog != slowLog {
					t.Errorf("%s: log lines differ\nfast:   %s\nrouter: %s", what, fastLog, slowLog)
				}
			}
		}
	}
}

func headerText(h http.Header) string {
	var b bytes.Buffer
	_ = h.Write(&b)
	return b.String()
}

// TestConditionalGETs applies http.ServeContent's rules to static files and
// cached pages alike: If-None-Match under the weak comparison, with lists
// and "*", gives 304; a failing If-Match gives 412.
func TestConditionalGETs(t *testing.T) {
	s := newTestServer(t, Config{})
	for _, target := range []string{s.assets.URL("app.js"), "/static/app.js", "/favicon.ico", seedPath} {
		tag := get(t, s, target).Header().Get("ETag")
		if tag == "" {
			t.Fatalf("%s has no ETag", target)
		}
		for _, tc := range []struct {
			header []string
			want   int
		}{
			{[]string{"If-None-Match", tag}, 304},
			{[]string{"If-None-Match", "W/" + tag}, 304},
			{[]string{"If-None-Match", `"a", ` + tag + `, "b"`}, 304},
			{[]string{"If-None-Match", "*"}, 304},
			{[]string{"If-None-Match", `"a", "b"`}, 200},
			{[]string{"If-Match", tag}, 200},
			{[]string{"If-Match", "*"}, 200},
			{[]string{"If-Match", `"a"`}, 412},
			{[]string{"If-Match", "W/" + tag}, 412}, // If-Match compares strongly
		} {
			w := get(t, s, target, tc.header...)
			if w.Code != tc.want {
				t.Errorf("%s with %s: %d, want %d", target, strings.Join(tc.header, ": "), w.Code, tc.want)
			}
			if w.Code != 200 && (w.Body.Len() != 0 || w.Header().Get("ETag") != tag) {
				t.Errorf("%s with %s: %d bytes, ETag %q", target, strings.Join(tc.header, ": "), w.Body.Len(), w.Header().Get("ETag"))
			}
		}
	}
}

// TestFastPathCountsAsTheRouterDoes: requests answered before the router
// are counted under their route patterns and statuses.
func TestFastPathCountsAsTheRouterDoes(t *testing.T) {
	s := newTestServer(t, Config{})
	get(t, s, seedPath)
	tag := get(t, s, seedPath).Header().Get("ETag")
	get(t, s, seedPath, "If-None-Match", tag)
	get(t, s, "/static/style.css")
	do(s, httptest.NewRequest(http.MethodHead, seedPath, nil))
	m := body(t, fetch(t, s, "/metrics"))
	for _, want := range []string{
		`errkb_http_requests_total{method="GET",route="/errors/:owner/:repo/:slug",status="200"} 2`,
		`errkb_http_requests_total{method="GET",route="/errors/:owner/:repo/:slug",status="304"} 1`,
		`errkb_http_requests_total{method="HEAD",route="/errors/:owner/:repo/:slug",status="200"} 1`,
		`errkb_http_requests_total{method="GET",route="/static/*",status="200"} 1`,
		`errkb_http_request_duration_seconds_count{route="/errors/:owner/:repo/:slug"} 4`,
		`errkb_http_requests_in_flight 1`, // the /metrics request itself
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s:\n%s", want, grepLines(m, "errkb_http"))
		}
	}
}
