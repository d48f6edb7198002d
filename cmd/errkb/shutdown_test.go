package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds the errkb command once per test binary run.
var buildBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "errkb-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "errkb")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

// startBinary starts the real errkb binary on a free loopback port and
// waits until it is ready; it returns the process, its address and its
// log so far.
func startBinary(t *testing.T, args ...string) (*exec.Cmd, string, *syncBuffer) {
	t.Helper()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "ERRKB_DATASET=")
	stderr, err := cmd.StderrPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	logs := &syncBuffer{}
	addrc := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`msg=listening addr=(\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.WriteLine(sc.Text())
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addrc <- m[1]
			}
		}
	}()
	var addr string
	select {
	case addr = <-addrc:
	case <-time.After(30 * time.Second):
		t.Fatalf("errkb did not start:\n%s", logs.String())
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get("http://" + addr + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("errkb not ready:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, addr, logs
}

// turnedAway reports whether err is the way a client is turned away once
// the listener closes, sigterm+delay: its dial is refused, or, when it
// connected into the kernel's accept queue just before the close, the
// connection is reset before any answer. Such requests never reached the
// server; anything else is a lost request.
func turnedAway(err error, sigterm int64, delay time.Duration) bool {
	if sigterm == 0 {
		return false
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	closing := time.Unix(0, sigterm).Add(delay - 100*time.Millisecond)
	return time.Now().After(closing) && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF))
}

// TestGracefulShutdownUnderLoad starts the real binary, loads it with
// concurrent searches, lookups and pages, and sends SIGTERM. /readyz must
// turn 503 while everything else still answers; every request the server
// accepted must get its whole answer; the process must exit 0 within the
// delay plus the grace period. A request may only fail by being turned
// away when the listener closes (see turnedAway); a body cut short or a
// 5xx fails the test.
func TestGracefulShutdownUnderLoad(t *testing.T) {
	const delay, grace = 1500 * time.Millisecond, 5 * time.Second
	cmd, addr, logs := startBinary(t, "--shutdown-delay", delay.String(), "--shutdown-grace", grace.String())
	base := "http://" + addr

	targets := []string{
		"/search?q=consumer+offline", "/api/v1/lookup?q=JS_CONSUMER_OFFLINE", "/api/v1/search?q=jetstream&limit=100",
		"/errors/nats-io/nats-server/js-consumer-offline", "/", "/search?q=" + strings.Repeat("a* ", 100),
	}
	var (
		ok, refused, lost atomic.Int64
		firstLost         atomic.Value
		sigterm           atomic.Int64 // unix nanos of SIGTERM, 0 before
		stop              = make(chan struct{})
		wg                sync.WaitGroup
	)
	// No keep-alive: each request dials, so a refused dial is the only
	// clean way to be turned away, and any other failure is a lost request.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				target := targets[(w+i)%len(targets)]
				res, err := client.Get(base + target)
				if err != nil {
					if turnedAway(err, sigterm.Load(), delay) {
						refused.Add(1)
						time.Sleep(5 * time.Millisecond)
						continue
					}
					lost.Add(1)
					firstLost.CompareAndSwap(nil, fmt.Sprintf("%s: %v", target, err))
					continue
				}
				_, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode >= 500 {
					lost.Add(1)
					firstLost.CompareAndSwap(nil, fmt.Sprintf("%s: status %d, body %v", target, res.StatusCode, err))
					continue
				}
				ok.Add(1)
			}
		}()
	}

	time.Sleep(1 * time.Second)
	before := ok.Load()
	sigterm.Store(time.Now().UnixNano())
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	sent := time.Now()

	// /readyz turns 503 during the delay while pages still answer 200.
	var ready503 bool
	for time.Since(sent) < delay/2 {
		res, err := client.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusServiceUnavailable {
				ready503 = true
				break
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !ready503 {
		t.Error("/readyz did not answer 503 after SIGTERM")
	}
	if res, err := client.Get(base + "/healthz"); err != nil || res.StatusCode != 200 {
		t.Errorf("/healthz while draining: %v %v", res, err)
	}

	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()
	var werr error
	select {
	case werr = <-waitc:
	case <-time.After(delay + grace + 5*time.Second):
		t.Fatalf("errkb still running %v after SIGTERM:\n%s", time.Since(sent), logs.String())
	}
	exited := time.Since(sent)
	close(stop)
	wg.Wait()

	t.Logf("requests: %d answered before SIGTERM, %d in all; %d refused after the listener closed; %d lost; exit after %v",
		before, ok.Load(), refused.Load(), lost.Load(), exited)
	if werr != nil {
		t.Errorf("errkb exited with %v, want 0:\n%s", werr, logs.String())
	}
	if lost.Load() > 0 {
		t.Errorf("%d requests lost, first: %v", lost.Load(), firstLost.Load())
	}
	if ok.Load() <= before {
		t.Errorf("no request answered after SIGTERM: the server stopped serving during the delay")
	}
	if exited > delay+grace {
		t.Errorf("exit after %v, want within %v", exited, delay+grace)
	}
	for _, want := range []string{"shutting down", "stopped"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q", want)
		}
	}
}
