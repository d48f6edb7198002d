package fast

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/errkb/errkb/web/internal/exchange"
)

// One connection of the wire path (see wire.go): reading its requests,
// writing the answers, handing it to net/http.

// What a connection is doing, for Close and CloseIdle.
const (
	wireBusy int32 = iota // reading a request or answering it
	wireNew               // waiting for its first request
	wireIdle              // waiting for another request
)

// wireConn is one connection the wire path serves.
type wireConn struct {
	l       *Listener
	conn    net.Conn
	remote  string       // the peer's address
	client  string       // the request log's client address, unless trusted
	trusted bool         // the peer is a trusted proxy
	state   atomic.Int32 // wireBusy, wireNew or wireIdle
	req     wireRequest
	// host and hostOrigin are the last Host read and its origin; see
	// origin.
	host, hostOrigin string
	// headDeadline is the read-header deadline of the request being
	// read: from accept for the first, from its first bytes for others.
	headDeadline time.Time
	head         []byte      // the answer's head; reused
	bufs         net.Buffers // the writev argument; a field so it does not escape per call
	vec          [2][]byte
}

func (c *wireConn) serve() {
	l := c.l
	c.remote = c.conn.RemoteAddr().String()
	probe := &http.Request{RemoteAddr: c.remote, Header: http.Header{}}
	c.trusted = l.f.plain.Origins.FromProxy(probe)
	c.client = l.f.plain.Client(probe)
	c.headDeadline = deadline(l.readHeader) // from accept, as net/http
	setDeadline(c.conn.SetReadDeadline, c.headDeadline, false)
	buf := make([]byte, wireBufBytes)
	start, end, first := 0, 0, true
	for {
		r := headIncomplete
		if begun(first, end-start) {
			r = parseHead(buf[start:end], &c.req)
		}
		// The first request's head is timed from accept; a later one's
		// from when it begins.
		waited, timed := false, first
		if !timed && begun(first, end-start) {
			c.headDeadline = deadline(l.readHeader)
			setDeadline(c.conn.SetReadDeadline, c.headDeadline, true)
			timed = true
		}
		for r == headIncomplete {
			if start > 0 {
				end, start = copy(buf, buf[start:end]), 0
			}
			if end == len(buf) {
				r = headOther
				break
			}
			if !begun(first, end) {
				// No request begun: Close may close the connection, and
				// between requests so may CloseIdle.
				state := wireNew
				if !first {
					state = wireIdle
				}
				c.state.Store(state)
				if l.closing.Load() || state == wireIdle && l.f.plain.Draining() {
					c.close()
					return
				}
				if state == wireIdle && !waited {
					setDeadline(c.conn.SetReadDeadline, deadline(l.idle), true) // as net/http
					waited = true
				}
			} else if !timed {
				// A later request has begun: its read-header timeout.
				c.headDeadline = deadline(l.readHeader)
				setDeadline(c.conn.SetReadDeadline, c.headDeadline, true)
				timed = true
			}
			n, err := c.conn.Read(buf[end:])
			c.state.Store(wireBusy)
			end += n
			if err != nil {
				c.readFailed(buf[:end], begun(first, end), err)
				return
			}
			if begun(first, end) {
				r = parseHead(buf[:end], &c.req)
			}
		}
		first = false
		if r == headOther || l.f.plain.Draining() {
			// While draining, net/http answers with Connection: close.
			c.handOff(buf[start:end])
			return
		}
		keep, answered := c.answer(&c.req)
		if !answered {
			c.handOff(buf[start:end])
			return
		}
		start += c.req.size
		if !keep || l.closing.Load() || l.f.plain.Draining() {
			c.close()
			return
		}
	}
}

// begun reports whether n bytes held begin a request: the first request
// begins with its first byte, a later one with its fourth, as net/http
// waits for four bytes (under the idle timeout) between requests.
func begun(first bool, n int) bool {
	if first {
		return n > 0
	}
	return n >= peekBytes
}

// peekBytes is how many bytes net/http waits for between requests
// (conn.serve's Peek(4)) before it reads a request: fewer, followed by
// the end of the connection or the idle timeout, draw no answer.
const peekBytes = 4

// readFailed ends a connection whose read failed with held bytes read.
// When a request has begun and the client ended it (EOF) or the
// read-header timeout did, net/http gets the connection with those bytes
// and its deadline passed, and answers as it does alone (a 400 when the
// head stops inside its request line, nothing otherwise); before that,
// or on any other error, it is closed without a word, as net/http closes
// its own.
func (c *wireConn) readFailed(held []byte, begun bool, err error) {
	var ne net.Error
	if begun && (errors.Is(err, io.EOF) || errors.As(err, &ne) && ne.Timeout()) {
		c.handOff(held)
		return
	}
	c.close()
}

// deadline is d from now, or none when d is zero.
func deadline(d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return time.Now().Add(d)
}

// setDeadline sets a read or write deadline t; a zero t clears the one
// set when clear is set (net/http's idle and header waits), else is
// ignored.
func setDeadline(set func(time.Time) error, t time.Time, clear bool) {
	if !t.IsZero() || clear {
		_ = set(t)
	}
}

// answer writes the answer Path.Serve would give req, if it has one; it
// reports whether it answered, and whether the connection stays open.
func (c *wireConn) answer(req *wireRequest) (keep, answered bool) {
	f := c.l.f
	start := time.Now()
	path := string(req.target)
	origin, client := c.origin(req.host), c.client
	if c.trusted {
		fwd := c.forwarded(req)
		origin, client = f.plain.Origins.Of(fwd), f.plain.Client(fwd)
	}
	a, route := f.answer(path, path, false, origin, string(req.accept), string(req.acceptEncoding))
	if a == nil {
		return false, false
	}
	f.plain.Exchange.Begin()
	id := exchange.RequestID(string(req.requestID))
	status, _ := a.Condition("", string(req.ifNoneMatch))
	h := a.Wire(status)
	// What net/http writes: the status line, the handler's headers sorted,
	// then Date and Connection.
	b := c.head[:0]
	if req.http10 {
		b = append(b, "HTTP/1.0 "...)
	} else {
		b = append(b, "HTTP/1.1 "...)
	}
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	b = append(b, http.StatusText(status)...)
	b = append(b, "\r\n"...)
	b = append(b, h.Before...)
	b = append(b, "X-Request-Id: "...)
	b = append(b, id...)
	b = append(b, "\r\n"...)
	b = append(b, h.After...)
	b = append(b, "Date: "...)
	b = time.Now().UTC().AppendFormat(b, http.TimeFormat)
	b = append(b, "\r\n"...)
	keep = true
	switch {
	case req.http10 && req.keepAlive:
		b = append(b, "Connection: keep-alive\r\n"...)
	case req.http10:
		keep = false
	case req.close:
		b = append(b, "Connection: close\r\n"...)
		keep = false
	}
	b = append(b, "\r\n"...)
	c.head = b
	var body []byte
	if status == http.StatusOK && !req.head {
		body = a.Body()
	}
	err := c.write(b, body)
	method := http.MethodGet
	if req.head {
		method = http.MethodHead
	}
	f.served(route, id, method, path, status, start, client)
	c.l.answered.Add(1)
	return keep && err == nil, true
}

// origin is the origin of a request with Host host on this connection.
// A connection's requests name one host as a rule, so the last answer is
// kept: asking the plain path through its interface would cost each
// request the host's copy on the heap.
func (c *wireConn) origin(host []byte) string {
	if c.hostOrigin == "" || string(host) != c.host {
		c.host = string(host)
		c.hostOrigin = c.l.f.plain.Origins.At(c.host, false)
	}
	return c.hostOrigin
}

// forwarded is req as far as the code reading forwarded headers for
// net/http's requests sees it: peer, Host and those headers.
func (c *wireConn) forwarded(req *wireRequest) *http.Request {
	r := &http.Request{RemoteAddr: c.remote, Host: string(req.host), Header: http.Header{}}
	for _, f := range req.fields[:req.nField] {
		for _, name := range c.l.f.plain.Forwarded {
			if asciiEqualFold(f[0], name) {
				r.Header[name] = append(r.Header[name], string(f[1]))
			}
		}
	}
	return r
}

// write sends head and body in one system call, within the write timeout.
func (c *wireConn) write(head, body []byte) error {
	setDeadline(c.conn.SetWriteDeadline, deadline(c.l.write), false)
	if len(body) == 0 {
		_, err := c.conn.Write(head)
		return err
	}
	c.vec = [2][]byte{head, body}
	c.bufs = c.vec[:]
	_, err := c.bufs.WriteTo(c.conn) // writev(2) on a TCP connection
	c.vec, c.bufs = [2][]byte{}, nil
	return err
}

// handOff gives the connection, with the bytes already read from it, to
// net/http. The request those bytes begin keeps its read-header deadline:
// net/http's own, which it sets first, can only come sooner (see
// Conn.SetReadDeadline), so a head read by both paths is still
// limited from its start.
func (c *wireConn) handOff(pending []byte) {
	c.untrack()
	_ = c.conn.SetWriteDeadline(time.Time{}) // net/http sets its own
	select {
	case c.l.handoff <- &Conn{Conn: c.conn, pending: pending, headDeadline: c.headDeadline}:
	case <-c.l.done:
		_ = c.conn.Close()
	}
}

func (c *wireConn) close() {
	_ = c.conn.Close()
	c.untrack()
}

func (c *wireConn) untrack() {
	c.l.mu.Lock()
	delete(c.l.conns, c)
	c.l.mu.Unlock()
	c.l.active.Done()
}
