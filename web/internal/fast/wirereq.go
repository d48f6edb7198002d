package fast

import "bytes"

// Reading request heads for the wire path (wire.go).
//
// parseHead accepts a strict subset of HTTP/1.1: the requests the wire
// path may answer from the cache, written the way browsers, curl, wrk and
// load balancers write them. Everything else, including whatever is valid
// HTTP but written otherwise, is left to net/http, byte for byte, so that
// what this parser accepts needs no more care than that: for every head it
// accepts, http.ReadRequest reads the same method, target, protocol and
// header fields, and net/http's server would take the request as it is
// (FuzzParseHead checks both).

// headResult is what parseHead made of the bytes it was given.
type headResult int

const (
	headIncomplete headResult = iota // no verdict yet: more bytes are needed
	headFast                         // a request the wire path may answer
	headOther                        // anything else: net/http reads it
)

// maxWireTarget bounds the request target the wire path reads; longer
// ones are net/http's (and the plain path's to refuse).
const maxWireTarget = 32 << 10

// maxWireFields bounds the header fields of a request the wire path takes.
const maxWireFields = 64

// wireRequest is one request head read by parseHead. Its byte slices
// point into the buffer parsed, and are valid until it changes.
type wireRequest struct {
	head   bool // HEAD, else GET
	http10 bool // HTTP/1.0, else HTTP/1.1
	target []byte
	host   []byte

	// The first value of each header the answer depends on, as
	// http.Header.Get gives it.
	accept, acceptEncoding, ifNoneMatch, requestID []byte
	// The single Connection header, when there is one: "close" or
	// "keep-alive" (any other value is left to net/http).
	close, keepAlive bool

	size   int // bytes of the head, the blank line included
	nField int
	fields [maxWireFields][2][]byte // name, value: every header field, in order
}

// parseHead reads the request head at the start of b into req.
func parseHead(b []byte, req *wireRequest) headResult {
	*req = wireRequest{fields: req.fields} // the fields array is overwritten as read
	line, rest, r := nextLine(b)
	if r != headFast {
		if r == headIncomplete && !couldBeFast(b) {
			return headOther
		}
		return r
	}
	if !req.requestLine(line) {
		return headOther
	}
	seenHost, seenConn := false, false
	for {
		line, rest, r = nextLine(rest)
		if r != headFast {
			return r
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := headerField(line)
		if !ok || req.nField == maxWireFields {
			return headOther
		}
		req.fields[req.nField] = [2][]byte{name, value}
		req.nField++
		switch {
		case asciiEqualFold(name, "Host"):
			if seenHost || !validWireHost(value) {
				return headOther
			}
			seenHost, req.host = true, value
		case asciiEqualFold(name, "Connection"):
			switch {
			case seenConn:
				return headOther
			case asciiEqualFold(value, "close"):
				req.close = true
			case asciiEqualFold(value, "keep-alive"):
				req.keepAlive = true
			default:
				return headOther
			}
			seenConn = true
		case asciiEqualFold(name, "Accept"):
			req.accept = first(req.accept, value)
		case asciiEqualFold(name, "Accept-Encoding"):
			req.acceptEncoding = first(req.acceptEncoding, value)
		case asciiEqualFold(name, "If-None-Match"):
			req.ifNoneMatch = first(req.ifNoneMatch, value)
		case asciiEqualFold(name, "X-Request-Id"):
			req.requestID = first(req.requestID, value)
		case asciiEqualFold(name, "Content-Length"), asciiEqualFold(name, "Transfer-Encoding"),
			asciiEqualFold(name, "Expect"), asciiEqualFold(name, "Upgrade"),
			asciiEqualFold(name, "If-Match"):
			// A body, a protocol change, or a 412 to work out: net/http's.
			return headOther
		}
	}
	if !seenHost {
		return headOther
	}
	req.size = len(b) - len(rest)
	return headFast
}

// first keeps the first value of a header, as http.Header.Get does; a
// header given empty counts as given.
func first(have, v []byte) []byte {
	if have != nil {
		return have
	}
	if v == nil {
		return []byte{}
	}
	return v
}

// nextLine splits the CRLF-terminated line at the start of b from the
// rest. A bare LF, or a CR inside the line, is headOther: net/http reads
// those its own way.
func nextLine(b []byte) (line, rest []byte, r headResult) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		if j := bytes.IndexByte(b, '\r'); j >= 0 && j != len(b)-1 {
			return nil, nil, headOther
		}
		return nil, nil, headIncomplete
	}
	if i == 0 || b[i-1] != '\r' || bytes.IndexByte(b[:i-1], '\r') >= 0 {
		return nil, nil, headOther
	}
	return b[:i-1], b[i+1:], headFast
}

// couldBeFast reports whether b, an incomplete request line, may still
// become one the wire path answers, so that anything else is handed over
// at its first bytes.
func couldBeFast(b []byte) bool {
	for _, m := range []string{"GET /", "HEAD /"} {
		if n := min(len(b), len(m)); string(b[:n]) == m[:n] {
			return true
		}
	}
	return false
}

// requestLine reads "GET /path HTTP/1.1": GET or HEAD, a target of path
// characters only (no query, no percent-escape, so that the path the
// router and the log see is the target itself), HTTP/1.1 or HTTP/1.0.
func (req *wireRequest) requestLine(line []byte) bool {
	switch {
	case bytes.HasPrefix(line, []byte("GET ")):
		line = line[len("GET "):]
	case bytes.HasPrefix(line, []byte("HEAD ")):
		line, req.head = line[len("HEAD "):], true
	default:
		return false
	}
	sp := bytes.IndexByte(line, ' ')
	if sp < 1 || line[0] != '/' || sp > maxWireTarget {
		return false
	}
	req.target = line[:sp]
	for _, c := range req.target {
		if !pathByte(c) {
			return false
		}
	}
	switch string(line[sp+1:]) {
	case "HTTP/1.1":
	case "HTTP/1.0":
		req.http10 = true
	default:
		return false
	}
	return true
}

// pathByte reports whether c stands for itself in a path: net/url
// neither escapes nor unescapes it, so URL.Path, URL.EscapedPath and the
// target are the same string.
func pathByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return bytes.IndexByte([]byte("-_.~$&+,/:;=@"), c) >= 0
}

// headerField splits "Name: value" into a token name and a value without
// its surrounding blanks, as net/textproto does; a line it would read
// otherwise (a continuation, a blank before the colon, a control
// character) is refused.
func headerField(line []byte) (name, value []byte, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon < 1 {
		return nil, nil, false
	}
	name = line[:colon]
	for _, c := range name {
		if !tokenByte(c) {
			return nil, nil, false
		}
	}
	value = bytes.Trim(line[colon+1:], " \t")
	for _, c := range value {
		if c < ' ' && c != '\t' || c == 0x7f {
			return nil, nil, false
		}
	}
	return name, value, true
}

// tokenByte reports whether c may be part of a header name (RFC 9110's
// tchar).
func tokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), c) >= 0
}

// validWireHost reports whether h is a Host the wire path takes: names,
// IPv4 and bracketed IPv6 addresses with a port, or empty (a subset of
// what net/http accepts).
func validWireHost(h []byte) bool {
	for _, c := range h {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '-', c == ':', c == '[', c == ']', c == '_':
		default:
			return false
		}
	}
	return true
}

// asciiEqualFold reports whether b and s are equal under ASCII case
// folding, as net/http compares header names and Connection options
// (RFC 9110 7.6.1: tokens are ASCII). bytes.EqualFold folds Unicode too,
// and would take "\u212Aeep-alive" (KELVIN SIGN) for "keep-alive".
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if lowerASCII(b[i]) != lowerASCII(s[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
