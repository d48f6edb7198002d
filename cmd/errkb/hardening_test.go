package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
	"github.com/errkb/errkb/web"
)

// TestDefaultLimits pins the connection limits the issue requires: every
// timeout set, the header timeout at most 10 s, a header size cap.
func TestDefaultLimits(t *testing.T) {
	l := defaultLimits
	if l.ReadHeader <= 0 || l.ReadHeader > 10*time.Second {
		t.Errorf("read-header timeout %v, want (0, 10s]", l.ReadHeader)
	}
	for name, d := range map[string]time.Duration{"read": l.Read, "write": l.Write, "idle": l.Idle} {
		if d <= 0 {
			t.Errorf("%s timeout not set", name)
		}
	}
	if l.MaxHeader <= 0 || l.MaxHeader > 1<<20 || l.MaxHeader < web.MaxURIBytes {
		t.Errorf("max header bytes %d", l.MaxHeader)
	}
	hs := newHTTPServer(http.NotFoundHandler(), l, slog.New(slog.DiscardHandler))
	if hs.ReadHeaderTimeout != l.ReadHeader || hs.IdleTimeout != l.Idle || hs.MaxHeaderBytes != l.MaxHeader {
		t.Errorf("newHTTPServer does not apply the limits: %+v", hs)
	}
}

// TestSlowClients opens 1,000 loopback connections that send their
// headers one byte at a time and never finish. Meanwhile /healthz must
// stay fast, and the server must drop every slow connection once the
// read-header timeout passes. The test uses a 2 s timeout instead of the
// real 10 s to stay short; the mechanism is the same.
func TestSlowClients(t *testing.T) {
	const slow = 1000
	lim := defaultLimits
	lim.ReadHeader = 2 * time.Second
	srv := web.New(errkbtest.Seed(t), web.Config{})
	hs := newHTTPServer(srv, lim, slog.New(slog.DiscardHandler))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	addr := ln.Addr().String()

	var wg sync.WaitGroup
	dropped := make(chan time.Duration, slow)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	start := time.Now()
	for i := range slow {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("slow client %d: %v", i, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			trickle(ctx, conn, dropped, start)
		}()
	}
	t.Logf("%d slow clients connected in %v", slow, time.Since(start))

	// /healthz while they trickle.
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var lat []time.Duration
	for time.Since(start) < lim.ReadHeader-200*time.Millisecond {
		t0 := time.Now()
		res, err := client.Get("http://" + addr + "/healthz")
		if err != nil {
			t.Fatalf("/healthz during slow clients: %v", err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("/healthz: %d", res.StatusCode)
		}
		lat = append(lat, time.Since(t0))
		time.Sleep(5 * time.Millisecond)
	}
	slices.Sort(lat)
	p50, p99 := lat[len(lat)/2], lat[len(lat)*99/100]
	t.Logf("/healthz under %d slow clients: %d requests, p50 %v, p99 %v, max %v", slow, len(lat), p50, p99, lat[len(lat)-1])
	// Latency is logged, not asserted: tests never fail on wall-clock time.
	// What must hold is above: every /healthz was answered, within the
	// client's timeout, while every worker-less connection trickled.

	wg.Wait()
	close(dropped)
	var n int
	var last time.Duration
	for d := range dropped {
		n++
		last = max(last, d)
	}
	t.Logf("%d of %d slow clients dropped by the server, the last after %v", n, slow, last)
	if n != slow {
		t.Errorf("only %d of %d slow clients were dropped", n, slow)
	}
}

// trickle sends a request line and then one header byte every 100 ms,
// never ending the headers, until the server closes the connection; it
// reports when that happened.
func trickle(ctx context.Context, conn net.Conn, dropped chan<- time.Duration, start time.Time) {
	if _, err := conn.Write([]byte("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")); err != nil {
		dropped <- time.Since(start)
		return
	}
	closed := make(chan struct{})
	go func() { // the server answers 408 or just closes; either ends the read
		io.Copy(io.Discard, conn)
		close(closed)
	}()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			dropped <- time.Since(start)
			return
		case <-ctx.Done():
			return
		case <-tick.C:
			_, _ = conn.Write([]byte("a"))
		}
	}
}

// hostileFolder builds a dataset folder with the good seed record, links
// that lead outside the folder, an oversize file and a bad record.
func hostileFolder(t testing.TB) (dir, secret string) {
	t.Helper()
	outside := t.TempDir()
	secret = filepath.Join(outside, "secret.json")
	// A valid record, so reading it would load it: it must never be read.
	must(t, os.WriteFile(secret, []byte(`{"id":"leaked","repo":"example-org/outside","slug":"leaked","errorCode":"LEAK","errorMessage":"read from outside the dataset","severity":"error"}`), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "other.json"), []byte(`{"id":"leaked2","repo":"example-org/outside","slug":"leaked2","errorCode":"LEAK2","errorMessage":"read from outside too","severity":"error"}`), 0o644))

	dir = t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "nats-io"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "nats-io", "seed.json"), errkbtest.SeedJSON(), 0o644))
	must(t, os.Symlink(secret, filepath.Join(dir, "abs-link.json")))
	must(t, os.Symlink("../"+filepath.Base(outside)+"/secret.json", filepath.Join(dir, "rel-link.json")))
	must(t, os.Symlink(outside, filepath.Join(dir, "dir-link")))
	must(t, os.Symlink("..", filepath.Join(dir, "up")))
	// 1 GiB, sparse: refused by its size before a byte is read.
	f, err := os.Create(filepath.Join(dir, "huge.json"))
	must(t, err)
	must(t, f.Truncate(1<<30))
	f.Close()
	must(t, os.WriteFile(filepath.Join(dir, "bad.jsonl"), []byte(`{"id":"bad one","repo":"x","slug":"s","errorCode":"E","errorMessage":"m","severity":"error","githubUrl":"javascript:alert(1)"}`+"\n"), 0o644))
	return dir, secret
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDatasetCannotEscape checks that no symlink or ".." in a --dataset
// folder reads a file outside it, that an oversize file is refused by size,
// and that each is reported.
func TestDatasetCannotEscape(t *testing.T) {
	dir, _ := hostileFolder(t)
	dirs, err := folders([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ds, err := errkb.Load(dirs...)
	// The 1 GiB file must be refused by its size, unread: the problem
	// checked below says so. The time is logged, never asserted.
	t.Logf("loading the hostile folder took %v", time.Since(start))
	var probs errkb.Problems
	if !errors.As(err, &probs) {
		t.Fatalf("Load: %v, want problems", err)
	}
	if _, ok := ds.ByID("leaked"); ok {
		t.Fatal("a record outside the dataset folder was loaded")
	}
	if _, ok := ds.ByID("leaked2"); ok {
		t.Fatal("a record outside the dataset folder was loaded through a directory link")
	}
	if ds.Len() != 1 {
		t.Errorf("loaded %d records, want the seed only", ds.Len())
	}
	text := probs.Error()
	for _, want := range []string{"abs-link.json", "rel-link.json", "huge.json: is 1073741824 bytes", `bad.jsonl:1: record "bad one": field "githubUrl"`} {
		if !strings.Contains(text, want) {
			t.Errorf("problems lack %q:\n%s", want, text)
		}
	}
	// The fs.FS of os.Root refuses ".." names outright.
	for _, name := range []string{"../" + filepath.Base(dir) + "/nats-io/seed.json", "up/other.json", "dir-link/secret.json"} {
		if _, err := readAll(dirs[0], name); err == nil {
			t.Errorf("reading %q through the dataset root succeeded", name)
		}
	}
}

func readAll(src errkb.Folder, name string) ([]byte, error) {
	f, err := src.FS.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// TestServeRefusesHostileDataset checks the command: serve refuses to
// start on the hostile folder and lists every problem; with --skip-invalid
// it starts and logs each record left out.
func TestServeRefusesHostileDataset(t *testing.T) {
	dir, _ := hostileFolder(t)
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--dataset", dir}, io.Discard, &stderr, noEnv)
	if code != 1 || !strings.Contains(stderr.String(), "refusing to start") || !strings.Contains(stderr.String(), "huge.json") {
		t.Fatalf("serve on a hostile dataset: exit %d, stderr:\n%s", code, stderr.String())
	}

	stderr.Reset()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // stop as soon as it has started
	code = run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--dataset", dir, "--skip-invalid", "--shutdown-delay", "0"}, io.Discard, &stderr, noEnv)
	out := stderr.String()
	if code != 0 {
		t.Fatalf("serve --skip-invalid: exit %d:\n%s", code, out)
	}
	for _, want := range []string{"record left out", "rel-link.json", `records=1`, "listening"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve --skip-invalid log lacks %q:\n%s", want, out)
		}
	}

	stderr.Reset()
	if code := run(context.Background(), []string{"validate", dir}, &stderr, io.Discard, noEnv); code != 1 || !strings.Contains(stderr.String(), "1 valid records") {
		t.Errorf("validate: exit %d:\n%s", code, stderr.String())
	}
}

func noEnv(string) string { return "" }

// TestTrustProxyFlag checks the --trust-proxy values accepted and refused.
func TestTrustProxyFlag(t *testing.T) {
	var p proxyList
	for _, v := range []string{"127.0.0.1", "10.0.0.0/8, ::1", "2001:db8::/32"} {
		if err := p.Set(v); err != nil {
			t.Errorf("Set(%q): %v", v, err)
		}
	}
	if got := p.String(); got != "127.0.0.1/32,10.0.0.0/8,::1/128,2001:db8::/32" {
		t.Errorf("parsed %s", got)
	}
	for _, v := range []string{"proxy.example.com", "10.0.0.0/99", "1.2.3"} {
		if err := p.Set(v); err == nil {
			t.Errorf("Set(%q) accepted", v)
		}
	}
}
