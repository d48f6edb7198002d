package web

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/errkb/errkb/web/internal/answer"
	"github.com/errkb/errkb/web/route"
)

// cacheControl tells browsers and CDNs how long a page may be reused
// without asking again. Pages change only when the dataset or the binary
// changes, that is on a deploy; five minutes bounds how long a reader sees
// the old page after one, and the ETag makes the check after that cheap.
const cacheControl = "public, max-age=300"

// DefaultCacheBytes bounds the rendered responses kept in memory. At
// 100,000 records the pages of every record would take gigabytes; a bounded
// cache keeps the pages people actually open.
const DefaultCacheBytes = 64 << 20

// cache serves the Cached routes of the table from rendered bytes: 304
// when the client's If-None-Match holds the ETag, gzip when the client
// accepts it, and Cache-Control for browsers and CDNs. On a miss the
// handler runs once and its 200 answer is kept; anything else passes
// through untouched. Requests with a query string are not cached, so
// random queries cannot flush the cache. The fast path answers hits
// before the router does; this middleware keeps what it finds.
func (s *Server) cache() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			// Before the index is ready, record pages lack the related
			// errors search finds, so nothing is kept yet. (A draining
			// server keeps caching: its pages are final.)
			if !cacheable(c) || s.searcher.Load() == nil {
				return next(c)
			}
			key := s.cacheKey(c.Request(), routePath(c.Path(), c.ParamNames(), c.ParamValues()))
			if f := pageFormat(c); f != 0 && f != route.HTML {
				key = formatKey[f] + " " + key // text and Markdown beside the HTML page
			}
			if r := s.responses.Get(key); r != nil {
				r.Pick(c.Request().Header.Get(echo.HeaderAcceptEncoding)).Write(c.Response(), c.Request(), nil)
				return nil
			}
			r, err := capture(c, next)
			if err != nil || r == nil {
				return err
			}
			s.responses.Put(key, r)
			r.Pick(c.Request().Header.Get(echo.HeaderAcceptEncoding)).Write(c.Response(), c.Request(), nil)
			return nil
		}
	}
}

// formatKey names the formats in cache keys.
var formatKey = map[route.Format]string{route.Text: "text", route.Markdown: "markdown"}

// cacheKey is the key of the answer to r for the path the router matched.
// Without --base-url, pages show absolute links of the request's origin,
// which is one of a fixed few (see origins), so the key holds it too.
func (s *Server) cacheKey(r *http.Request, path string) string {
	if s.cfg.BaseURL != "" {
		return path
	}
	return s.origins.Of(r) + path
}

// cacheKeyAt is cacheKey for a request whose origin (origins.Of) is known.
func (s *Server) cacheKeyAt(origin, path string) string {
	if s.cfg.BaseURL != "" {
		return path
	}
	return origin + path
}

// routePath rebuilds a request path from the route pattern the router
// matched and its parameters, so the cache keys on what the router saw:
// "/errors/a%2Fb/c" is the project page of "a/b/c" (a 404), never the
// record page "/errors/a/b/c", and spelling a letter as "%61" gives no new
// key. Each parameter is escaped as net/url escapes a path, '/' included,
// so for every ordinary request the key is its URL.EscapedPath() and
// the fast path finds it without routing.
func routePath(route string, names, values []string) string {
	var b strings.Builder
	for seg := range strings.SplitSeq(strings.TrimPrefix(route, "/"), "/") {
		b.WriteByte('/')
		name, ok := strings.CutPrefix(seg, ":")
		if !ok {
			b.WriteString(seg)
			continue
		}
		for i, n := range names {
			if n == name && i < len(values) {
				b.WriteString(strings.ReplaceAll((&url.URL{Path: values[i]}).EscapedPath(), "/", "%2F"))
				break
			}
		}
	}
	return b.String()
}

// compress gzips the answers the cache does not handle, for clients that
// ask; cached answers are compressed once, when they are kept, and static
// files once, at start-up.
func (s *Server) compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: 1024,
		Skipper: func(c echo.Context) bool {
			return cacheable(c) || byPattern[c.Path()].Prepared
		},
	})
}

// cacheable reports whether the cache middleware handles this request.
func cacheable(c echo.Context) bool {
	req := c.Request()
	return (req.Method == http.MethodGet || req.Method == http.MethodHead) && req.URL.RawQuery == "" && byPattern[c.Path()].Cached
}

// capture runs next with a buffer for the body. It returns the response
// when next answered 200 with a body; otherwise it replays what next wrote
// and returns nil.
func capture(c echo.Context, next echo.HandlerFunc) (*answer.Response, error) {
	res := c.Response()
	orig := res.Writer
	rec := &recorder{header: orig.Header()}
	res.Writer = rec
	err := next(c)
	res.Writer = orig
	if err != nil && !res.Committed {
		return nil, err
	}
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	if status != http.StatusOK || rec.buf.Len() == 0 || err != nil {
		orig.WriteHeader(status)
		_, _ = orig.Write(rec.buf.Bytes())
		return nil, err
	}
	// Let echo write the final answer itself, so its status and size are
	// what the request log sees.
	res.Committed, res.Status, res.Size = false, 0, 0
	h := res.Header()
	r := answer.Rendered(c.Path(), h.Get(echo.HeaderContentType), rec.buf.Bytes(), cacheControl, varyOf(c.Path()))
	h.Del(echo.HeaderContentLength)
	return r, nil
}

// varyOf is the Vary header of the kept answers of a route: error pages
// answer in the format asked for too.
func varyOf(pattern string) string {
	if byPattern[pattern].Negotiated() {
		return echo.HeaderAccept + ", " + echo.HeaderAcceptEncoding
	}
	return echo.HeaderAcceptEncoding
}

// recorder buffers a handler's answer so it can be kept.
type recorder struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.buf.Write(p)
}
