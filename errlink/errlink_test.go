package errlink

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/slogtest"
)

var (
	errFuelLow  = errors.New("fuel below reserve")
	errOverheat = errors.New("engine overheats")
)

type coded struct{ code string }

func (c coded) Error() string     { return "coded " + c.code }
func (c coded) ErrorCode() string { return c.code }

func testKB() *KB {
	kb := New("https://kb.example/")
	kb.Register(errFuelLow, kb.PageURL("acme-labs/rocket", "fuel-low"))
	return kb
}

func TestURL(t *testing.T) {
	kb := testKB()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"sentinel", errFuelLow, "https://kb.example/errors/acme-labs/rocket/fuel-low"},
		{"wrapped sentinel", fmt.Errorf("launch: %w", errFuelLow), "https://kb.example/errors/acme-labs/rocket/fuel-low"},
		{"joined", errors.Join(errOverheat, errFuelLow), "https://kb.example/errors/acme-labs/rocket/fuel-low"},
		{"unregistered", errOverheat, ""},
		{"same text, other error", errors.New("fuel below reserve"), ""},
		{"coder", fmt.Errorf("call: %w", coded{"E_FUEL LOW"}), "https://kb.example/lookup?q=E_FUEL+LOW"},
		{"empty code", coded{" "}, ""},
		{"sentinel before code", errors.Join(coded{"E1"}, errFuelLow), "https://kb.example/errors/acme-labs/rocket/fuel-low"},
	} {
		got, ok := kb.URL(tc.err)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: URL = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func TestRegisterReplaces(t *testing.T) {
	kb := testKB()
	kb.Register(errFuelLow, "https://kb.example/other")
	if got, _ := kb.URL(errFuelLow); got != "https://kb.example/other" {
		t.Errorf("URL after re-registering = %q", got)
	}
}

func TestPageURLEscapes(t *testing.T) {
	kb := New("https://kb.example")
	if got := kb.PageURL("acme labs/rocket?x", "a/b"); got != "https://kb.example/errors/acme%20labs/rocket%3Fx/a%2Fb" {
		t.Errorf("PageURL = %q", got)
	}
}

func TestWrap(t *testing.T) {
	kb := testKB()
	if kb.Wrap(nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
	if err := kb.Wrap(errOverheat); err != errOverheat {
		t.Errorf("unknown error changed: %v", err)
	}
	err := kb.Wrap(fmt.Errorf("launch: %w", errFuelLow))
	if err.Error() != "launch: fuel below reserve (see https://kb.example/errors/acme-labs/rocket/fuel-low)" {
		t.Errorf("message %q", err)
	}
	if !errors.Is(err, errFuelLow) {
		t.Error("errors.Is does not see through the wrapper")
	}
	again := kb.Wrap(fmt.Errorf("retry: %w", err))
	if strings.Count(again.Error(), "(see ") != 1 {
		t.Errorf("wrapped twice: %q", again)
	}
	if link, ok := kb.URL(again); !ok || link != "https://kb.example/errors/acme-labs/rocket/fuel-low" {
		t.Errorf("URL of a linked error: %q", link)
	}
}

func records(buf *bytes.Buffer) []map[string]any {
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m map[string]any
		_ = json.Unmarshal(line, &m)
		out = append(out, m)
	}
	return out
}

func TestHandler(t *testing.T) {
	kb := testKB()
	var buf bytes.Buffer
	log := slog.New(kb.Handler(slog.NewJSONHandler(&buf, nil)))
	log.Error("launch failed", "err", fmt.Errorf("launch: %w", errFuelLow))
	log.Error("overheat", "err", errOverheat)
	log.Error("own link kept", "err", errFuelLow, AttrKey, "https://elsewhere")
	log.With("err", errFuelLow).Info("from the logger's attributes")
	log.With(AttrKey, "x").Error("logger's own link kept", "err", errFuelLow)
	log.WithGroup("g").Error("in a group", "err", coded{"E9"})
	log.Info("value, not error", "err", "fuel below reserve")
	log.Error("as LogValuer", "err", slog.AnyValue(errFuelLow))

	want := []string{
		"https://kb.example/errors/acme-labs/rocket/fuel-low", "", "https://elsewhere",
		"https://kb.example/errors/acme-labs/rocket/fuel-low", "x", "", "", "https://kb.example/errors/acme-labs/rocket/fuel-low",
	}
	recs := records(&buf)
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(want), buf.String())
	}
	for i, r := range recs {
		got, _ := r[AttrKey].(string)
		if got != want[i] {
			t.Errorf("record %q: error_url %q, want %q", r["msg"], got, want[i])
		}
	}
	if g, _ := recs[5]["g"].(map[string]any); g[AttrKey] != "https://kb.example/lookup?q=E9" {
		t.Errorf("group record: %v", recs[5])
	}
	if strings.Count(buf.String(), `"error_url"`) != 6 {
		t.Errorf("error_url twice in a record:\n%s", buf.String())
	}
}

// TestHandlerConforms runs the standard library's handler test suite on
// the wrapper, so it keeps every rule a slog.Handler must keep.
func TestHandlerConforms(t *testing.T) {
	var buf bytes.Buffer
	h := testKB().Handler(slog.NewJSONHandler(&buf, nil))
	if err := slogtest.TestHandler(h, func() []map[string]any { return records(&buf) }); err != nil {
		t.Error(err)
	}
}

func TestHandlerEnabled(t *testing.T) {
	h := testKB().Handler(slog.NewJSONHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if h.Enabled(context.Background(), slog.LevelInfo) || !h.Enabled(context.Background(), slog.LevelError) {
		t.Error("Enabled does not follow the wrapped handler")
	}
}

// TestStandardLibraryOnly fails when errlink imports anything outside the
// standard library but the site's address rules (web/siteurl), which must
// themselves import nothing else (their imports are listed here too):
// services import it without the server's dependencies.
func TestStandardLibraryOnly(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/errkb/errkb/errlink" && p != "github.com/errkb/errkb/web/siteurl" {
			t.Errorf("errlink depends on %s, which is not in the standard library", p)
		}
	}
}
