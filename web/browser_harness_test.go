//go:build browser

package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// testCSP is the policy the hardening middleware sends; the test server
// sends it too, so any inline script or style shows up as a violation.
const testCSP = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

// findChromium returns the browser to run. A missing browser skips the
// tests on a developer machine, but fails them in CI (CI=true), where
// `make test-browser` must have installed it.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ERRKB_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium found (tried chromium, chromium-browser, google-chrome; set ERRKB_CHROMIUM); `make test-browser` installs it with apt-get")
	}
	t.Skip("no Chromium found; run `make test-browser` to install it")
	return ""
}

// artifactsDir is where screenshots go: artifacts/screenshots at the
// repository root (ignored by git), or $ERRKB_ARTIFACTS.
func artifactsDir(t *testing.T) string {
	dir := os.Getenv("ERRKB_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "artifacts", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newAllocator starts headless Chromium for one test, stopped when the
// test ends or after timeout.
func newAllocator(t *testing.T, exe string, timeout time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	t.Cleanup(cancelAlloc)
	return alloc
}

// bt is one browser test run: the server, the browser, and what the pages
// reported.
type bt struct {
	t      *testing.T
	srv    *httptest.Server
	alloc  context.Context
	shots  string
	seedEx string // the seed record's exampleFix, as the copy button must copy it
}

// tab is one browser tab with the problems its pages reported: console
// errors, uncaught exceptions, CSP violations and dialogs.
type tab struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	dialogs  []string
}

// violationRecorder is injected into every document through the protocol, which
// CSP does not restrict: it collects securitypolicyviolation events.
const violationRecorder = `window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at line " + e.lineNumber);
});`

func (b *bt) newTab(t *testing.T) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.alloc)
	t.Cleanup(cancel)
	tb := &tab{ctx: ctx}
	if err := chromedp.Listen(ctx, tb.onEvent); err != nil {
		t.Fatalf("start browser: %v", err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: violationRecorder}); err != nil {
		t.Fatal(err)
	}
	return tb
}

func (tb *tab) onEvent(ev any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value))
			}
			tb.problems = append(tb.problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		tb.problems = append(tb.problems, "uncaught exception: "+msg)
	case *cdplog.EventEntryAdded:
		e := ev.Entry
		if e.Level == cdplog.EntryLevelError || e.Level == cdplog.EntryLevelWarning {
			tb.problems = append(tb.problems, fmt.Sprintf("log %s/%s: %s (%s)", e.Source, e.Level, e.Text, e.URL))
		}
	case *page.EventJavascriptDialogOpening:
		tb.dialogs = append(tb.dialogs, string(ev.Type)+": "+ev.Message)
		go chromedp.Call(tb.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	}
}

// check fails the test on anything the page reported, and on CSP
// violations the page itself recorded. allow drops expected log lines,
// such as the 404 of the not-found page.
func (tb *tab) check(t *testing.T, what string, allow ...string) {
	t.Helper()
	csp, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]string](`window.__csp || []`))
	if err != nil {
		t.Fatalf("%s: read CSP violations: %v", what, err)
	}
	for _, v := range csp {
		t.Errorf("%s: CSP violation: %s", what, v)
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
next:
	for _, p := range tb.problems {
		for _, a := range allow {
			if strings.Contains(p, a) {
				continue next
			}
		}
		t.Errorf("%s: %s", what, p)
	}
	for _, d := range tb.dialogs {
		t.Errorf("%s: a dialog opened: %s", what, d)
	}
	tb.problems, tb.dialogs = nil, nil
}

// stepTimeout bounds one browser step, so a hung page fails fast with
// the step named.
const stepTimeout = 20 * time.Second

func (tb *tab) do(t *testing.T, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		loc, _ := chromedp.Run(tb.ctx, chromedp.Location())
		t.Fatalf("at %s: %v", loc, err)
	}
}

func eval[T any](t *testing.T, tb *tab, js string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func (b *bt) screenshot(t *testing.T, tb *tab, name string, full bool) {
	t.Helper()
	act := chromedp.CaptureScreenshot()
	if full {
		act = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(tb.ctx, act)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pressSlash types "/" as a keyboard does: one keyDown that carries the
// text, so a handler that cancels the keydown also cancels the typing.
// (chromedp.KeyEvent sends a separate "char" event, which types the
// character whatever the page's handlers did.)
func pressSlash(t *testing.T, tb *tab) {
	t.Helper()
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		p := input.DispatchKeyEventParams{Type: typ, Key: "/", Code: "Slash", WindowsVirtualKeyCode: 191, NativeVirtualKeyCode: 191}
		if typ == input.DispatchKeyEventTypeKeyDown {
			p.Text, p.UnmodifiedText = "/", "/"
		}
		if _, err := chromedp.Call(tb.ctx, input.DispatchKeyEvent, p); err != nil {
			t.Fatal(err)
		}
	}
}

// waitFor waits until the document has loaded and an element matches sel.
// It polls with Evaluate: chromedp's WaitVisible tracks DOM nodes, and
// it hung after navigating from one page to the large seed page.
func waitFor(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		js := `document.readyState === "complete" && !!document.querySelector(` + jsString(sel) + `)`
		for {
			ok, err := chromedp.Evaluate[bool](js)(ctx, t)
			if err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("wait for %s: %w", sel, ctx.Err())
			case <-time.After(25 * time.Millisecond):
			}
		}
	})
}

// viewport is a screen to try pages on: its size, whether it is a phone
// (touch, device scale 2) and whether it prefers dark colours.
type viewport struct {
	name          string
	width, height int64
	mobile, dark  bool
}

// emulate sets the tab's screen and colour scheme.
func (tb *tab) emulate(t *testing.T, v viewport) {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if v.mobile {
		opts = []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}
	}
	tb.do(t, chromedp.EmulateViewport(v.width, v.height, opts...))
	scheme := "light"
	if v.dark {
		scheme = "dark"
	}
	if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		t.Fatal(err)
	}
}

// checkLayout fails on what a reader of the loaded page would trip on: a
// white page in dark mode, sideways scrolling, text below WCAG AA
// contrast.
func (tb *tab) checkLayout(t *testing.T, page string, v viewport) {
	t.Helper()
	if v.dark && eval[string](t, tb, `getComputedStyle(document.body).backgroundColor`) == "rgb(255, 255, 255)" {
		t.Errorf("%s: white background in dark mode", page)
	}
	if over := eval[int](t, tb, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
		wide := eval[[]string](t, tb, `Array.from(document.querySelectorAll("body *")).filter(function (e) {
			var r = e.getBoundingClientRect(); return r.right > document.documentElement.clientWidth + 1 && !e.closest("pre");
		}).slice(0, 5).map(function (e) { return e.tagName + "." + e.className })`)
		t.Errorf("%s: scrolls sideways by %d px at %d px wide; widest: %v", page, over, v.width, wide)
	}
	if low := eval[[]string](t, tb, contrastJS); len(low) > 0 {
		t.Errorf("%s: text below WCAG AA contrast: %v", page, low)
	}
}
