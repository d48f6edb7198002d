package web

import (
	"net/http"
	"strconv"
	"strings"
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
	return a
}

// write answers r with a, applying r's conditions the way
// http.ServeContent does for a resource with an ETag and no modification
// time: a failed If-Match is 412; an If-None-Match holding the ETag, under
// the weak comparison, is 304. HEAD gets the headers of GET and no body.
// It returns the status written. With cc (serveFast's connection, else
// nil) a 200 whose head and body would leave in two writes leaves in one:
// see coalesce.go.
func (a *answer) write(w http.ResponseWriter, r *http.Request, cc *coalescingConn) int {
	status, hdr := http.StatusOK, a.ok
	if im := r.Header.Get("If-Match"); im != "" && !etagMatchesStrong(im, a.etag) {
		status, hdr = http.StatusPreconditionFailed, a.notModified
	} else if etagMatches(r.Header.Get("If-None-Match"), a.etag) {
		status, hdr = http.StatusNotModified, a.notModified
	}
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
