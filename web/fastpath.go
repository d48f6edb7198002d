package web

import (
	"context"
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
// The wire path (wire.go) answers the same requests, with the same
// answers, before net/http reads them.
func (s *Server) serveFast(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead || r.URL.RawQuery != "" || len(r.RequestURI) > MaxURIBytes {
		return false
	}
	if r.URL.RawPath != "" && strings.HasPrefix(r.URL.Path, "/static/") {
		return false
	}
	start := time.Now()
	a, route := s.fastAnswer(r.URL.Path, r.URL.EscapedPath(), s.origins.of(r),
		r.Header.Get(echo.HeaderAccept), r.Header.Get(echo.HeaderAcceptEncoding))
	if a == nil {
		return false
	}
	s.metrics.inFlight.Inc()
	id := requestIDFrom(r.Header.Get(echo.HeaderXRequestID))
	w.Header()[echo.HeaderXRequestID] = []string{id}
	status := a.write(w, r, connOf(r))
	s.served(r.Context(), route, id, r.Method, r.URL.Path, status, start, s.echo.IPExtractor(r))
	return true
}

// fastAnswer is the prepared answer to a GET or HEAD without a query of
// path (escaped: its escaped form) from origin (origins.of), with the
// route it is counted under; nil when the router must answer.
func (s *Server) fastAnswer(path, escaped, origin, accept, acceptEncoding string) (*answer, string) {
	switch {
	case strings.HasPrefix(path, "/static/"):
		as := s.assets.byName[path[len("/static/"):]]
		if as == nil {
			return nil, ""
		}
		return as.answerFor(path[len("/static/"):], acceptEncoding), "/static/*"
	case s.cfg.RateLimit > 0:
		return nil, ""
	case path == "/favicon.ico":
		return s.assets.favicon.pick(acceptEncoding), "/favicon.ico"
	case len(path) > 1 && path[len(path)-1] == '/':
		return nil, ""
	}
	resp := s.responses.get(s.cacheKeyAt(origin, escaped))
	if resp == nil || formatRoutes[resp.route] && negotiate(accept) != formatHTML {
		return nil, "" // a terminal asking for text goes through the router
	}
	return resp.pick(acceptEncoding), resp.route
}

// requestIDFrom is the request id of a request whose X-Request-Id is h:
// h itself when well formed (see Server.requestID), else a new one.
func requestIDFrom(h string) string {
	if validID(h) {
		return h
	}
	return newRequestID()
}

// served counts and logs a request answered before the router as the
// router's middleware (metrics.middleware, requestLog) do, and ends its
// part of the in-flight count.
func (s *Server) served(ctx context.Context, route, id, method, path string, status int, start time.Time, client string) {
	took := time.Since(start)
	s.metrics.route(route).observe(method, status, took)
	s.metrics.inFlight.Dec()
	s.log.LogAttrs(ctx, slog.LevelInfo, "request",
		slog.String("request_id", id),
		slog.String("method", method), slog.String("path", path),
		slog.Int("status", status), slog.Duration("latency", took),
		slog.String("client", client))
}
