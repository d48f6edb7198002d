package answer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Response is one page, API record or static file prepared as an answer
// in plain and gzip forms, with the route it answers for (the metrics
// count it there).
type Response struct {
	Route string
	plain *Answer
	gz    *Answer // nil when gzip does not make it smaller
}

// Rendered prepares a page or API record the router rendered: tagged by a
// hash of its bytes, so a client's copy from an earlier dataset or release
// never matches, and gzipped when that makes it smaller.
func Rendered(route, contentType string, body []byte, cacheControl, vary string) *Response {
	sum := sha256.Sum256(body)
	return Prepare(route, contentType, bytes.Clone(body), hex.EncodeToString(sum[:12]), cacheControl, vary, 0)
}

// Prepare makes the plain and gzip answers of body, the gzip one only when
// body has at least minGzip bytes and gzip makes it smaller. The ETag is
// tag, quoted, with "-gz" added for the gzip form so that no cache mixes
// the two up; vary is the Vary header of both.
func Prepare(route, contentType string, body []byte, tag, cacheControl, vary string, minGzip int) *Response {
	r := &Response{Route: route, plain: newAnswer(contentType, body, `"`+tag+`"`,
		"Vary", vary, "Cache-Control", cacheControl)}
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
			"Vary", vary, "Cache-Control", cacheControl, "Content-Encoding", "gzip")
	}
	return r
}

// Pick is the form of r for a request with this Accept-Encoding: gzip
// when it accepts it.
func (r *Response) Pick(acceptEncoding string) *Answer {
	if r.gz != nil && AcceptsGzip(acceptEncoding) {
		return r.gz
	}
	return r.plain
}

// Size is what r takes in memory, near enough for the cache's budget.
func (r *Response) Size() int {
	n := 512 // the prepared headers
	if r.plain != nil {
		n += len(r.plain.body)
	}
	if r.gz != nil {
		n += len(r.gz.body)
	}
	return n
}

// AcceptsGzip reports whether an Accept-Encoding value allows gzip.
func AcceptsGzip(ae string) bool {
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
