package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// startServer runs `errkb serve` on a free port until the test ends, then
// checks that SIGTERM stops it cleanly.
func startServer(t *testing.T, args ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts the binary")
	}
	cmd, addr, logs := startBinary(t, args...)
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server did not exit cleanly on SIGTERM: %v\n%s", err, logs.String())
			}
		case <-time.After(20 * time.Second):
			t.Error("server did not stop within 20s of SIGTERM")
		}
	})
	return "http://" + addr
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func fetch(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirect.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestServeEmbeddedDataset(t *testing.T) {
	base := startServer(t)
	const page = "/errors/nats-io/nats-server/js-consumer-offline"

	resp, body := fetch(t, base+page)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d", page, resp.StatusCode)
	}
	for _, want := range []string{
		`id="documentation"`, `id="solutions"`, `id="example-fix"`, `id="source"`,
		`https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go#L4979`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s", want)
		}
	}

	resp, body = fetch(t, base+"/api/v1/errors/nats-io/nats-server/js-consumer-offline")
	var got, want map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("API: %d %v", resp.StatusCode, err)
	}
	if err := json.Unmarshal(errkbtest.SeedJSON(), &want); err != nil {
		t.Fatal(err)
	}
	// The seed is merged with the record extracted of its error: its own
	// fields as written, the extracted facts beside them.
	rec, _ := got["record"].(map[string]any)
	ext, _ := rec["extracted"].(map[string]any)
	if ext["numericCode"] != 10119.0 || ext["httpStatus"] != 500.0 || ext["version"] == "" {
		t.Errorf("API record's extracted facts %v, want err_code 10119, HTTP 500 and the version read", ext)
	}
	delete(rec, "extracted")
	gotRec, _ := json.Marshal(rec)
	wantRec, _ := json.Marshal(want["record"])
	if !bytes.Equal(gotRec, wantRec) || got["datasetVersion"] != want["datasetVersion"] {
		t.Errorf("API record differs from the seed:\n%s\n%s", gotRec, wantRec)
	}

	resp, _ = fetch(t, base+"/lookup?q=JS_CONSUMER_OFFLINE")
	if resp.StatusCode != 303 || resp.Header.Get("Location") != page {
		t.Errorf("lookup: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestServeDataset serves a folder given with --dataset instead of the
// embedded dataset.
func TestServeDataset(t *testing.T) {
	base := startServer(t, "--dataset", "../../testdata/basic", "--base-url", "https://kb.example.test")
	resp, body := fetch(t, base+"/api/v1/lookup?q=WD_QUEUE_FULL")
	if resp.StatusCode != 200 || !strings.Contains(body, `"url":"https://kb.example.test/errors/acme-labs/widgetd/queue-full"`) {
		t.Errorf("lookup in --dataset: %d %s", resp.StatusCode, body)
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func brokenDataset(t *testing.T) string {
	seed, err := os.ReadFile("../../testdata/basic/acme-labs/queue-full.json")
	if err != nil {
		t.Fatal(err)
	}
	s := string(seed)
	return writeFiles(t, map[string]string{
		"good.json":          s,
		"proj/bad-type.json": strings.Replace(strings.Replace(s, `"lineNumber": 42`, `"lineNumber": "42"`, 1), "a1c3e5f7a9b1c3d5", "a1c3e5f7a9b1c3d6", 1),
		"proj/bad-url.json":  strings.Replace(strings.Replace(strings.Replace(s, "https://github.com/", "ftp://example.test/", 1), "a1c3e5f7a9b1c3d5", "a1c3e5f7a9b1c3d7", 1), `"queue-full"`, `"other"`, 1),
		"syntax.jsonl":       "{\"record\": \n",
	})
}

func TestValidateBrokenDataset(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"validate", brokenDataset(t)}, &out, &errOut, func(string) string { return "" })
	if code != 1 {
		t.Fatalf("exit %d, want 1; output:\n%s%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		`proj/bad-type.json:1: record "a1c3e5f7a9b1c3d6": field "lineNumber": must be an integer, got a string`,
		`proj/bad-url.json:1: record "a1c3e5f7a9b1c3d7": field "githubUrl": must be an https://github.com/ URL`,
		`syntax.jsonl:1: invalid JSON`,
		"1 valid records, 3 problems",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run(t.Context(), []string{"validate"}, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Errorf("validate of the embedded dataset: exit %d\n%s", code, out.String())
	}
}

func TestServeRefusesBrokenDataset(t *testing.T) {
	cmd := exec.Command(binary(t), "serve", "--addr", "127.0.0.1:0", "--dataset", brokenDataset(t))
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("want exit 1, got %v:\n%s", err, out)
	}
	for _, want := range []string{"refusing to start", "bad-type.json", "bad-url.json", "syntax.jsonl"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestServeSkipInvalid(t *testing.T) {
	base := startServer(t, "--dataset", brokenDataset(t), "--skip-invalid")
	if resp, _ := fetch(t, base+"/api/v1/errors/acme-labs/widgetd/queue-full"); resp.StatusCode != 200 {
		t.Errorf("valid record not served with --skip-invalid: %d", resp.StatusCode)
	}
}

func TestLookupCommand(t *testing.T) {
	env := func(string) string { return "" }
	var out, errOut bytes.Buffer
	if code := run(t.Context(), []string{"lookup", "js-consumer-offline"}, &out, &errOut, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"JS_CONSUMER_OFFLINE", "consumer is offline", "Solutions", "server/jetstream_api.go:4979", "/errors/nats-io/nats-server/js-consumer-offline"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("lookup output lacks %q:\n%s", want, out.String())
		}
	}

	out.Reset()
	if code := run(t.Context(), []string{"lookup", "--json", "JS_CONSUMER_OFFLINE"}, &out, &errOut, env); code != 0 {
		t.Fatalf("--json exit %d", code)
	}
	var res struct {
		Query string
		Match struct {
			Record map[string]any
			URL    string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Match.Record["id"] != "dabd815d1877efcd" {
		t.Errorf("--json output: %v\n%s", err, out.String())
	}

	out.Reset()
	errOut.Reset()
	if code := run(t.Context(), []string{"lookup", "nothing like this at all"}, &out, &errOut, env); code != 1 {
		t.Errorf("no match: exit %d, want 1", code)
	}
	dsEnv := func(k string) string {
		if k == "ERRKB_DATASET" {
			return "../../testdata/basic"
		}
		return ""
	}
	out.Reset()
	if code := run(t.Context(), []string{"lookup", "WD_QUEUE_FULL"}, &out, &errOut, dsEnv); code != 0 || !strings.Contains(out.String(), "widget queue is full") {
		t.Errorf("ERRKB_DATASET not used: exit %d\n%s", code, out.String())
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(t.Context(), []string{"frobnicate"}, &out, &errOut, func(string) string { return "" }); code != 2 || !strings.Contains(errOut.String(), "unknown command") {
		t.Errorf("unknown command: exit %d, %q", code, errOut.String())
	}
	out.Reset()
	// The dataset's version is its newest record's: the extracted
	// nats-server records are newer than the seed.
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	if v := ds.Version(); v <= "2026-09-08T15:18:49.778Z" {
		t.Errorf("embedded dataset version %q is not newer than the seed's", v)
	}
	if code := run(t.Context(), []string{"version"}, &out, &errOut, func(string) string { return "" }); code != 0 || !strings.Contains(out.String(), "(dataset "+ds.Version()+")") {
		t.Errorf("version: exit %d, %q", code, out.String())
	}
}

// TestValidateReportsRecordKeys runs the binary on records that say one
// thing to errkb and another to a reader of the file: each is refused
// with its file, line and key, and so are a byte-order mark and a link
// pages would drop.
func TestValidateReportsRecordKeys(t *testing.T) {
	seed, err := os.ReadFile("../../testdata/basic/acme-labs/queue-full.json")
	if err != nil {
		t.Fatal(err)
	}
	s := string(seed)
	dir := writeFiles(t, map[string]string{
		"dup.json":  strings.Replace(s, `"record": {`, "\"record\": {\n\"id\": \"other\",", 1),
		"case.json": strings.Replace(s, `"record": {`, "\"record\": {\n\"ID\": \"other\", \"Repo\": \"other/repo\",", 1),
		"bom.json":  "\uFEFF" + s,
		"link.json": strings.Replace(s, `"documentation": "`, `"documentation": "[help](ms-msdt:/id) `, 1),
	})
	out, err := exec.Command(binary(t), "validate", dir).CombinedOutput()
	if err == nil {
		t.Fatalf("validate accepted the records:\n%s", out)
	}
	for _, want := range []string{
		`/dup.json:4: record "a1c3e5f7a9b1c3d5": field "id": appears twice (first on line 3)`,
		`/case.json:3: record "a1c3e5f7a9b1c3d5": field "ID": differs from the field "id" only in letter case`,
		`/case.json:3: record "a1c3e5f7a9b1c3d5": field "Repo": differs from the field "repo" only in letter case`,
		`/bom.json:1: starts with a byte-order mark (U+FEFF)`,
		`/link.json:1: record "a1c3e5f7a9b1c3d5": field "documentation": links to "ms-msdt:/id"`,
		"0 valid records, 5 problems",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
