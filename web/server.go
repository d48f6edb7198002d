// Package web owns the HTTP side of errkb: routes, thin handlers, the one
// error handler, Markdown rendering and static assets. It turns errors into
// statuses; nothing below it knows about HTTP.
package web

import (
	"context"
	"embed"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
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
	// BaseURL, when set, makes API url fields absolute ("https://errkb.example.com").
	BaseURL string
	Logger  *slog.Logger
	// CacheBytes bounds the rendered pages kept in memory; 0 means
	// DefaultCacheBytes.
	CacheBytes int
}

// Server serves one dataset. Pages of single records work as soon as it is
// created; search and lookup answer 503 until SetSearcher is called, which
// is also what /readyz reports.
type Server struct {
	ds       *errkb.Dataset
	searcher atomic.Pointer[searcherBox]
	cfg      Config
	log      *slog.Logger
	md       goldmark.Markdown
	echo     *echo.Echo

	responses *responseCache // rendered pages and API records; see cache.go
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
	s := &Server{ds: ds, cfg: cfg, log: cfg.Logger, md: newMarkdown(), responses: newResponseCache(cfg.CacheBytes)}
	s.echo = s.routes()
	return s
}

// SetSearcher makes search available and the server ready.
func (s *Server) SetSearcher(sr Searcher) { s.searcher.Store(&searcherBox{sr}) }

// Ready reports whether search is available.
func (s *Server) Ready() bool { return s.searcher.Load() != nil }

// ServeHTTP makes Server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.HTTPErrorHandler = s.handleError
	e.Pre(canonicalSlashes)
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisablePrintStack: true,
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			s.log.Error("panic in handler", "path", c.Request().URL.Path, "err", err, "stack", string(stack))
			return err
		},
	}))
	e.Use(s.requestLog())
	e.Use(s.compress(), s.cache())

	e.GET("/", s.home)
	e.GET("/search", s.searchPage)
	e.GET("/lookup", s.lookupRedirect)
	e.GET("/errors", s.projects)
	e.GET("/errors/:owner/:repo", s.project)
	e.GET("/errors/:owner/:repo/:slug", s.recordPage)
	e.GET("/tags/:tag", s.tagPage)
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") })
	e.GET("/readyz", s.readyz)
	e.GET("/static/*", echo.WrapHandler(http.FileServerFS(static)))

	api := e.Group("/api/v1")
	api.GET("/errors/:owner/:repo/:slug", s.apiRecord)
	api.GET("/lookup", s.apiLookup)
	api.GET("/search", s.apiSearch)
	api.GET("/openapi.json", s.apiOpenAPI)
	return e
}

func (s *Server) readyz(c echo.Context) error {
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
// slash never breaks a link. Leading slashes are collapsed first, so
// "//host/" cannot become an off-site redirect.
func canonicalSlashes(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		p := c.Request().URL.Path
		if p == "/" || !strings.HasSuffix(p, "/") {
			return next(c)
		}
		clean := "/" + strings.Trim(p, "/")
		if q := c.Request().URL.RawQuery; q != "" {
			clean += "?" + q
		}
		return c.Redirect(http.StatusMovedPermanently, clean)
	}
}

func (s *Server) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogMethod: true, LogURIPath: true, LogStatus: true, LogLatency: true, LogError: true,
		HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			s.log.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
				slog.String("method", v.Method), slog.String("path", v.URIPath),
				slog.Int("status", v.Status), slog.Duration("latency", v.Latency))
			return nil
		},
	})
}

// base fills what every page shares.
func (s *Server) base(title, query string) templates.Base {
	return templates.Base{
		Title:          title,
		Query:          query,
		DatasetVersion: s.ds.Version(),
		RecordCount:    s.ds.Len(),
		StylesheetURL:  "/static/style.css",
	}
}

// url makes a site path absolute when a base URL is configured.
func (s *Server) url(path string) string { return s.cfg.BaseURL + path }
