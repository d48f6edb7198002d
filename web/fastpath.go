package web

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// serveFast answers, before the router and the per-request middleware,
// the requests that need no work: GET and HEAD of a page or API record the
// response cache holds, and of static files. Their headers were prepared
// once (answer); conditional requests are honoured. What a client sees,
// what is logged and what is counted are the same as through echo: the
// security headers and X-Request-Id, one "request" log line with the same
// attributes, and the same series in /metrics, counted without locks.
//
// It reports false, having written nothing, for anything else: a query
// string, a miss, a trailing slash (redirected by echo), an oversize
// target, and, when a rate limit is set, pages (which the limit covers).
func (s *Server) serveFast(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead || r.URL.RawQuery != "" || len(r.RequestURI) > MaxURIBytes {
		return false
	}
	start := time.Now()
	var (
		a     *answer
		route string
	)
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/static/"):
		if r.URL.RawPath != "" {
			return false
		}
		as := s.assets.byName[p[len("/static/"):]]
		if as == nil {
			return false
		}
		a, route = as.answerFor(p[len("/static/"):], r), "/static/*"
	case s.cfg.RateLimit > 0:
		return false
	case p == "/favicon.ico":
		a, route = s.assets.favicon.pick(r), "/favicon.ico"
	case len(p) > 1 && p[len(p)-1] == '/':
		return false
	default:
		resp := s.responses.get(s.cacheKey(r, r.URL.EscapedPath()))
		if resp == nil || formatRoutes[resp.route] && negotiate(r.Header.Get(echo.HeaderAccept)) != formatHTML {
			return false // a terminal asking for text goes through the router
		}
		a, route = resp.pick(r), resp.route
	}

	s.metrics.inFlight.Inc()
	id := r.Header.Get(echo.HeaderXRequestID)
	if !validID(id) {
		id = newRequestID()
	}
	w.Header()[echo.HeaderXRequestID] = []string{id}
	status := a.write(w, r, connOf(r))
	took := time.Since(start)
	s.metrics.route(route).observe(r.Method, status, took)
	s.metrics.inFlight.Dec()
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("request_id", id),
		slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", status), slog.Duration("latency", took),
		slog.String("client", s.echo.IPExtractor(r)))
	return true
}
