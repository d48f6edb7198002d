package exchange

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// contentSecurityPolicy allows the page's own stylesheet, images and scripts
// from the same origin and nothing inline, so text that slips into a page
// from a dataset can never run; frame-ancestors forbids framing.
const contentSecurityPolicy = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// SecurityHeaders are the headers every response carries. Callers copy
// them and must not change them.
var SecurityHeaders = http.Header{
	"Content-Security-Policy": {contentSecurityPolicy},
	"X-Content-Type-Options":  {"nosniff"},
	"X-Frame-Options":         {"DENY"},
	// 0 turns off the legacy XSS auditor, which itself leaked data
	// (OWASP); the CSP does its job.
	"X-Xss-Protection": {"0"},
	// Search URLs hold pasted log lines, which may hold secrets: never
	// send them to another site.
	"Referrer-Policy":            {"no-referrer"},
	"Cross-Origin-Opener-Policy": {"same-origin"},
}

// AddCharset adds a charset to a text Content-Type that lacks one.
func AddCharset(h http.Header) {
	ct := h.Get("Content-Type")
	if strings.HasPrefix(ct, "text/") && !strings.Contains(strings.ToLower(ct), "charset=") {
		h.Set("Content-Type", ct+"; charset=utf-8")
	}
}

var (
	idPrefix  = newIDPrefix()
	idCounter atomic.Uint64
)

func newIDPrefix() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// RequestID is the id of a request whose X-Request-Id is h: h itself when
// a proxy sent a well-formed one, so one request can be followed across
// both logs; else a new one, so clients cannot write arbitrary text into
// the logs.
func RequestID(h string) string {
	if ValidID(h) {
		return h
	}
	return idPrefix + "-" + strconv.FormatUint(idCounter.Add(1), 36)
}

// ValidID reports whether id may be kept as a request id: 1 to 64 bytes of
// [A-Za-z0-9._:-]. Written out rather than as a regular expression because
// it runs on every request.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}
