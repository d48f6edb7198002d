package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/errkb/errkb/index"
)

// metrics are the server's Prometheus series but the per-request ones,
// which package exchange keeps for both request paths. Each Server has its
// own registry, so tests and several servers in one process never share
// state.
type metrics struct {
	reg         *prometheus.Registry
	handler     http.Handler // /metrics
	queries     *prometheus.CounterVec
	noMatch     *prometheus.CounterVec
	timeouts    prometheus.Counter
	rateLimited prometheus.Counter
	busy        prometheus.Counter
	records     prometheus.Gauge
	indexDocs   prometheus.Gauge
	indexBuild  prometheus.Gauge
	ready       prometheus.Gauge
}

func newMetrics(datasetRecords int) *metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) { reg.MustRegister(c) }
	m := &metrics{
		reg:     reg,
		handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
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
	for _, c := range []prometheus.Collector{m.queries, m.noMatch, m.timeouts,
		m.rateLimited, m.busy, m.records, m.indexDocs, m.indexBuild, m.ready} {
		f(c)
	}
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.records.Set(float64(datasetRecords))
	return m
}

func (s *Server) serveMetrics(c echo.Context) error {
	s.metrics.handler.ServeHTTP(c.Response(), c.Request())
	return nil
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
