package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
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

// cachedRoutes are the routes whose answer depends only on the dataset and
// the binary, so one rendering serves every request until the process
// ends. Search and lookup depend on the query and are not cached.
var cachedRoutes = map[string]bool{
	"/":                                 true,
	"/errors":                           true,
	"/errors/:owner/:repo":              true,
	"/errors/:owner/:repo/:slug":        true,
	"/tags/:tag":                        true,
	"/api/v1/errors/:owner/:repo/:slug": true,
	"/api/v1/openapi.json":              true,
}

// response is one rendered page or API record, prepared as an answer in
// plain and gzip forms, with the route it answers for the metrics.
type response struct {
	route string
	plain *answer
	gz    *answer // nil when gzip does not make it smaller
}

func (r *response) size() int {
	n := 512 // the prepared headers
	if r.plain != nil {
		n += len(r.plain.body)
	}
	if r.gz != nil {
		n += len(r.gz.body)
	}
	return n
}

// responseCache holds rendered responses by cache key (see Server.cacheKey).
// A Server serves one dataset with one binary for its whole life, so an
// entry never goes stale; and the ETag is a hash of the bytes, so a
// client's copy from an earlier dataset or release never matches a new
// page.
type responseCache struct {
	mu      sync.RWMutex
	entries map[string]*response
	bytes   int
	max     int
}

func newResponseCache(maxBytes int) *responseCache {
	return &responseCache{entries: make(map[string]*response), max: maxBytes}
}

func (rc *responseCache) get(key string) *response {
	rc.mu.RLock()
	defer rc.mu.RUnlock()
	return rc.entries[key]
}

// put stores r, evicting random entries to stay within the byte budget.
// Random eviction keeps hot pages with high probability at no bookkeeping
// cost per hit, which matters more here than an exact LRU.
func (rc *responseCache) put(key string, r *response) {
	if r.size() > rc.max/8 {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if old, ok := rc.entries[key]; ok {
		rc.bytes -= old.size()
	}
	for k, old := range rc.entries {
		if rc.bytes+r.size() <= rc.max {
			break
		}
		delete(rc.entries, k)
		rc.bytes -= old.size()
	}
	rc.entries[key] = r
	rc.bytes += r.size()
}

// cache serves the routes in cachedRoutes from rendered bytes: 304 when
// the client's If-None-Match holds the ETag, gzip when the client accepts
// it, and Cache-Control for browsers and CDNs. On a miss the handler runs
// once and its 200 answer is kept; anything else passes through untouched.
// Requests with a query string are not cached, so random queries cannot
// flush the cache. Server.serveFast answers hits before the router does;
// this middleware keeps what it finds.
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
			if f := pageFormat(c); f != "" && f != formatHTML {
				key = f + " " + key // text and Markdown beside the HTML page
			}
			if r := s.responses.get(key); r != nil {
				r.pick(c.Request().Header.Get(echo.HeaderAcceptEncoding)).write(c.Response(), c.Request(), nil)
				return nil
			}
			r, err := capture(c, next)
			if err != nil || r == nil {
				return err
			}
			s.responses.put(key, r)
			r.pick(c.Request().Header.Get(echo.HeaderAcceptEncoding)).write(c.Response(), c.Request(), nil)
			return nil
		}
	}
}

// cacheKey is the key of the answer to r for the path the router matched.
// Without --base-url, pages show absolute links of the request's origin,
// which is one of a fixed few (see origins), so the key holds it too.
func (s *Server) cacheKey(r *http.Request, path string) string {
	if s.cfg.BaseURL != "" {
		return path
	}
	return s.origins.of(r) + path
}

// cacheKeyAt is cacheKey for a request whose origin (origins.of) is known.
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
// serveFast finds it without routing.
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
			return cacheable(c) || c.Path() == "/static/*" || c.Path() == "/favicon.ico"
		},
	})
}

// cacheable reports whether the cache middleware handles this request.
func cacheable(c echo.Context) bool {
	req := c.Request()
	return (req.Method == http.MethodGet || req.Method == http.MethodHead) && req.URL.RawQuery == "" && cachedRoutes[c.Path()]
}

// capture runs next with a buffer for the body. It returns the response
// when next answered 200 with a body; otherwise it replays what next wrote
// and returns nil.
func capture(c echo.Context, next echo.HandlerFunc) (*response, error) {
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
	r := newResponse(c.Path(), h.Get(echo.HeaderContentType), rec.buf.Bytes())
	h.Del(echo.HeaderContentLength)
	return r, nil
}

func newResponse(route, contentType string, body []byte) *response {
	sum := sha256.Sum256(body)
	return prepare(route, contentType, bytes.Clone(body), hex.EncodeToString(sum[:12]), cacheControl, 0)
}

// prepare makes the plain and gzip answers of body, the gzip one only when
// body has at least minGzip bytes and gzip makes it smaller. The ETag is
// tag, quoted, with "-gz" added for the gzip form so that no cache mixes
// the two up.
func prepare(route, contentType string, body []byte, tag, cache string, minGzip int) *response {
	vary := echo.HeaderAcceptEncoding
	if formatRoutes[route] {
		vary = echo.HeaderAccept + ", " + vary // error pages also answer text and Markdown
	}
	r := &response{route: route, plain: newAnswer(contentType, body, `"`+tag+`"`,
		"Vary", vary, "Cache-Control", cache)}
	if len(body) < minGzip {
		return r
	}
	var gz bytes.Buffer
	// The default level: within a few percent of the best ratio on pages,
	// at a fraction of the time every cache miss pays.
	w, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	_, _ = w.Write(body)
	_ = w.Close()
	if gz.Len() < len(body) {
		r.gz = newAnswer(contentType, gz.Bytes(), `"`+tag+`-gz"`,
			"Vary", vary, "Cache-Control", cache, "Content-Encoding", "gzip")
	}
	return r
}

// pick is the form of r for a request with this Accept-Encoding: gzip
// when it accepts it.
func (r *response) pick(acceptEncoding string) *answer {
	if r.gz != nil && acceptsGzip(acceptEncoding) {
		return r.gz
	}
	return r.plain
}

// acceptsGzip reports whether an Accept-Encoding value allows gzip.
func acceptsGzip(ae string) bool {
	for part := range strings.SplitSeq(ae, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
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
