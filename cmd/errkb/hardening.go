package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/errkb/errkb/web"
)

// serverLimits are the limits of the HTTP server, all in one place. A slow
// client may hold a connection only this long, so a few thousand of them
// cannot exhaust the server; echo.New() sets none of them.
type serverLimits struct {
	ReadHeader time.Duration // whole request line and headers, from accept
	Read       time.Duration // whole request, body included
	Write      time.Duration // from the end of the headers to the end of the answer
	Idle       time.Duration // between keep-alive requests
	MaxHeader  int           // request line and headers, bytes
}

var defaultLimits = serverLimits{
	ReadHeader: 10 * time.Second,
	Read:       30 * time.Second,
	Write:      60 * time.Second,
	Idle:       2 * time.Minute,
	MaxHeader:  64 << 10, // request line included; room for web.MaxURIBytes
}

// Shutdown: how long in-flight requests get to finish, and how long the
// server keeps answering after SIGTERM (with /readyz failing) so that a
// load balancer stops sending new ones first.
const (
	shutdownGrace = 10 * time.Second
	shutdownDelay = 2 * time.Second
)

// newHTTPServer wraps h in a server with the given limits; its own errors
// (timeouts, bad requests) go to log at Warn.
func newHTTPServer(h http.Handler, lim serverLimits, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeader,
		ReadTimeout:       lim.Read,
		WriteTimeout:      lim.Write,
		IdleTimeout:       lim.Idle,
		MaxHeaderBytes:    lim.MaxHeader,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// The connections web.FastListener hands over are coalescing ones:
		// cached answers leave in one write.
		ConnContext: web.ConnContext,
	}
}

// proxyList collects --trust-proxy values: addresses or CIDR ranges,
// repeated or comma-separated.
type proxyList []*net.IPNet

func (p *proxyList) String() string {
	var s []string
	for _, n := range *p {
		s = append(s, n.String())
	}
	return strings.Join(s, ",")
}

func (p *proxyList) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			ip := net.ParseIP(part)
			if ip == nil {
				return fmt.Errorf("%q is not an IP address or CIDR range", part)
			}
			bits := 128
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			*p = append(*p, &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)})
			continue
		}
		_, n, err := net.ParseCIDR(part)
		if err != nil {
			return fmt.Errorf("%q is not an IP address or CIDR range", part)
		}
		*p = append(*p, n)
	}
	return nil
}

// shutdown stops the server gracefully: /readyz turns 503 and keep-alive
// ends at once, new connections are still accepted for delay so load
// balancers notice, then the listener closes and requests in flight get
// grace to finish, on fl's connections as on hs's. It reports whether they
// all did.
func shutdown(hs *http.Server, fl *web.FastListener, srv *web.Server, delay, grace time.Duration, log *slog.Logger) bool {
	srv.Drain()
	hs.SetKeepAlivesEnabled(false)
	fl.CloseIdle()
	log.Info("shutting down", "delay", delay, "grace", grace)
	time.Sleep(delay)
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := hs.Shutdown(ctx) // closes fl too
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		err = fl.Wait(ctx)
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("requests still running after the grace period; closing them", "err", err)
		_ = hs.Close()
		return false
	}
	log.Info("stopped")
	return true
}
