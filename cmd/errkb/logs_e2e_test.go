package main

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/errkb/errkb/internal/errkbtest"
)

const (
	offlineLine  = "[1] 2026/11/30 01:02:03.456789 [ERR] 10.0.0.7:4222 - cid:9 - JetStream API error: consumer is offline"
	routineLine  = "[1] 2026/11/30 01:02:03.456789 [INF] Server is ready"
	offlinePath  = "/errors/nats-io/nats-server/js-consumer-offline"
	offlineJSON  = `{"level":"error","msg":"nats: consumer is offline","stream":"ORDERS"}`
	offlineNotes = "  errkb_code=JS_CONSUMER_OFFLINE errkb_url="
)

// TestAnnotateStreamsThroughBinary writes one line at a time into the
// built binary's stdin and reads each annotated line back while stdin is
// still open, as `kubectl logs -f | errkb annotate` does.
func TestAnnotateStreamsThroughBinary(t *testing.T) {
	cmd := exec.Command(binary(t), "annotate", "--dataset", seedDir(t), "--json", "--base-url", "https://kb.example.test")
	cmd.Env = append(os.Environ(), "ERRKB_DATASET=")
	stdin, err := cmd.StdinPipe()
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	must(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	out := bufio.NewReader(stdout)
	for _, tc := range []struct{ in, want string }{
		{offlineLine, offlineLine + offlineNotes + "https://kb.example.test" + offlinePath},
		{routineLine, routineLine},
		{offlineJSON, strings.TrimSuffix(offlineJSON, "}") + `,"errkb_code":"JS_CONSUMER_OFFLINE","errkb_url":"https://kb.example.test` + offlinePath + `"}`},
	} {
		if _, err := io.WriteString(stdin, tc.in+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			l, _ := out.ReadString('\n')
			got <- l
		}()
		select {
		case l := <-got:
			if l != tc.want+"\n" {
				t.Errorf("got  %q\nwant %q", l, tc.want+"\n")
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("no output for %q while stdin stays open; stderr:\n%s", tc.in, stderr.String())
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v\n%s", err, stderr.String())
	}
}

// TestAnnotateFilesAndServer annotates a file with the local index and
// with --url against a running server: both give the same lines.
func TestAnnotateFilesAndServer(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	log := filepath.Join(dir, "app.log")
	long := "consumer is offline " + strings.Repeat("x", 9000) // over the lookup limit
	must(t, os.WriteFile(log, []byte(routineLine+"\n"+offlineLine+"\n"+long+"\n"), 0o644))

	seed := seedDir(t)
	base := startServer(t, "--dataset", seed)
	local := runBinary(t, bin, 0, "annotate", "--dataset", seed, "--base-url", base, log)
	remote := runBinary(t, bin, 0, "annotate", "--url", base, log)
	want := routineLine + "\n" + offlineLine + offlineNotes + base + offlinePath + "\n" + long + "\n"
	if local != want {
		t.Errorf("local index:\n%.400q\nwant\n%.400q", local, want)
	}
	if remote != want {
		t.Errorf("--url:\n%.400q\nwant\n%.400q", remote, want)
	}

	// --dataset: a folder's records instead of the embedded ones.
	widget := filepath.Join(dir, "widget.log")
	must(t, os.WriteFile(widget, []byte("E push: widget queue \"jobs\" is full\n"+offlineLine+"\n"), 0o644))
	got := runBinary(t, bin, 0, "annotate", "--dataset", "../../testdata/basic", widget)
	// The folder has no nats-server records: that line passes unchanged.
	want = "E push: widget queue \"jobs\" is full  errkb_code=WD_QUEUE_FULL errkb_url=/errors/acme-labs/widgetd/queue-full\n" + offlineLine + "\n"
	if got != want {
		t.Errorf("--dataset:\n%q\nwant\n%q", got, want)
	}

	if out := runBinary(t, bin, 2, "annotate", filepath.Join(dir, "missing.log")); !strings.Contains(out, "cannot read "+filepath.Join(dir, "missing.log")+": no such file or directory") {
		t.Errorf("missing file: %q", out)
	}
	if out := runBinary(t, bin, 2, "annotate", dir); !strings.Contains(out, "is a directory") {
		t.Errorf("directory: %q", out)
	}
	if out := runBinary(t, bin, 2, "annotate", "--url", base, "--dataset", dir, log); !strings.Contains(out, "leave out --dataset") {
		t.Errorf("--url with --dataset: %q", out)
	}
	// A port nothing listens on.
	ln := startServerlessPort(t)
	if out := runBinary(t, bin, 1, "annotate", "--url", ln, log); !strings.Contains(out, "cannot reach the errkb server at "+ln) {
		t.Errorf("unreachable --url: %q", out)
	}
}

// TestTextAnswers checks the server's plain text against `errkb lookup`,
// byte for byte, and its Markdown, through the built binary.
func TestTextAnswers(t *testing.T) {
	bin := binary(t)
	seed := seedDir(t)
	base := startServer(t, "--dataset", seed)
	want := runBinary(t, bin, 0, "lookup", "--dataset", seed, "--base-url", base, "JS_CONSUMER_OFFLINE")

	for _, target := range []string{base + offlinePath, base + "/lookup?q=JS_CONSUMER_OFFLINE"} {
		resp, body := get(t, target, "text/plain")
		if resp.StatusCode != 200 || body != want {
			t.Errorf("%s as text: %d\n%s\nwant what errkb lookup prints:\n%s", target, resp.StatusCode, body, want)
		}
		if !strings.Contains(resp.Header.Get("Vary"), "Accept") {
			t.Errorf("%s: Vary %q", target, resp.Header.Get("Vary"))
		}
	}
	resp, body := get(t, base+offlinePath+"?format=markdown", "")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") ||
		!strings.Contains(body, "(https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go#L4979)") {
		t.Errorf("markdown: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = get(t, base+offlinePath, "text/html,*/*;q=0.8")
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "<html") {
		t.Errorf("browser: %s", resp.Header.Get("Content-Type"))
	}
	resp, body = get(t, base+"/lookup?q=offline", "text/plain")
	if resp.StatusCode != 404 || !strings.Contains(body, "no single error matches") {
		t.Errorf("no match as text: %d %s", resp.StatusCode, body)
	}
}

func get(t *testing.T, url, accept string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// runBinary runs the built binary and returns its stdout, or its stderr
// when the wanted exit code is not 0.
func runBinary(t *testing.T, bin string, wantCode int, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "ERRKB_DATASET=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != wantCode {
		t.Fatalf("errkb %s: exit %d, want %d\n%s", strings.Join(args, " "), code, wantCode, stderr.String())
	}
	if wantCode != 0 {
		return stderr.String()
	}
	return stdout.String()
}

// startServerlessPort is the URL of a local port nothing listens on.
func startServerlessPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	url := "http://" + l.Addr().String()
	l.Close()
	return url
}

// TestExportCommand exports with the built binary, serves the folder under
// /kb/ with a plain file server, and follows links from the home page to
// an error page and its API answer.
func TestExportCommand(t *testing.T) {
	bin := binary(t)
	out := filepath.Join(t.TempDir(), "site")
	seed := seedDir(t)
	msg := runBinary(t, bin, 0, "export", "--dataset", seed, "--out", out, "--base-url", "https://docs.example.test/kb")
	if !strings.Contains(msg, "errkb export: wrote") {
		t.Errorf("export said %q", msg)
	}
	srv := httptest.NewServer(http.StripPrefix("/kb", http.FileServer(http.Dir(out))))
	defer srv.Close()

	page := srv.URL + "/kb/"
	for _, hop := range []string{`href="(errors/nats-io/nats-server/)"`, `href="(\.\./\.\./\.\./errors/nats-io/nats-server/js-consumer-offline/)"`} {
		resp, body := get(t, page, "")
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", page, resp.StatusCode)
		}
		m := regexp.MustCompile(hop).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s has no link %s", page, hop)
		}
		u, _ := url.Parse(page)
		next, _ := u.Parse(m[1])
		page = next.String()
	}
	resp, body := get(t, page, "")
	if resp.StatusCode != 200 || !strings.Contains(body, "<h1") || !strings.Contains(body, "JS_CONSUMER_OFFLINE") {
		t.Fatalf("error page %s: %d", page, resp.StatusCode)
	}
	for _, f := range []string{"/kb/api/v1/errors/nats-io/nats-server/js-consumer-offline", "/kb/sitemap.xml", "/kb/opensearch.xml", "/kb/search/index.json", "/kb/robots.txt"} {
		if resp, _ := get(t, srv.URL+f, ""); resp.StatusCode != 200 {
			t.Errorf("GET %s: %d", f, resp.StatusCode)
		}
	}

	if msg := runBinary(t, bin, 1, "export", "--dataset", seed, "--out", out); !strings.Contains(msg, out+" exists and is not empty; pass --force") {
		t.Errorf("non-empty --out: %q", msg)
	}
	runBinary(t, bin, 0, "export", "--dataset", seed, "--out", out, "--force")
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
		t.Error("--force did not replace the earlier export (its sitemap.xml is still there)")
	}
}

// seedDir is a dataset folder holding only the seed record, so these tests
// do not change as the embedded dataset grows.
func seedDir(t *testing.T) string {
	t.Helper()
	return writeFiles(t, map[string]string{errkbtest.SeedFile: string(errkbtest.SeedJSON())})
}
