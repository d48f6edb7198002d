package web

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/errkb/errkb/index"
)

// metrics are the server's Prometheus series. Each Server has its own
// registry, so tests and several servers in one process never share state.
type metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	inFlight    prometheus.Gauge
	queries     *prometheus.CounterVec
	noMatch     *prometheus.CounterVec
	timeouts    prometheus.Counter
	rateLimited prometheus.Counter
	busy        prometheus.Counter
	records     prometheus.Gauge
	indexDocs   prometheus.Gauge
	indexBuild  prometheus.Gauge
	ready       prometheus.Gauge

	routes sync.Map // route pattern -> *routeMetrics
}

func newMetrics(datasetRecords int) *metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) { reg.MustRegister(c) }
	m := &metrics{
		reg: reg,
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
		queries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "errkb_queries_total", Help: "Searches and lookups run, by kind (search, lookup).",
		}, []string{"kind"}),
		noMatch: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "errkb_queries_no_match_total", Help: "Searches with no hit and lookups with no single match, by kind: the errors the dataset lacks.",
		}, []string{"kind"}),
		timeouts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "errkb_request_timeouts_total", Help: "Requests stopped by the per-request deadline.",
		}),
		rateLimited: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "errkb_rate_limited_total", Help: "Requests refused with 429 by the per-client rate limit.",
		}),
		busy: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "errkb_busy_total", Help: "Searches, lookups and uncached renders refused with 503 busy by admission control.",
		}),
		records: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "errkb_dataset_records", Help: "Records served.",
		}),
		indexDocs: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "errkb_index_records", Help: "Records in the search index; 0 until it is built.",
		}),
		indexBuild: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "errkb_index_build_seconds", Help: "How long the search index took to build.",
		}),
		ready: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "errkb_ready", Help: "1 while /readyz answers 200.",
		}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.latency, m.inFlight, m.queries, m.noMatch, m.timeouts,
		m.rateLimited, m.busy, m.records, m.indexDocs, m.indexBuild, m.ready} {
		f(c)
	}
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.records.Set(float64(datasetRecords))
	return m
}

// middleware counts every request by its route pattern (never the raw path,
// which a client could vary without end) and final status. It answers the
// errors of the handlers inside it, so the request log outside sees the
// final status too.
func (m *metrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err) // writes the response, so the status below is final
			if !c.Response().Committed {
				// Nothing could be written (the client left): record the
				// status the error stands for, for this count and the log.
				c.Response().Status = asError(err).Status
			}
		}
		route := c.Path()
		if route == "" || c.Response().Status == http.StatusNotFound && route == "/*" {
			route = "unmatched"
		}
		m.route(route).observe(c.Request().Method, c.Response().Status, time.Since(start))
		return nil
	}
}

// routeMetrics are one route's series, resolved once so that counting a
// request takes atomic adds only: prometheus' WithLabelValues hashes the
// labels and takes a lock on every call. Routes are the router's patterns,
// a fixed set, so these never grow without bound.
type routeMetrics struct {
	m       *metrics
	route   string
	latency prometheus.Observer
	counts  sync.Map // methodStatus -> prometheus.Counter
}

type methodStatus struct {
	method string
	status int
}

// route returns the series of a route pattern.
func (m *metrics) route(route string) *routeMetrics {
	if rm, ok := m.routes.Load(route); ok {
		return rm.(*routeMetrics)
	}
	rm, _ := m.routes.LoadOrStore(route, &routeMetrics{m: m, route: route, latency: m.latency.WithLabelValues(route)})
	return rm.(*routeMetrics)
}

// observe counts one answered request and its latency.
func (rm *routeMetrics) observe(method string, status int, took time.Duration) {
	rm.latency.Observe(took.Seconds())
	k := methodStatus{methodLabel(method), status}
	c, ok := rm.counts.Load(k)
	if !ok {
		c, _ = rm.counts.LoadOrStore(k, rm.m.requests.WithLabelValues(rm.route, k.method, strconv.Itoa(status)))
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

func (m *metrics) handler() echo.HandlerFunc {
	return echo.WrapHandler(promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
}

// IndexBuilt records the size and build time of the search index, for
// /metrics.
func (s *Server) IndexBuilt(records int, took time.Duration) {
	s.metrics.indexDocs.Set(float64(records))
	s.metrics.indexBuild.Set(took.Seconds())
}

// countingSearcher counts queries and those that found nothing, so the
// errors people look for but the dataset lacks show up in /metrics.
type countingSearcher struct {
	Searcher
	m *metrics
}

// uncountedKey marks a context whose searches are not a reader's queries
// (the suggestions of a 404 page), so they stay out of the query metrics.
type uncountedKey struct{}

func uncounted(ctx context.Context) context.Context {
	return context.WithValue(ctx, uncountedKey{}, true)
}

func (cs countingSearcher) Search(ctx context.Context, q index.Query) (*index.Result, error) {
	res, err := cs.Searcher.Search(ctx, q)
	if err == nil && ctx.Value(uncountedKey{}) == nil {
		cs.m.queries.WithLabelValues("search").Inc()
		if res.Total == 0 {
			cs.m.noMatch.WithLabelValues("search").Inc()
		}
	}
	return res, err
}

func (cs countingSearcher) Lookup(ctx context.Context, text string) (*index.LookupResult, error) {
	res, err := cs.Searcher.Lookup(ctx, text)
	if err == nil {
		cs.m.queries.WithLabelValues("lookup").Inc()
		if res.Match == nil {
			cs.m.noMatch.WithLabelValues("lookup").Inc()
		}
	}
	return res, err
}
