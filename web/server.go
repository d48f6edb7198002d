// Package web owns the HTTP side of errkb: routes, thin handlers, the one
// error handler, Markdown rendering and static assets. It turns errors into
// statuses; nothing below it knows about HTTP.
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
	draining  atomic.Bool
	responses *responseCache // rendered pages and API records; see cache.go
	origins   *origins       // what absolute links show; see origin.go
	work      *admission     // bounds expensive work; see admission.go
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
		metrics: newMetrics(ds.Len()), responses: newResponseCache(cfg.CacheBytes),
		origins: newOrigins(cfg), work: newAdmission(cfg.Workers, cfg.QueuedWork)}
	sub, err := fs.Sub(static, "static")
	if err == nil {
		s.assets, err = loadAssets(sub)
	}
	if err != nil {
		panic("web: embedded static files: " + err.Error()) // built into the binary; cannot fail at run time
	}
	s.echo = s.routes()
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
// static files are answered before the router (serveFast); everything else
// goes through echo.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.serveFast(w, r) {
		return
	}
	s.echo.ServeHTTP(w, r)
}

func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	s.middleware(e)
	e.Use(s.compress(), s.cache())

	// Every page also answers HEAD, which link checkers and load balancers use.
	get := func(g interface {
		Match([]string, string, echo.HandlerFunc, ...echo.MiddlewareFunc) []*echo.Route
	}, path string, h echo.HandlerFunc) {
		g.Match([]string{http.MethodGet, http.MethodHead}, path, h)
	}
	// Searches, lookups and page renders are admitted work (admission.go);
	// a cached page never reaches its handler, so it never waits.
	get(e, "/", s.admit(s.home))
	get(e, "/search", s.admit(s.searchPage))
	get(e, "/lookup", s.admit(s.lookupRedirect))
	get(e, "/errors", s.admit(s.projects))
	get(e, "/errors/:owner/:repo", s.admit(s.project))
	get(e, "/errors/:owner/:repo/:slug", s.admit(s.recordPage))
	get(e, "/tags/:tag", s.admit(s.tagPage))
	get(e, "/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") })
	get(e, "/readyz", s.readyz)
	get(e, "/metrics", s.metrics.handler())
	get(e, "/static/*", s.serveAsset)
	get(e, "/favicon.ico", s.favicon)
	get(e, "/robots.txt", s.robots)
	get(e, "/sitemap.xml", s.admit(s.sitemap)) // tens of thousands of URLs each
	get(e, "/sitemap-:n", s.admit(s.sitemapPart))
	get(e, "/opensearch.xml", s.openSearch)

	api := e.Group("/api/v1")
	get(api, "/errors/:owner/:repo/:slug", s.admit(s.apiRecord))
	get(api, "/lookup", s.admit(s.apiLookup))
	get(api, "/search", s.admit(s.apiSearch))
	get(api, "/openapi.json", s.apiOpenAPI)
	return e
}

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
