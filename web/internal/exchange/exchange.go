// Package exchange owns what every answer carries and leaves behind,
// whichever path writes it (the router, or the fast path before it): the
// security headers, the request id, the one request log line and the
// request metrics. Both paths record a request through one Exchange, so
// what a client sees, what is logged and what is counted cannot drift
// apart.
package exchange

import (
	"context"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Exchange records the requests of one server.
type Exchange struct {
	log      *slog.Logger
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inFlight prometheus.Gauge

	routes sync.Map // route pattern -> *routeSeries
}

// New records to log, and registers the request series with reg.
func New(log *slog.Logger, reg prometheus.Registerer) *Exchange {
	x := &Exchange{
		log: log,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "errkb_http_requests_total", Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "errkb_http_request_duration_seconds", Help: "Time to answer a request, by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "errkb_http_requests_in_flight", Help: "Requests being answered now.",
		}),
	}
	reg.MustRegister(x.requests, x.latency, x.inFlight)
	return x
}

// Begin counts a request in flight until its Done.
func (x *Exchange) Begin() { x.inFlight.Inc() }

// Request is one answered request as the log and the metrics see it.
type Request struct {
	Route  string // the route pattern, never the raw path, which a client could vary without end
	ID     string // the request id (RequestID)
	Method string
	Path   string
	Status int
	Start  time.Time
	Client string // the client's address, as the server decides it
}

// Done counts r under its route and status, ends its part of the
// in-flight count, and writes its one "request" log line.
func (x *Exchange) Done(ctx context.Context, r Request) {
	took := time.Since(r.Start)
	x.route(r.Route).observe(r.Method, r.Status, took)
	x.inFlight.Dec()
	x.log.LogAttrs(ctx, slog.LevelInfo, "request",
		slog.String("request_id", r.ID),
		slog.String("method", r.Method), slog.String("path", r.Path),
		slog.Int("status", r.Status), slog.Duration("latency", took),
		slog.String("client", r.Client))
}

// routeSeries are one route's series, resolved once so that counting a
// request takes atomic adds only: prometheus' WithLabelValues hashes the
// labels and takes a lock on every call. Routes are the router's patterns,
// a fixed set, so these never grow without bound.
type routeSeries struct {
	x       *Exchange
	route   string
	latency prometheus.Observer
	counts  sync.Map // methodStatus -> prometheus.Counter
}

type methodStatus struct {
	method string
	status int
}

func (x *Exchange) route(route string) *routeSeries {
	if rs, ok := x.routes.Load(route); ok {
		return rs.(*routeSeries)
	}
	rs, _ := x.routes.LoadOrStore(route, &routeSeries{x: x, route: route, latency: x.latency.WithLabelValues(route)})
	return rs.(*routeSeries)
}

func (rs *routeSeries) observe(method string, status int, took time.Duration) {
	rs.latency.Observe(took.Seconds())
	k := methodStatus{methodLabel(method), status}
	c, ok := rs.counts.Load(k)
	if !ok {
		c, _ = rs.counts.LoadOrStore(k, rs.x.requests.WithLabelValues(rs.route, k.method, strconv.Itoa(status)))
	}
	c.(prometheus.Counter).Inc()
}

// methodLabel keeps the method label to a fixed set.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodPatch:
		return m
	}
	return "other"
}
