// Package web owns the HTTP side of errkb: the route table (routes.go),
// thin handlers, the one error handler, Markdown rendering and static
// assets. It turns errors into statuses; nothing below it knows about
// HTTP. The answers that need no work (kept pages, static files) are
// given before the router by package web/internal/fast, behind the
// contract fast.go hands it; docs/architecture.md follows a request
// through both.
package web

import (
	"context"
	"embed"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/yuin/goldmark"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/templates"
	"github.com/errkb/errkb/web/internal/answer"
	"github.com/errkb/errkb/web/internal/exchange"
	"github.com/errkb/errkb/web/internal/fast"
)

// Searcher answers searches and lookups; *index.Index satisfies it.
type Searcher interface {
	Search(ctx context.Context, q index.Query) (*index.Result, error)
	Lookup(ctx context.Context, text string) (*index.LookupResult, error)
}

// Config is what the server needs besides its data.
type Config struct {
	// BaseURL, when set, makes API url fields absolute ("https://errkb.example.com")
	// and is the only origin pages link to.
	BaseURL string
	// Hosts are the host[:port] names the site answers to when BaseURL is
	// not set. Absolute links show the request's Host when it is one of
	// them, else the first; any other Host is never shown or cached apart.
	// Empty means DefaultHost.
	Hosts  []string
	Logger *slog.Logger

	// RequestTimeout bounds each request; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// RateLimit, when above 0, allows each client address this many
	// requests a second, in bursts of RateBurst (0: twice RateLimit).
	RateLimit float64
	RateBurst int
	// TrustedProxies are the proxies whose X-Forwarded-For names the
	// client; without them the connection's address is the client.
	TrustedProxies []*net.IPNet
	// Workers bounds the searches, lookups and uncached renders running at
	// once (0: the CPUs Go uses but one); QueuedWork bounds those waiting for one
	// (0: eight per CPU). Beyond both, such requests answer 503 busy.
	Workers    int
	QueuedWork int
	// CacheBytes bounds the rendered pages kept in memory; 0 means
	// DefaultCacheBytes.
	CacheBytes int
	// BrokenSamples are the compiler's messages about code samples that do
	// not compile against the module versions the dataset names, by
	// SampleKey (the dataset's compile-failures.tsv): the page marks them.
	BrokenSamples map[string][]string
}

// Server serves one dataset. Pages of single records work as soon as it is
// created; search and lookup answer 503 until SetSearcher is called, which
// is also what /readyz reports.
type Server struct {
	ds        *errkb.Dataset
	searcher  atomic.Pointer[searcherBox]
	cfg       Config
	log       *slog.Logger
	md        goldmark.Markdown
	echo      *echo.Echo
	assets    *assets
	lexers    *lexers
	metrics   *metrics
	exchange  *exchange.Exchange // records every request, on either path
	draining  atomic.Bool
	responses *answer.Cache // rendered pages and API records; see cache.go
	origins   *origins      // what absolute links show; see origin.go
	work      *admission    // bounds expensive work; see admission.go
	fast      *fast.Path    // answers kept and prepared ones before the router; see fast.go
	busyOnce  sync.Once
	busyHTML  []byte // the error page of errBusy; see busyPage

	sitemapMax int // URLs per sitemap file
}

type searcherBox struct{ Searcher }

//go:embed static
var static embed.FS

// New builds the server and its routes.
func New(ds *errkb.Dataset, cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	lx := &lexers{}
	s := &Server{ds: ds, cfg: cfg, log: cfg.Logger, md: newMarkdown(lx), lexers: lx, sitemapMax: sitemapMax,
		metrics: newMetrics(ds.Len()), responses: answer.NewCache(cfg.CacheBytes),
		origins: newOrigins(cfg), work: newAdmission(cfg.Workers, cfg.QueuedWork)}
	s.exchange = exchange.New(cfg.Logger, s.metrics.reg)
	sub, err := fs.Sub(static, "static")
	if err == nil {
		s.assets, err = loadAssets(sub)
	}
	if err != nil {
		panic("web: embedded static files: " + err.Error()) // built into the binary; cannot fail at run time
	}
	s.echo = s.router()
	s.fast = fast.New(s.plain())
	return s
}

// SetSearcher makes search available and the server ready.
func (s *Server) SetSearcher(sr Searcher) {
	s.searcher.Store(&searcherBox{countingSearcher{sr, s.metrics}})
	s.metrics.ready.Set(b2f(s.Ready()))
}

// Drain turns /readyz to 503 ahead of a shutdown, so load balancers stop
// sending new requests while the ones in flight finish.
func (s *Server) Drain() {
	s.draining.Store(true)
	s.metrics.ready.Set(0)
}

// Ready reports whether search is available and the server is not draining.
func (s *Server) Ready() bool { return s.searcher.Load() != nil && !s.draining.Load() }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// ServeHTTP makes Server an http.Handler. Cached pages, API records and
// static files are answered before the router (fast.Path.Serve);
// everything else goes through echo.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.fast.Serve(w, r) {
		return
	}
	s.echo.ServeHTTP(w, r)
}

func (s *Server) healthz(c echo.Context) error { return c.String(http.StatusOK, "ok\n") }

func (s *Server) readyz(c echo.Context) error {
	if s.draining.Load() {
		return c.String(http.StatusServiceUnavailable, "shutting down\n")
	}
	if !s.Ready() {
		return c.String(http.StatusServiceUnavailable, "index is building\n")
	}
	return c.String(http.StatusOK, "ready\n")
}

// search returns the searcher, or a 503 error while the index builds.
func (s *Server) search() (Searcher, error) {
	b := s.searcher.Load()
	if b == nil {
		return nil, &Error{Status: http.StatusServiceUnavailable, Code: "not_ready", Message: "the search index is still being built; try again in a few seconds"}
	}
	return b.Searcher, nil
}

// canonicalSlashes redirects "/errors/a/b/" to "/errors/a/b" so a trailing
// slash never breaks a link. The target is the cleaned path: no dot
// segments, no empty ones, so "/..//evil.example/" becomes "/evil.example"
// and never a path a browser could read as another host.
func canonicalSlashes(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := c.Request().URL.Path
		if p == "/" || !strings.HasSuffix(p, "/") {
			return next(c)
		}
		return c.Redirect(http.StatusMovedPermanently, cleanTarget(p, c.Request().URL.RawQuery))
	}
}

// cleanTarget is the on-site redirect target for path p and query q:
// path.Clean removes dot segments and repeated slashes, and escaping keeps
// tabs, newlines and '\' (which browsers drop or read as '/') out of the
// Location.
func cleanTarget(p, q string) string {
	clean := (&url.URL{Path: path.Clean("/" + p)}).EscapedPath()
	if q != "" {
		clean += "?" + q
	}
	return clean
}

// base fills what every page shares.
func (s *Server) base(title, query string) templates.Base {
	return templates.Base{
		Title:          title,
		Query:          query,
		DatasetVersion: s.ds.Version(),
		RecordCount:    s.ds.Len(),
		StylesheetURL:  s.assets.URL("style.css"),
		ScriptURL:      s.assets.URL("app.js"),
		IconURL:        s.assets.URL("favicon.svg"),
	}
}

// url makes a site path absolute when a base URL is configured.
func (s *Server) url(path string) string { return s.cfg.BaseURL + path }
