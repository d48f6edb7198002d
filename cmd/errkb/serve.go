package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/web"
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
	fs.Var(&proxies, "trust-proxy", "address or CIDR range of a reverse proxy whose X-Forwarded-For (client address) and X-Forwarded-Proto (scheme) are believed; repeatable")
	var hosts hostList
	fs.Var(&hosts, "host", "host[:port] the site is reached under, shown in its absolute links when --base-url is not set; repeatable (default: the listen address)")
	workers := fs.Int("workers", 0, "searches, lookups and page renders run at once (default: the number of CPUs but one, at least 1)")
	queue := fs.Int("queue", 0, "such requests waiting for a worker before more answer 503 busy (default: eight per CPU)")
	grace := fs.Duration("shutdown-grace", shutdownGrace, "how long requests in flight may run after SIGTERM")
	delay := fs.Duration("shutdown-delay", shutdownDelay, "how long /readyz answers 503 before the listener closes on SIGTERM")
	indexDir := fs.String("index-dir", getenv("ERRKB_INDEX_DIR"), "folder to persist the search index in and reuse it from on restart; one per server process (env ERRKB_INDEX_DIR; default: a temporary folder removed on exit, into which the embedded dataset's prebuilt index is copied)")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "errkb serve: unexpected arguments %q\n", fs.Args())
		return 2
	}
	log, flushLog := newServeLogger(stderr)
	defer flushLog()

	started := time.Now()
	dir, cleanup, err := indexFolder(*indexDir)
	if err != nil {
		fmt.Fprintf(stderr, "errkb: index dir: %v\n", err)
		return 1
	}
	defer cleanup()
	ds, fromSnapshot, err := loadDataset(datasetPaths(datasets, getenv), *skipInvalid, dir, log)
	if err != nil {
		fmt.Fprintf(stderr, "errkb: refusing to start: %v\n", err)
		return 1
	}
	log.Info("dataset loaded", "records", ds.Len(), "projects", len(ds.Projects()), "version", ds.Version(),
		"from_snapshot", fromSnapshot, "took", time.Since(started).Round(time.Millisecond))

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "errkb: %v\n", err)
		return 1
	}
	if len(hosts) == 0 {
		hosts = hostList{listenHost(ln.Addr())}
	}
	broken, err := brokenSamples(datasetPaths(datasets, getenv))
	if err != nil {
		fmt.Fprintf(stderr, "errkb: refusing to start: %v\n", err)
		return 1
	}
	srv := web.New(ds, web.Config{BaseURL: *baseURL, Hosts: hosts, Logger: log, RequestTimeout: *requestTimeout,
		RateLimit: *rateLimit, RateBurst: *rateBurst, TrustedProxies: proxies, Workers: *workers, QueuedWork: *queue,
		BrokenSamples: broken})
	hs := newHTTPServer(srv, defaultLimits, log)
	log.Info("listening", "addr", ln.Addr().String(), "url", "http://"+ln.Addr().String()+"/")

	// The index builds while the server already answers /healthz and record
	// pages; /readyz turns 200 when search is available.
	go func() {
		start := time.Now()
		ix, err := index.OpenSeeded(ctx, ds, dir, prebuiltIndex(datasetPaths(datasets, getenv)), log)
		if err != nil {
			if ctx.Err() == nil {
				log.Error("index build failed", "err", err)
			}
			return
		}
		srv.IndexBuilt(ds.Len(), time.Since(start))
		srv.SetSearcher(ix)
		// Loading and indexing leave hundreds of MB of freed heap that Go
		// would return to the system only slowly; serving needs a fraction.
		debug.FreeOSMemory()
		// Serving allocates little per request but, with Go's default of
		// growing the heap to twice what is live, 100,000 records' worth of
		// live heap would still double. Half that headroom is plenty.
		if getenv("GOGC") == "" {
			debug.SetGCPercent(50)
		}
		log.Info("ready", "since_start", time.Since(started).Round(time.Millisecond))
	}()

	errc := make(chan error, 1)
	// Cache hits are answered on the wire; every other connection is
	// served by hs (web/internal/fast/wire.go).
	fl := srv.FastListener(ln, hs)
	go func() { errc <- hs.Serve(fl) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "errkb: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	if !shutdown(hs, fl, srv, *delay, *grace, log) {
		return 1
	}
	return 0
}

// indexFolder is where the index and the records' spill file go: dir when
// given, so the index outlives the process, else a temporary folder that
// cleanup removes. An on-disk index is used either way: bleve merges its
// segments in the background, which keeps searches fast and memory low,
// and an in-memory one does neither.
func indexFolder(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o755)
	}
	tmp, err := os.MkdirTemp("", "errkb-index-")
	if err != nil {
		return "", nil, err
	}
	return tmp, func() { os.RemoveAll(tmp) }, nil
}

// listenHost is the host[:port] links show by default: the listen
// address, with "localhost" for an unspecified one (0.0.0.0, ::), which no
// browser can open.
func listenHost(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}

// hostList collects --host values, repeated or comma-separated.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ",") }

func (h *hostList) Set(v string) error {
	for part := range strings.SplitSeq(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if strings.ContainsAny(part, "/?#@ ") {
			return fmt.Errorf("%q is not a host[:port]", part)
		}
		*h = append(*h, part)
	}
	return nil
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}
