package web

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

// answer is a response prepared once and written many times: its body and
// the full headers of its 200 and of its 304, security headers included, so
// serving it copies a few map entries and writes the bytes. Cached pages,
// API records and static files are answers.
type answer struct {
	body        []byte
	etag        string      // quoted
	ok          http.Header // 200
	notModified http.Header // 304 and 412: no Content-Type or Content-Length

	// The header lines of ok and notModified as net/http writes them,
	// sorted, in two parts around X-Request-Id: what the wire path writes
	// (wire.go).
	wireOK, wireNotModified wireHead
}

// newAnswer prepares body with its Content-Type, ETag (quoted) and extra
// header name/value pairs (Cache-Control, Vary, Content-Encoding).
func newAnswer(contentType string, body []byte, etag string, extra ...string) *answer {
	a := &answer{body: body, etag: etag, ok: http.Header{}, notModified: http.Header{}}
	for k, v := range securityHeaderValues {
		a.ok[k], a.notModified[k] = v, v
	}
	for i := 0; i+1 < len(extra); i += 2 {
		a.ok.Set(extra[i], extra[i+1])
		if extra[i] != "Content-Encoding" {
			a.notModified.Set(extra[i], extra[i+1])
		}
	}
	a.ok.Set("ETag", etag)
	a.notModified.Set("ETag", etag)
	a.ok.Set("Content-Type", contentType)
	addCharset(a.ok)
	// A known length lets net/http send head and body in one write rather
	// than as chunks.
	a.ok.Set("Content-Length", strconv.Itoa(len(body)))
	a.wireOK, a.wireNotModified = newWireHead(a.ok), newWireHead(a.notModified)
	return a
}

// wireHead is a prepared header block split where a request's
// X-Request-Id line sorts in.
type wireHead struct{ before, after []byte }

// newWireHead writes h with http.Header's own writer, which is the one
// net/http uses for a response's header, so the lines are the same bytes
// in the same order.
func newWireHead(h http.Header) wireHead {
	below, above := map[string]bool{}, map[string]bool{}
	for k := range h {
		if k < echo.HeaderXRequestID {
			below[k] = true
		} else {
			above[k] = true
		}
	}
	var before, after bytes.Buffer
	_ = h.WriteSubset(&before, above)
	_ = h.WriteSubset(&after, below)
	return wireHead{before.Bytes(), after.Bytes()}
}

// condition is the status of a's answer to a request with these If-Match
// and If-None-Match values, and the headers that answer carries; the rules
// are http.ServeContent's for a resource with an ETag and no modification
// time: a failed If-Match is 412; an If-None-Match holding the ETag, under
// the weak comparison, is 304.
func (a *answer) condition(ifMatch, ifNoneMatch string) (int, http.Header) {
	if ifMatch != "" && !etagMatchesStrong(ifMatch, a.etag) {
		return http.StatusPreconditionFailed, a.notModified
	}
	if etagMatches(ifNoneMatch, a.etag) {
		return http.StatusNotModified, a.notModified
	}
	return http.StatusOK, a.ok
}

// write answers r with a, applying r's conditions (see condition). HEAD
// gets the headers of GET and no body.
// It returns the status written. With cc (serveFast's connection, else
// nil) a 200 whose head and body would leave in two writes leaves in one:
// see coalesce.go.
func (a *answer) write(w http.ResponseWriter, r *http.Request, cc *coalescingConn) int {
	status, hdr := a.condition(r.Header.Get("If-Match"), r.Header.Get("If-None-Match"))
	h := w.Header()
	if status != http.StatusOK {
		// A handler that rendered the answer on a cache miss left these.
		delete(h, "Content-Type")
		delete(h, "Content-Length")
	}
	for k, v := range hdr {
		h[k] = v
	}
	if status != http.StatusOK || r.Method == http.MethodHead {
		w.WriteHeader(status)
		return status
	}
	f, ok := w.(http.Flusher)
	if cc == nil || !ok || len(a.body) < corkMinBody {
		w.WriteHeader(status)
		_, _ = w.Write(a.body)
		return status
	}
	// Flush while corked: net/http's last write of the answer happens
	// here rather than after the handler returns. With Content-Length set
	// that changes nothing else it writes.
	cc.cork()
	w.WriteHeader(status)
	_, _ = w.Write(a.body)
	f.Flush()
	_ = cc.uncork() // a failed write also fails net/http's next read or write
	return status
}

// corkMinBody is the body size from which corking may pay: smaller bodies
// fit with their header in net/http's 4 KiB connection buffer, which
// leaves in one write anyway.
const corkMinBody = 2 << 10

// etagMatches applies If-None-Match's weak comparison (RFC 9110 13.1.2):
// any tag in the list, W/ or not, equal to etag; or "*".
func etagMatches(inm, etag string) bool {
	return matchETag(inm, etag, false)
}

// etagMatchesStrong applies If-Match's strong comparison: a weak tag in
// the list never matches.
func etagMatchesStrong(im, etag string) bool {
	return matchETag(im, etag, true)
}

func matchETag(list, etag string, strong bool) bool {
	if list == "" {
		return false
	}
	for part := range strings.SplitSeq(list, ",") {
		t := strings.TrimSpace(part)
		if t == "*" {
			return true
		}
		if weak := strings.HasPrefix(t, "W/"); weak {
			if strong {
				continue
			}
			t = t[2:]
		}
		if t == etag {
			return true
		}
	}
	return false
}
