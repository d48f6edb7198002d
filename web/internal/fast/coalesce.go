package fast

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// Writing one answer in one system call.
//
// net/http buffers a connection's output in 4 KiB. An answer whose header
// and body together exceed that (an error page, most API records) leaves in
// two write(2) calls: the buffer, header and first bytes of the body, once
// it fills, then the rest of the body. Those calls were most of the CPU a
// cached page took (42% of a profile under load: BENCHMARKS.md); one call
// instead of two saves about a third of that.
// Path.Serve holds the first of the two (corks the connection), and the
// second sends both with one writev(2). Nothing else changes: net/http still
// writes every byte, in the same order.

// CoalescingListener wraps ln so that Path.Serve can send a cached answer in
// one writev. Serve it with an http.Server whose ConnContext is ConnContext;
// without it connections behave exactly as ln's.
func CoalescingListener(ln net.Listener) net.Listener { return coalescingListener{ln} }

type coalescingListener struct{ net.Listener }

func (l coalescingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &Conn{Conn: c}, nil
}

type connKey struct{}

// ConnContext is for http.Server.ConnContext: it lets the handlers of a
// connection accepted by CoalescingListener find it.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*Conn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// Conn is a connection CoalescingListener accepted or Listener handed
// over. While corked, it holds the first write and sends it with the
// next. net/http writes to a connection only from the goroutine serving it,
// which is also the one running its handler, so no lock is needed.
type Conn struct {
	net.Conn
	pending []byte // read before the connection: what the wire path read and hands over
	// headDeadline is the read-header deadline of the request pending
	// begins, set by the wire path; see SetReadDeadline.
	headDeadline time.Time
	corked       bool
	held         []byte      // the first write while corked; reused
	bufs         net.Buffers // the writev argument; a field so it does not escape per call
	vec          [2][]byte
	writes       atomic.Int64 // write and writev calls made
}

// Writes is how many write and writev calls the connection has made.
func (c *Conn) Writes() int64 { return c.writes.Load() }

func connOf(r *http.Request) *Conn {
	cc, _ := r.Context().Value(connKey{}).(*Conn)
	return cc
}

// SetReadDeadline keeps the read-header limit of a handed-over request
// running from its start: the first deadline net/http sets is that of the
// head whose bytes pending holds, and it may come sooner than the wire
// path's, never later.
func (c *Conn) SetReadDeadline(t time.Time) error {
	if h := c.headDeadline; !h.IsZero() {
		c.headDeadline = time.Time{}
		if t.IsZero() || t.After(h) {
			t = h
		}
	}
	return c.Conn.SetReadDeadline(t)
}

// Read gives the bytes read before the hand-over first.
func (c *Conn) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		return c.Conn.Read(p)
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

func (c *Conn) Write(p []byte) (int, error) {
	if !c.corked {
		c.writes.Add(1)
		return c.Conn.Write(p)
	}
	if len(c.held) == 0 {
		// p is the caller's buffer, which it reuses once Write returns.
		c.held = append(c.held[:0], p...)
		return len(p), nil
	}
	held := len(c.held)
	c.vec = [2][]byte{c.held, p}
	c.bufs = c.vec[:]
	c.writes.Add(1)
	n, err := c.bufs.WriteTo(c.Conn) // writev(2) on a TCP connection
	c.held, c.vec, c.bufs = c.held[:0], [2][]byte{}, nil
	return max(int(n)-held, 0), err
}

// Cork holds the next write until a second write or Uncork.
func (c *Conn) Cork() { c.corked = true }

// Uncork sends what is held, if anything.
func (c *Conn) Uncork() error {
	c.corked = false
	if len(c.held) == 0 {
		return nil
	}
	c.writes.Add(1)
	_, err := c.Conn.Write(c.held)
	c.held = c.held[:0]
	return err
}

// ReadFrom keeps what net/http gets from a *net.TCPConn for io.Copy to
// the connection (sendfile, splice), after sending what is held.
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	if err := c.Uncork(); err != nil {
		return 0, err
	}
	return io.Copy(c.Conn, r)
}

// CloseWrite lets net/http half-close the connection, as it does a
// *net.TCPConn's, before closing it on an error.
func (c *Conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
