package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/web/internal/exchange"
)

// Request limits. Every one is checked before a handler runs, so an oversize
// request costs microseconds, not a search.
const (
	// MaxURIBytes caps the request target. A query of index.MaxQueryBytes fully
	// percent-encoded is three times as long, and fits.
	MaxURIBytes = 32 << 10
	// MaxParamBytes caps every query parameter but q (repo, tag, page...).
	MaxParamBytes = 512
	// MaxBodyBytes caps a request body; no route reads one, so this only
	// bounds what a hostile client can make the server read.
	MaxBodyBytes = 10 << 10
	// StatusClientClosed is logged and counted for requests whose client
	// left before the answer (nginx's 499), so they do not pass for 5xx.
	StatusClientClosed = 499
	// DefaultRequestTimeout is the per-request deadline when Config leaves it 0.
	DefaultRequestTimeout = 5 * time.Second
)

// middleware installs the hardening shared by every route. Pre middleware
// runs before routing, so unknown paths and redirects get it too.
func (s *Server) middleware(e *echo.Echo) {
	e.IPExtractor = clientIP(s.cfg.TrustedProxies)
	e.Pre(securityHeaders, s.requestID, limitRequest, canonicalSlashes)
	e.Use(s.record)
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableStackAll: true, // the panicking goroutine's stack only, and only to the log
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			s.log.Error("panic in handler", "request_id", requestID(c), "path", c.Request().URL.Path, "err", err, "stack", string(stack))
			return err
		},
	}))
	if s.cfg.RateLimit > 0 {
		e.Use(s.rateLimit())
	}
	e.Use(restoreContext, middleware.ContextTimeoutWithConfig(middleware.ContextTimeoutConfig{
		Timeout: cmpOr(s.cfg.RequestTimeout, DefaultRequestTimeout),
		ErrorHandler: func(err error, c echo.Context) error {
			switch {
			case errors.Is(err, context.DeadlineExceeded):
				s.metrics.timeouts.Inc()
				return &Error{Status: http.StatusServiceUnavailable, Code: "timeout", Message: "the request took too long; try a shorter query"}
			case errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil:
				// The client went away; not a server error, and nobody reads the answer.
				return &Error{Status: StatusClientClosed, Code: "client_closed", Message: "the client closed the connection"}
			}
			return err
		},
	}))
}

// restoreContext puts back the request's own context once the deadline
// middleware inside it returns: that one cancels its context on return, and
// the error page, rendered after, must not see a cancelled context.
func restoreContext(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx := c.Request().Context()
		defer func() { // deferred, so a panic unwinding to Recover restores it too
			if c.Request().Context() != ctx {
				c.SetRequest(c.Request().WithContext(ctx))
			}
		}()
		return next(c)
	}
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// securityHeaders sets the headers every response carries, and adds a
// charset to any text answer that lacks one just before it is written.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		for k, v := range exchange.SecurityHeaders {
			h[k] = v
		}
		c.Response().Before(func() { exchange.AddCharset(h) })
		return next(c)
	}
}

// limitRequest refuses, before routing, requests no route should get: an
// oversize target (414) or parameter (400). The body is capped too.
func limitRequest(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if len(req.RequestURI) > MaxURIBytes || len(req.URL.RawQuery) > MaxURIBytes {
			return &Error{Status: http.StatusRequestURITooLong, Code: "uri_too_long",
				Message: "the address is longer than " + strconv.Itoa(MaxURIBytes) + " bytes"}
		}
		for name, vals := range c.QueryParams() {
			max := MaxParamBytes
			if name == "q" {
				max = index.MaxQueryBytes
			}
			for _, v := range vals {
				if len(v) > max {
					return badRequest(paramName(name) + " is longer than " + strconv.Itoa(max) + " bytes")
				}
			}
		}
		if req.Body != nil {
			req.Body = http.MaxBytesReader(c.Response(), req.Body, MaxBodyBytes)
		}
		return next(c)
	}
}

// paramName is a parameter name fit to echo in a message.
func paramName(name string) string {
	if len(name) > 32 || !exchange.ValidID(name) {
		return "a parameter"
	}
	return name
}

type requestIDKey struct{}

// requestID gives every request an id, shown in its log lines and sent
// back in X-Request-Id. A well-formed id from a proxy is kept so one
// request can be followed across both logs; anything else is replaced, so
// clients cannot write arbitrary text into the logs.
func (s *Server) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := exchange.RequestID(req.Header.Get(echo.HeaderXRequestID))
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		c.SetRequest(req.WithContext(context.WithValue(req.Context(), requestIDKey{}, id)))
		return next(c)
	}
}

// requestID returns the id the requestID middleware gave the request.
func requestID(c echo.Context) string {
	id, _ := c.Request().Context().Value(requestIDKey{}).(string)
	return id
}

// record counts every request by its route pattern and final status and
// writes its one log line, through the Exchange the fast path records
// with too. It answers the errors of the handlers inside it, so the
// status recorded is the one written.
func (s *Server) record(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s.exchange.Begin()
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err) // writes the response, so the status below is final
			if !c.Response().Committed {
				// Nothing could be written (the client left): record the
				// status the error stands for.
				c.Response().Status = asError(err).Status
			}
		}
		route := c.Path()
		if route == "" || c.Response().Status == http.StatusNotFound && route == "/*" {
			route = "unmatched"
		}
		req := c.Request()
		path := req.URL.Path
		if path == "" {
			path = "/"
		}
		s.exchange.Done(req.Context(), exchange.Request{Route: route, ID: requestID(c), Method: req.Method, Path: path,
			Status: c.Response().Status, Start: start, Client: c.RealIP()})
		return nil
	}
}

// clientIP decides whose address a request comes from. Without trusted
// proxies it is the connection's address, which a client cannot forge;
// with them, X-Forwarded-For is read from the right, skipping only the
// named proxies, so a client-supplied entry on the left is never believed.
func clientIP(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// rateLimit answers 429 to a client address over Config.RateLimit requests
// a second (with bursts of RateBurst). Probes and metrics are exempt so a
// busy load balancer never sees the server as down.
func (s *Server) rateLimit() echo.MiddlewareFunc {
	burst := s.cfg.RateBurst
	if burst <= 0 {
		burst = max(1, int(2*s.cfg.RateLimit))
	}
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: rate.Limit(s.cfg.RateLimit), Burst: burst, ExpiresIn: 3 * time.Minute,
	})
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Skipper: func(c echo.Context) bool {
			return byPattern[c.Path()].Unlimited
		},
		Store: store,
		IdentifierExtractor: func(c echo.Context) (string, error) {
			return c.RealIP(), nil
		},
		ErrorHandler: func(c echo.Context, err error) error {
			return &Error{Status: http.StatusForbidden, Code: "forbidden", Message: "the client address is unknown"}
		},
		DenyHandler: func(c echo.Context, id string, err error) error {
			s.metrics.rateLimited.Inc()
			c.Response().Header().Set("Retry-After", "1")
			return &Error{Status: http.StatusTooManyRequests, Code: "rate_limited", Message: "too many requests from this address; slow down"}
		},
	})
}
