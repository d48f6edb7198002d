package web

import (
	"context"
	"net"
	"net/http"

	"github.com/errkb/errkb/web/internal/fast"
)

// The plain path's side of the fast path's contract (web/internal/fast):
// what this server gives it, and what cmd/errkb serves it with.

// plain is this server as the fast path sees it: the route table, the
// response cache and how its keys are made, the answers prepared at
// start-up, the request limits and origins, and the Exchange through
// which both paths record a request.
func (s *Server) plain() fast.Plain {
	return fast.Plain{
		Routes:      Routes(),
		Cache:       s.responses,
		CacheKey:    s.cacheKeyAt,
		Prepared:    s.prepared,
		RateLimited: s.cfg.RateLimit > 0,
		MaxTarget:   MaxURIBytes,
		Origins:     s.origins,
		Client:      s.echo.IPExtractor,
		Forwarded:   forwardedHeaders,
		Draining:    s.draining.Load,
		Exchange:    s.exchange,
	}
}

// FastListener is a listener that answers the fast path's requests on the
// wire, before net/http reads them, and hands every other connection to
// the http.Server (web/internal/fast/wire.go).
type FastListener = fast.Listener

// FastListener wraps ln for hs, an http.Server whose Handler is s, and
// starts accepting. Serve hs with the returned listener and ConnContext.
func (s *Server) FastListener(ln net.Listener, hs *http.Server) *FastListener {
	return s.fast.Listener(ln, hs)
}

// CoalescingListener wraps ln so that a kept answer leaves in one write
// (web/internal/fast/coalesce.go). Serve it with ConnContext.
func CoalescingListener(ln net.Listener) net.Listener { return fast.CoalescingListener(ln) }

// ConnContext is for http.Server.ConnContext: it lets the fast path find
// the connection a request came on.
func ConnContext(ctx context.Context, c net.Conn) context.Context { return fast.ConnContext(ctx, c) }
