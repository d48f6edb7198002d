package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/web"
)

// Server timeouts. A slow client may hold a connection only this long, so
// a few thousand of them cannot exhaust the server.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10 // request line included; room for web.MaxURIBytes
	shutdownGrace     = 10 * time.Second
	shutdownDelay     = 2 * time.Second
)

func serve(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr(getenv, "ERRKB_ADDR", "127.0.0.1:8080"), "listen address (env ERRKB_ADDR)")
	var datasets datasetFlag
	fs.Var(&datasets, "dataset", "dataset folder to serve instead of the embedded one; repeatable (env ERRKB_DATASET, OS list separator)")
	baseURL := fs.String("base-url", "", "absolute URL of the site, for links in the API (e.g. https://errkb.example.com)")
	skipInvalid := fs.Bool("skip-invalid", false, "serve the valid records of a dataset with bad ones, logging each left out")
	requestTimeout := fs.Duration("request-timeout", web.DefaultRequestTimeout, "deadline of one request")
	rateLimit := fs.Float64("rate-limit", 0, "requests a second allowed per client address; 0 turns the limit off")
	rateBurst := fs.Int("rate-burst", 0, "requests a client may send at once above --rate-limit (default twice the rate)")
	var proxies proxyList
	fs.Var(&proxies, "trust-proxy", "address or CIDR range of a reverse proxy whose X-Forwarded-For names the client; repeatable")
	grace := fs.Duration("shutdown-grace", shutdownGrace, "how long requests in flight may run after SIGTERM")
	delay := fs.Duration("shutdown-delay", shutdownDelay, "how long /readyz answers 503 before the listener closes on SIGTERM")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "errkb serve: unexpected arguments %q\n", fs.Args())
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	ds, err := loadDataset(datasetPaths(datasets, getenv), *skipInvalid, log)
	if err != nil {
		fmt.Fprintf(stderr, "errkb: refusing to start: %v\n", err)
		return 1
	}
	log.Info("dataset loaded", "records", ds.Len(), "projects", len(ds.Projects()), "version", ds.Version())

	srv := web.New(ds, web.Config{BaseURL: *baseURL, Logger: log, RequestTimeout: *requestTimeout,
		RateLimit: *rateLimit, RateBurst: *rateBurst, TrustedProxies: proxies})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "errkb: %v\n", err)
		return 1
	}
	hs := newHTTPServer(srv, defaultLimits, log)
	log.Info("listening", "addr", ln.Addr().String(), "url", "http://"+ln.Addr().String()+"/")

	// The index builds while the server already answers /healthz and record
	// pages; /readyz turns 200 when search is available.
	go func() {
		start := time.Now()
		ix, err := index.Build(ctx, ds, log)
		if err != nil {
			if ctx.Err() == nil {
				log.Error("index build failed", "err", err)
			}
			return
		}
		srv.IndexBuilt(ds.Len(), time.Since(start))
		srv.SetSearcher(ix)
		log.Info("ready")
	}()

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "errkb: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	if !shutdown(hs, srv, *delay, *grace, log) {
		return 1
	}
	return 0
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}
