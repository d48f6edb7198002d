package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
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

// response is one rendered answer, kept as bytes with its gzip form.
type response struct {
	contentType string
	body        []byte
	gz          []byte // nil when gzip does not make it smaller
	etag        string // of body; the gzip form's ETag adds "-gz"
}

func (r *response) size() int { return len(r.body) + len(r.gz) + 128 }

// responseCache holds rendered responses by request path. A Server serves
// one dataset with one binary for its whole life, so an entry never goes
// stale; and the ETag is a hash of the bytes, so a client's copy from an
// earlier dataset or release never matches a new page.
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
// flush the cache.
func (s *Server) cache() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			// Before the index is ready, record pages lack the related
			// errors search finds, so nothing is kept yet.
			if !cacheable(c) || !s.Ready() {
				return next(c)
			}
			key := c.Request().URL.Path
			if s.cfg.BaseURL == "" {
				key = c.Request().Host + key // pages show absolute URLs of this host
			}
			if f := pageFormat(c); f != "" {
				key = f + " " + key // one entry per format: HTML, text, Markdown
			}
			if r := s.responses.get(key); r != nil {
				return serveCached(c, r)
			}
			r, err := capture(c, next)
			if err != nil || r == nil {
				return err
			}
			s.responses.put(key, r)
			return serveCached(c, r)
		}
	}
}

// compress gzips the answers the cache does not handle, for clients that
// ask; cached answers are compressed once, when they are kept.
func (s *Server) compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: 1024,
		Skipper:   func(c echo.Context) bool { return cacheable(c) },
	})
}

// cacheable reports whether the cache middleware handles this request.
func cacheable(c echo.Context) bool {
	req := c.Request()
	return req.Method == http.MethodGet && req.URL.RawQuery == "" && cachedRoutes[c.Path()]
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
	r := newResponse(h.Get(echo.HeaderContentType), rec.buf.Bytes())
	h.Del(echo.HeaderContentLength)
	return r, nil
}

func newResponse(contentType string, body []byte) *response {
	sum := sha256.Sum256(body)
	r := &response{contentType: contentType, body: bytes.Clone(body), etag: hex.EncodeToString(sum[:12])}
	var gz bytes.Buffer
	// The default level: within a few percent of the best ratio on pages,
	// at a fraction of the time every cache miss pays.
	w, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	_, _ = w.Write(body)
	_ = w.Close()
	if gz.Len() < len(body) {
		r.gz = gz.Bytes()
	}
	return r
}

// serveCached writes r, or 304 when the client already holds it.
func serveCached(c echo.Context, r *response) error {
	req, h := c.Request(), c.Response().Header()
	body, etag := r.body, `"`+r.etag+`"`
	useGzip := r.gz != nil && acceptsGzip(req.Header.Get(echo.HeaderAcceptEncoding))
	if useGzip {
		body, etag = r.gz, `"`+r.etag+`-gz"`
	}
	vary := echo.HeaderAcceptEncoding
	if pageFormat(c) != "" {
		vary = echo.HeaderAccept + ", " + vary
	}
	h.Set(echo.HeaderVary, vary)
	h.Set("Cache-Control", cacheControl)
	h.Set("ETag", etag)
	if etagMatches(req.Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	if useGzip {
		h.Set(echo.HeaderContentEncoding, "gzip")
	}
	// A known length lets net/http send head and body in one write rather
	// than as chunks.
	h.Set(echo.HeaderContentLength, strconv.Itoa(len(body)))
	return c.Blob(http.StatusOK, r.contentType, body)
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

// etagMatches applies If-None-Match's weak comparison (RFC 9110 13.1.2).
func etagMatches(inm, etag string) bool {
	if inm == "" {
		return false
	}
	for part := range strings.SplitSeq(inm, ",") {
		t := strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if t == "*" || t == etag {
			return true
		}
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
