package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errkb/errkb/internal/kbgen"
)

// syncBuffer is a bytes.Buffer safe for the server's log goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// WriteLine appends one line of a child process's output.
func (s *syncBuffer) WriteLine(l string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.WriteString(l + "\n")
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listenRE = regexp.MustCompile(`msg=listening addr=(\S+)`)

// startServe runs `errkb serve` until the returned stop is called, and
// returns its base URL once /readyz answers 200.
func startServe(t *testing.T, args ...string) (base string, log *syncBuffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log = &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), log, log, func(string) string { return "" })
	}()
	stop = func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d:\n%s", code, log.String())
		}
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if m := listenRE.FindStringSubmatch(log.String()); m != nil && base == "" {
			base = "http://" + m[1]
		}
		if base != "" {
			if res, err := http.Get(base + "/readyz"); err == nil {
				res.Body.Close()
				if res.StatusCode == 200 {
					return base, log, stop
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	t.Fatalf("serve did not get ready:\n%s", log.String())
	return "", nil, nil
}

// TestServeRestartReusesIndexAndSnapshot starts errkb twice on the same
// dataset and --index-dir: the second start must reuse both the index and
// the loaded dataset and serve the same bytes with the same ETag.
func TestServeRestartReusesIndexAndSnapshot(t *testing.T) {
	data, idx := t.TempDir(), t.TempDir()
	if err := kbgen.Write(data, 1500, 8); err != nil {
		t.Fatal(err)
	}
	// A fixed --base-url: without it pages show the host they were asked
	// on, and each start listens on another port.
	const site = "https://kb.example.test"
	args := []string{"--dataset", data, "--index-dir", idx, "--base-url", site}
	page := func(base string) (string, string) {
		t.Helper()
		res, err := http.Get(base + "/api/v1/search?q=timeout&limit=1")
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		res.Body.Close()
		url := regexp.MustCompile(`"url":"` + site + `([^"]+)"`).FindStringSubmatch(b.String())
		if url == nil {
			t.Fatalf("search found nothing: %s", b.String())
		}
		res, err = http.Get(base + url[1])
		if err != nil {
			t.Fatal(err)
		}
		b.Reset()
		b.ReadFrom(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", url[1], res.StatusCode)
		}
		return b.String(), res.Header.Get("ETag")
	}

	base, log, stop := startServe(t, args...)
	body1, etag1 := page(base)
	stop()
	for _, want := range []string{"from_snapshot=false", "no index for this dataset yet; building", `msg="index built" records=1500`, "records_per_s="} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("first start's log lacks %q", want)
		}
	}

	base, log, stop = startServe(t, args...)
	body2, etag2 := page(base)
	stop()
	for _, want := range []string{"from_snapshot=true", "index reused"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("restart's log lacks %q:\n%s", want, log.String())
		}
	}
	if body1 != body2 || etag1 == "" || etag1 != etag2 {
		t.Errorf("restart serves other bytes or ETag (%q, %q)", etag1, etag2)
	}
	if m, _ := filepath.Glob(filepath.Join(idx, "records-*.bin")); len(m) != 1 {
		t.Errorf("snapshot files in the index dir: %v", m)
	}
}

// TestHostFlags: --host takes host[:port] names, repeated or
// comma-separated, and refuses URLs; without it, links show the listen
// address, with localhost for an unspecified one.
func TestHostFlags(t *testing.T) {
	var h hostList
	if err := h.Set("errkb.example.com, 127.0.0.1:8080"); err != nil || len(h) != 2 || h[1] != "127.0.0.1:8080" {
		t.Errorf("Set: %v %v", h, err)
	}
	for _, bad := range []string{"https://errkb.example.com", "a/b", "user@host", "a b"} {
		if err := (&hostList{}).Set(bad); err == nil {
			t.Errorf("--host %q accepted", bad)
		}
	}
	for addr, want := range map[string]string{"127.0.0.1:8080": "127.0.0.1:8080", "0.0.0.0:80": "localhost:80", "[::]:9000": "localhost:9000"} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := listenHost(a); got != want {
			t.Errorf("listenHost(%s) = %q, want %q", addr, got, want)
		}
	}
}

// TestServeEmbeddedCopiesThePrebuiltIndex starts errkb on the embedded
// dataset with no --index-dir, as `go run ./cmd/errkb` does: the index
// shipped in the binary must be copied, not built, the records read from
// the snapshot shipped beside it, not parsed, and searches answered.
func TestServeEmbeddedCopiesThePrebuiltIndex(t *testing.T) {
	base, log, stop := startServe(t)
	defer stop()
	if !strings.Contains(log.String(), "prebuilt index copied") || strings.Contains(log.String(), "building") {
		t.Fatalf("the embedded dataset's prebuilt index was not used:\n%s", log.String())
	}
	if !strings.Contains(log.String(), "from_snapshot=true") || strings.Contains(log.String(), "shipped snapshot not used") {
		t.Fatalf("the embedded dataset's records were parsed, not read from the shipped snapshot:\n%s", log.String())
	}
	res, err := http.Get(base + "/api/v1/search?q=stream+not+found&limit=1")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(b.String(), "nats-io/nats-server") {
		t.Fatalf("search on the prebuilt index: status %d, %s", res.StatusCode, b.String())
	}
}
