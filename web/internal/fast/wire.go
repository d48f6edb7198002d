package fast

import (
	"context"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Answering cache hits on the wire.
//
// Once Path.Serve answered cache hits before the router, what a cached page
// cost was net/http's own work: about 10 KB of garbage per request (the
// request, its header map and context, the cloned response header), the
// header sort, a goroutine reading ahead to notice a closed connection,
// and five deadline changes (BENCHMARKS.md). A Listener reads the
// requests of each connection itself; a GET or HEAD whose answer
// Path.Serve would give from a prepared answer (a cached page or API
// record, a static file) it writes directly: the same status line,
// headers, body, request log line and metrics, with the header block
// prepared once (answer.Answer.Wire). The first request it does not answer,
// and everything after it on that connection (including the bytes
// already read), goes to net/http, which gets the connection through
// Accept as if it were new. So anything this file does not fully
// understand is net/http's, as before.
//
// On connections from a trusted proxy (Config.TrustedProxies) the
// forwarded headers are read for each request, by the code that reads them
// for net/http's requests (Plain.Origins, Plain.Client).

// wireBufBytes is the buffer each connection reads requests into; a head
// that does not fit goes to net/http. net/http reads in 4 KiB too.
const wireBufBytes = 4 << 10

// Listener is a net.Listener for an http.Server whose Handler serves the
// plain path behind Path.Serve: it answers cache hits itself and hands
// every other connection to the http.Server through Accept. The server's
// timeouts apply to both (read header, idle, write); Close (which Shutdown
// calls) closes the idle connections it serves and the others after their
// answer, and Wait waits until they are closed or handed over.
type Listener struct {
	inner                   net.Listener
	f                       *Path
	readHeader, idle, write time.Duration
	errorLog                *log.Logger // the http.Server's

	handoff   chan net.Conn
	errs      chan error
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error

	mu      sync.Mutex
	conns   map[*wireConn]struct{}
	closing atomic.Bool
	active  sync.WaitGroup

	answered atomic.Int64 // requests answered on the wire
}

// Listener wraps ln for hs, an http.Server serving the plain path behind
// f, and starts accepting. Serve hs with the returned listener, with
// ConnContext as its ConnContext (the connections it hands over are
// coalescing ones).
func (f *Path) Listener(ln net.Listener, hs *http.Server) *Listener {
	l := &Listener{inner: ln, f: f, readHeader: hs.ReadHeaderTimeout, idle: hs.IdleTimeout, write: hs.WriteTimeout, errorLog: hs.ErrorLog,
		handoff: make(chan net.Conn), errs: make(chan error), done: make(chan struct{}), conns: map[*wireConn]struct{}{}}
	// net/http's own fallbacks (http.Server.readHeaderTimeout, idleTimeout).
	if l.readHeader == 0 {
		l.readHeader = hs.ReadTimeout
	}
	if l.idle == 0 {
		l.idle = hs.ReadTimeout
	}
	go l.acceptLoop()
	return l
}

// Accept returns the next connection for net/http.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.handoff:
		return c, nil
	case err := <-l.errs:
		return nil, err
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Addr is the address listened on.
func (l *Listener) Addr() net.Addr { return l.inner.Addr() }

// Close stops accepting, closes the connections the wire path serves that
// wait for a request, and makes the others close after their current
// answer: what http.Server.Shutdown does to its own.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() {
		close(l.done)
		l.closeErr = l.inner.Close()
		l.mu.Lock()
		l.closing.Store(true)
		l.mu.Unlock()
		l.closeWaiting(wireNew)
	})
	return l.closeErr
}

// CloseIdle closes the connections waiting for a request after an
// answer, as http.Server.SetKeepAlivesEnabled(false) closes net/http's;
// with the Server draining, the others close after their current answer.
func (l *Listener) CloseIdle() { l.closeWaiting(wireIdle) }

// closeWaiting closes the connections in state from or above: idle ones,
// and from wireNew, those with no request begun yet.
func (l *Listener) closeWaiting(from int32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		if c.state.Load() >= from {
			_ = c.conn.Close()
		}
	}
}

// Wait waits, after Close, until every connection the wire path served is
// closed or handed to net/http, or ctx ends.
func (l *Listener) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { l.active.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Listener) acceptLoop() {
	var backoff time.Duration
	for {
		c, err := l.inner.Accept()
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Temporary() { //nolint:staticcheck // as net/http decides
				// Retried here, not by net/http: it would sleep before
				// its next Accept, and the connections handed over
				// through Accept would wait for it.
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				l.logf("http: Accept error: %v; retrying in %v", err, backoff)
				select {
				case <-time.After(backoff):
				case <-l.done:
					return
				}
				continue
			}
			select {
			case l.errs <- err:
			case <-l.done:
			}
			return
		}
		backoff = 0
		wc := &wireConn{l: l, conn: c}
		l.mu.Lock()
		if l.closing.Load() {
			l.mu.Unlock()
			_ = c.Close()
			continue
		}
		l.conns[wc] = struct{}{}
		l.active.Add(1)
		l.mu.Unlock()
		go wc.serve()
	}
}

// logf logs as net/http logs its own accept errors: to the server's
// ErrorLog, else the log package's default logger.
func (l *Listener) logf(format string, args ...any) {
	if l.errorLog != nil {
		l.errorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// Answered is how many requests the wire path has answered itself.
func (l *Listener) Answered() int64 { return l.answered.Load() }

// States counts the connections the wire path serves by what they do:
// reading a request or answering it, waiting for their first request,
// waiting for another.
func (l *Listener) States() (busy, fresh, idle int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		switch c.state.Load() {
		case wireBusy:
			busy++
		case wireNew:
			fresh++
		case wireIdle:
			idle++
		}
	}
	return busy, fresh, idle
}
