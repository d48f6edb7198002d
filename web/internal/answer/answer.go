// Package answer owns prepared answers: responses made once (a rendered
// page or API record, a static file) and written many times, by the
// router and by the fast path before it, with the same bytes. It also
// keeps the rendered ones (Cache).
package answer

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"github.com/errkb/errkb/web/internal/exchange"
)

// Answer is a response prepared once and written many times: its body and
// the full headers of its 200 and of its 304, security headers included, so
// serving it copies a few map entries and writes the bytes. Cached pages,
// API records and static files are answers.
type Answer struct {
	body        []byte
	etag        string      // quoted
	ok          http.Header // 200
	notModified http.Header // 304 and 412: no Content-Type or Content-Length

	// The header lines of ok and notModified as net/http writes them,
	// sorted, in two parts around X-Request-Id: what the wire path writes
	// (web/internal/fast/wire.go).
	wireOK, wireNotModified WireHead
}

// newAnswer prepares body with its Content-Type, ETag (quoted) and extra
// header name/value pairs (Cache-Control, Vary, Content-Encoding).
func newAnswer(contentType string, body []byte, etag string, extra ...string) *Answer {
	a := &Answer{body: body, etag: etag, ok: http.Header{}, notModified: http.Header{}}
	for k, v := range exchange.SecurityHeaders {
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
	exchange.AddCharset(a.ok)
	// A known length lets net/http send head and body in one write rather
	// than as chunks.
	a.ok.Set("Content-Length", strconv.Itoa(len(body)))
	a.wireOK, a.wireNotModified = newWireHead(a.ok), newWireHead(a.notModified)
	return a
}

// WireHead is a prepared header block split where a request's
// X-Request-Id line sorts in: Before, the X-Request-Id line, After.
type WireHead struct{ Before, After []byte }

// newWireHead writes h with http.Header's own writer, which is the one
// net/http uses for a response's header, so the lines are the same bytes
// in the same order.
func newWireHead(h http.Header) WireHead {
	below, above := map[string]bool{}, map[string]bool{}
	for k := range h {
		if k < "X-Request-Id" {
			below[k] = true
		} else {
			above[k] = true
		}
	}
	var before, after bytes.Buffer
	_ = h.WriteSubset(&before, above)
	_ = h.WriteSubset(&after, below)
	return WireHead{before.Bytes(), after.Bytes()}
}

// Body is what a 200 answer to a GET sends.
func (a *Answer) Body() []byte { return a.body }

// Wire is the prepared header block of the answer with status, 200 or
// one of Condition's others.
func (a *Answer) Wire(status int) WireHead {
	if status == http.StatusOK {
		return a.wireOK
	}
	return a.wireNotModified
}

// Condition is the status of a's answer to a request with these If-Match
// and If-None-Match values, and the headers that answer carries; the rules
// are http.ServeContent's for a resource with an ETag and no modification
// time: a failed If-Match is 412; an If-None-Match holding the ETag, under
// the weak comparison, is 304.
func (a *Answer) Condition(ifMatch, ifNoneMatch string) (int, http.Header) {
	if ifMatch != "" && !etagMatchesStrong(ifMatch, a.etag) {
		return http.StatusPreconditionFailed, a.notModified
	}
	if etagMatches(ifNoneMatch, a.etag) {
		return http.StatusNotModified, a.notModified
	}
	return http.StatusOK, a.ok
}

// Corker is a connection that can hold a write and send it with the next
// in one system call (web/internal/fast/coalesce.go).
type Corker interface {
	Cork()
	Uncork() error
}

// Write answers r with a, applying r's conditions (see Condition). HEAD
// gets the headers of GET and no body.
// It returns the status written. With cc (the fast path's connection,
// else nil) a 200 whose head and body would leave in two writes leaves in
// one.
func (a *Answer) Write(w http.ResponseWriter, r *http.Request, cc Corker) int {
	status, hdr := a.Condition(r.Header.Get("If-Match"), r.Header.Get("If-None-Match"))
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
	if cc == nil || !ok || len(a.body) < CorkMinBody {
		w.WriteHeader(status)
		_, _ = w.Write(a.body)
		return status
	}
	// Flush while corked: net/http's last write of the answer happens
	// here rather than after the handler returns. With Content-Length set
	// that changes nothing else it writes.
	cc.Cork()
	w.WriteHeader(status)
	_, _ = w.Write(a.body)
	f.Flush()
	_ = cc.Uncork() // a failed write also fails net/http's next read or write
	return status
}

// CorkMinBody is the body size from which corking may pay: smaller bodies
// fit with their header in net/http's 4 KiB connection buffer, which
// leaves in one write anyway.
const CorkMinBody = 2 << 10

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
