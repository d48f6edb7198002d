// Package fast answers, before the router, the requests that need no
// work: a GET or HEAD whose answer was prepared at start-up (a static
// file) or rendered once and kept (a cached page or API record). It has
// two doors: Path.Serve, a step in front of the router, and Listener,
// which reads requests off the connection before net/http does (wire.go)
// and writes each answer in one system call (coalesce.go).
//
// It stands in for the plain path behind the plain path's contract,
// Plain: the route table, the cache the plain path fills, the answers it
// prepared, and the Exchange through which both record a request. So the
// status, headers, bytes, log line and metrics are the plain path's own;
// anything else it leaves, unread or handed over byte for byte, to the
// plain path. It imports nothing of the plain path (package web), which
// imports it.
package fast

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/errkb/errkb/web/internal/answer"
	"github.com/errkb/errkb/web/internal/exchange"
	"github.com/errkb/errkb/web/route"
)

// Plain is the plain path as the fast path sees it.
type Plain struct {
	// Routes is the route table (web/routes.go).
	Routes []route.Route
	// Cache holds the answers of Cached routes the plain path rendered,
	// under CacheKey(origin, escaped path).
	Cache    *answer.Cache
	CacheKey func(origin, path string) string
	// Prepared is the answer made at start-up for a Prepared route's
	// pattern, rest being the part its "*" matched, in the form this
	// Accept-Encoding takes; nil when there is none (a 404).
	Prepared func(pattern, rest, acceptEncoding string) *answer.Answer
	// RateLimited is set when the plain path limits each client's rate:
	// then only Unlimited routes are answered here.
	RateLimited bool
	// MaxTarget is the longest request target the plain path takes.
	MaxTarget int
	// Origins decide the origin absolute links show (the cache keys on
	// it) and whether a peer is a trusted proxy.
	Origins Origins
	// Client is the client's address as the request log shows it.
	Client func(*http.Request) string
	// Forwarded are the headers Origins and Client read on a trusted
	// proxy's requests; the wire path passes them on.
	Forwarded []string
	// Draining reports that the server is shutting down: connections
	// close after their answer.
	Draining func() bool
	// Exchange records every request, as the plain path does.
	Exchange *exchange.Exchange
}

// Origins is what the plain path decides about a request's origin
// (web/origin.go).
type Origins interface {
	// Of is the origin of r: scheme and host its absolute links show.
	Of(r *http.Request) string
	// At is the origin of a request with Host host, over https or not.
	At(host string, https bool) string
	// FromProxy reports whether r's peer is a trusted proxy, whose
	// forwarded headers say who the client is.
	FromProxy(r *http.Request) bool
}

// Path is the fast path of one server.
type Path struct {
	plain      Plain
	prepared   []preparedRoute
	negotiated map[string]bool // Negotiated routes, by pattern
	unlimited  map[string]bool // Unlimited routes, by pattern
}

// preparedRoute is a Prepared route with its pattern split for matching
// without allocation: a fixed path, or a prefix and a "*".
type preparedRoute struct {
	route.Route
	prefix   string
	wildcard bool
}

// New is the fast path standing in for p.
func New(p Plain) *Path {
	f := &Path{plain: p, negotiated: map[string]bool{}, unlimited: map[string]bool{}}
	for _, r := range p.Routes {
		f.negotiated[r.Pattern] = r.Negotiated()
		f.unlimited[r.Pattern] = r.Unlimited
		if r.Prepared {
			prefix, wildcard := strings.CutSuffix(r.Pattern, "*")
			f.prepared = append(f.prepared, preparedRoute{r, prefix, wildcard})
		}
	}
	return f
}

// Serve answers, before the router and the per-request middleware, a
// request with a prepared or kept answer. Its headers were prepared once;
// conditional requests are honoured; the request is recorded through the
// Exchange as the router records it. It reports false, having written
// nothing, for anything else: a query string, a miss, a trailing slash
// (redirected by the router), an oversize target, and, under a rate
// limit, routes the limit covers. The wire path (wire.go) answers the
// same requests, with the same answers, before net/http reads them.
func (f *Path) Serve(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead || r.URL.RawQuery != "" || len(r.RequestURI) > f.plain.MaxTarget {
		return false
	}
	start := time.Now()
	a, route := f.answer(r.URL.Path, r.URL.EscapedPath(), r.URL.RawPath != "", f.plain.Origins.Of(r),
		r.Header.Get("Accept"), r.Header.Get("Accept-Encoding"))
	if a == nil {
		return false
	}
	x := f.plain.Exchange
	x.Begin()
	id := exchange.RequestID(r.Header.Get("X-Request-Id"))
	w.Header()["X-Request-Id"] = []string{id}
	var cc answer.Corker
	if c := connOf(r); c != nil {
		cc = c
	}
	status := a.Write(w, r, cc)
	x.Done(r.Context(), exchange.Request{Route: route, ID: id, Method: r.Method, Path: r.URL.Path,
		Status: status, Start: start, Client: f.plain.Client(r)})
	return true
}

// answer is the prepared answer to a GET or HEAD without a query of path
// (escaped: its escaped form; escapes: whether the target spelled it with
// escapes) from origin, with the route it is counted under; nil when the
// plain path must answer.
func (f *Path) answer(path, escaped string, escapes bool, origin, accept, acceptEncoding string) (*answer.Answer, string) {
	for _, pr := range f.prepared {
		rest, ok := strings.CutPrefix(path, pr.prefix)
		if !ok || !pr.wildcard && rest != "" {
			continue
		}
		if pr.wildcard && escapes || f.plain.RateLimited && !pr.Unlimited {
			return nil, "" // the router unescapes a "*" its own way; the limiter counts the route
		}
		a := f.plain.Prepared(pr.Pattern, rest, acceptEncoding)
		if a == nil {
			return nil, ""
		}
		return a, pr.Pattern
	}
	if len(path) > 1 && path[len(path)-1] == '/' {
		return nil, ""
	}
	resp := f.plain.Cache.Get(f.plain.CacheKey(origin, escaped))
	switch {
	case resp == nil, f.plain.RateLimited && !f.unlimited[resp.Route]:
		return nil, ""
	case f.negotiated[resp.Route] && route.Negotiate(accept) != route.HTML:
		return nil, "" // a terminal asking for text goes through the router
	}
	return resp.Pick(acceptEncoding), resp.Route
}

// served records a request the wire path answered.
func (f *Path) served(route, id, method, path string, status int, start time.Time, client string) {
	f.plain.Exchange.Done(context.Background(), exchange.Request{Route: route, ID: id, Method: method, Path: path,
		Status: status, Start: start, Client: client})
}
