package main

import (
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeTrustsOnlyWhatItShould runs the real binary with --host and no
// --base-url and sends what a hostile client would: a forged Host and
// X-Forwarded-Proto, a dot-segment redirect, an escaped slash. Links show
// the configured host with the connection's scheme, redirects are cleaned,
// the record page is answered from the cache with its ETag, and every
// request is in the log once the server stops.
func TestServeTrustsOnlyWhatItShould(t *testing.T) {
	cmd, addr, logs := startBinary(t, "--host", "errkb.test:8080", "--shutdown-delay", "0s")
	const page = "/errors/nats-io/nats-server/js-consumer-offline"
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	send := func(path, host string, header ...string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+path, nil)
		must(t, err)
		req.Host = host
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := client.Do(req)
		must(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}

	res, first := send(page, "errkb.test:8080")
	etag := res.Header.Get("ETag")
	if res.StatusCode != 200 || !strings.Contains(first, "http://errkb.test:8080"+page) {
		t.Fatalf("page: %d, links to the configured host: %v", res.StatusCode, strings.Contains(first, "errkb.test"))
	}
	for i := range 50 {
		res, b := send(page, "forged-"+string(rune('a'+i%26))+".example", "X-Forwarded-Proto", "https")
		if res.StatusCode != 200 || b != first {
			t.Fatalf("forged Host %d: %d, page differs: %v", i, res.StatusCode, strings.Contains(b, "forged-"))
		}
	}
	if res, _ := send(page, "errkb.test:8080", "If-None-Match", "W/"+etag); res.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the weak ETag: %d, want 304", res.StatusCode)
	}
	if res, _ := send("/..//evil.com/", "errkb.test:8080"); res.StatusCode != 301 || res.Header.Get("Location") != "/evil.com" {
		t.Errorf("/..//evil.com/: %d to %q, want 301 to /evil.com", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := send("/errors/nats-io%2Fnats-server/js-consumer-offline", "errkb.test:8080"); res.StatusCode != 404 {
		t.Errorf("escaped slash after caching: %d, want 404", res.StatusCode)
	}

	// The request lines are buffered; all are written by the time it exits.
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(logs.String(), "msg=request ") < 54 {
		if time.Now().After(deadline) {
			t.Fatalf("%d request lines in the log, want 54:\n%s", strings.Count(logs.String(), "msg=request "), logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
