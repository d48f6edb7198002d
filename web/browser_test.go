//go:build browser

// Browser tests: the pages in headless Chromium, driven with chromedp, under
// the Content-Security-Policy the server is deployed with. They are behind
// the "browser" build tag so `go test ./...` stays fast; `make test-browser`
// runs them and installs Chromium when it is missing.
package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

func TestBrowser(t *testing.T) {
	exe := findChromium(t)
	s := newPagesServer(t, true, Config{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", testCSP)
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()

	alloc := newAllocator(t, exe, 3*time.Minute)

	ds := loadPages(t)
	seed, _ := ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	b := &bt{t: t, srv: srv, alloc: alloc, shots: artifactsDir(t), seedEx: seed.ExampleFix}

	t.Run("SeedPage", b.seedPage)
	t.Run("LineAnchor", b.lineAnchor)
	t.Run("SearchAndOpen", b.searchAndOpen)
	t.Run("CopyButton", b.copyButton)
	t.Run("SlashFocusesSearch", b.slashFocus)
	t.Run("HostileRecord", b.hostileRecord)
	t.Run("WithoutJavaScript", b.withoutJS)
	t.Run("AllPages", b.allPages)
	t.Run("ExtractedPage", b.extractedPage)
}

// seedPage: the seed record renders with its sections, highlighted code,
// copy buttons, and a GitHub link on every source line.
func (b *bt) seedPage(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.Navigate(b.srv.URL+seedPath), waitFor("#source"))
	for _, id := range []string{"documentation", "triggers", "situations", "solutions", "example-fix", "validation", "type-guard", "try-catch", "prevention", "source", "tags", "related", "links"} {
		if !eval[bool](t, tb, `!!document.getElementById(`+jsString(id)+`)`) {
			t.Errorf("section #%s missing", id)
		}
	}
	if h1 := eval[string](t, tb, `document.querySelector("h1").textContent`); h1 != "JS_CONSUMER_OFFLINE" {
		t.Errorf("h1 = %q", h1)
	}
	// Every line of the snippet: its own anchor and a link to that line at
	// the analysed commit.
	bad := eval[[]string](t, tb, `Array.from(document.querySelectorAll("pre.snippet .line")).flatMap(function (l) {
		var n = l.id.slice(1), a = l.querySelector("a.ln");
		var want = "https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go#L" + n;
		return a && a.href === want && a.textContent === n ? [] : [l.id + " -> " + (a && a.href)];
	})`)
	if len(bad) > 0 {
		t.Errorf("source lines without the right GitHub link: %v", bad)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("pre.snippet .line").length`); n != 4997-4961+1 {
		t.Errorf("%d source lines, want %d", n, 4997-4961+1)
	}
	if id := eval[string](t, tb, `document.querySelector(".error-line").id`); id != "L4979" {
		t.Errorf("error line is %q, want L4979", id)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("pre.snippet .k, #example-fix .k").length`); n == 0 {
		t.Error("no highlighted keywords in the Go code")
	}
	if n, want := eval[int](t, tb, `document.querySelectorAll("button.copy").length`), eval[int](t, tb, `document.querySelectorAll("[data-copy]").length`); n != want || n == 0 {
		t.Errorf("%d copy buttons for %d copyable boxes", n, want)
	}
	if css := eval[string](t, tb, `getComputedStyle(document.querySelector("pre.snippet .k")).color`); css == eval[string](t, tb, `getComputedStyle(document.querySelector("pre.snippet .lc")).color`) {
		t.Errorf("keywords have the plain text colour %s: the highlighting stylesheet is not applied", css)
	}
	tb.check(t, seedPath)
}

// lineAnchor: #L4979 scrolls to the line and marks it.
func (b *bt) lineAnchor(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(b.srv.URL+seedPath+"#L4979"), waitFor("#L4979"))
	time.Sleep(200 * time.Millisecond) // the deferred script centres the line after load
	type box struct{ Top, Bottom, Inner, ScrollY float64 }
	raw := eval[[]byte](t, tb, `(function () { var r = document.getElementById("L4979").getBoundingClientRect();
		return {Top: r.top, Bottom: r.bottom, Inner: innerHeight, ScrollY: scrollY}; })()`)
	var bx box
	if err := json.Unmarshal(raw, &bx); err != nil {
		t.Fatal(err)
	}
	if bx.ScrollY == 0 || bx.Top < 0 || bx.Bottom > bx.Inner {
		t.Errorf("line L4979 not scrolled into view: %+v", bx)
	}
	// Centred, so the lines leading to the error show above it.
	if bx.Top < bx.Inner/4 {
		t.Errorf("line L4979 is at the top of the window (%.0f of %.0f px), not centred", bx.Top, bx.Inner)
	}
	if id := eval[string](t, tb, `(document.querySelector(":target") || {}).id || ""`); id != "L4979" {
		t.Errorf(":target is %q", id)
	}
	marked := eval[string](t, tb, `getComputedStyle(document.getElementById("L4979")).backgroundColor`)
	plain := eval[string](t, tb, `getComputedStyle(document.getElementById("L4978")).backgroundColor`)
	if marked == plain {
		t.Errorf("the targeted line looks like any other (background %s)", marked)
	}
	b.screenshot(t, tb, "seed-line-anchor-desktop", false)
	tb.check(t, seedPath+"#L4979")

	// A GitHub-style range marks each of its lines and nothing else.
	tb.do(t, chromedp.Navigate(b.srv.URL+seedPath+"#L4977-L4981"), waitFor("#L4977.in-range"))
	if got := eval[[]string](t, tb, `Array.from(document.querySelectorAll(".in-range")).map(function (e) { return e.id })`); strings.Join(got, " ") != "L4977 L4978 L4979 L4980 L4981" {
		t.Errorf("range #L4977-L4981 marks %v", got)
	}
	tb.check(t, seedPath+"#L4977-L4981")
}

// searchAndOpen: search from the home page, submit, open the first result.
func (b *bt) searchAndOpen(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.Navigate(b.srv.URL+"/"), waitFor("#q"),
		chromedp.SendKeys("#q", "replica lost quorum"), chromedp.Submit("#q"),
		waitFor("ol.records li a.code"))
	if loc := eval[string](t, tb, `location.pathname + location.search`); !strings.HasPrefix(loc, "/search?q=replica+lost+quorum") {
		t.Errorf("search went to %s", loc)
	}
	codes := eval[[]string](t, tb, `Array.from(document.querySelectorAll("ol.records a.code")).map(function (a) { return a.textContent })`)
	if len(codes) == 0 || codes[0] != "QUUX_QUORUM_LOST" {
		t.Errorf("results %v, want QUUX_QUORUM_LOST first", codes)
	}
	href := eval[string](t, tb, `document.querySelector("ol.records a.code").getAttribute("href")`)
	tb.check(t, "search results")
	tb.do(t, chromedp.Click("ol.records li a.code"), waitFor("article.record h1"))
	if p := eval[string](t, tb, `location.pathname`); p != href {
		t.Errorf("first result opened %s, want %s", p, href)
	}
	if h1 := eval[string](t, tb, `document.querySelector("h1").textContent`); len(codes) > 0 && h1 != codes[0] {
		t.Errorf("opened page is %q, first result was %q", h1, codes[0])
	}
	tb.check(t, "first result")
}

// copyButton: the copy button of the example fix puts the code on the
// clipboard.
func (b *bt) copyButton(t *testing.T) {
	tb := b.newTab(t)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(tb.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: b.srv.URL,
		}); err != nil {
			t.Fatalf("grant %s: %v", name, err)
		}
	}
	tb.do(t, chromedp.Navigate(b.srv.URL+seedPath), waitFor("#example-fix button.copy"))
	if _, err := chromedp.Call(tb.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	tb.do(t, chromedp.Click("#example-fix button.copy"))
	var label string
	for range 50 {
		if label = eval[string](t, tb, `document.querySelector("#example-fix button.copy").textContent`); label != "Copy" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if label != "Copied" {
		t.Fatalf("button says %q after the click", label)
	}
	got, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("read clipboard: %v", err)
	}
	if got != b.seedEx {
		t.Errorf("clipboard holds %q, want the example fix %q", got, b.seedEx)
	}
	// The source snippet copies its code without the line numbers.
	tb.do(t, chromedp.Click("#source button.copy"))
	time.Sleep(100 * time.Millisecond)
	got, err = chromedp.Run(tb.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("read clipboard: %v", err)
	}
	if !strings.HasPrefix(got, "\t\t\treq.Config.Name = ") || strings.Contains(got, "4961") {
		t.Errorf("snippet copy starts %q", got[:min(60, len(got))])
	}
	tb.check(t, "copy")
}

// slashFocus: "/" moves focus to the search box without typing a slash.
func (b *bt) slashFocus(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.Navigate(b.srv.URL+seedPath), waitFor("button.copy"))
	if id := eval[string](t, tb, `document.activeElement.id`); id == "q" {
		t.Fatal("search box focused before the key")
	}
	pressSlash(t, tb)
	if id := eval[string](t, tb, `document.activeElement.id`); id != "q" {
		t.Errorf("after '/', focus is on %q, want the search box", id)
	}
	if v := eval[string](t, tb, `document.getElementById("q").value`); v != "" {
		t.Errorf("the search box holds %q; the slash must not be typed", v)
	}
	tb.do(t, chromedp.KeyEvent("quorum"))
	if v := eval[string](t, tb, `document.getElementById("q").value`); v != "quorum" {
		t.Errorf("typing after '/' gave %q", v)
	}
	tb.check(t, "slash")
}

// hostileRecord: a record with markup or script in every field runs
// nothing and shows the text as written.
func (b *bt) hostileRecord(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.Navigate(b.srv.URL+hostilePath), waitFor("h1"))
	time.Sleep(300 * time.Millisecond) // let onerror/onload handlers fire, if any
	if v := eval[string](t, tb, `String(window.__pwned)`); v != "undefined" {
		t.Errorf("injected script ran: window.__pwned = %s", v)
	}
	if h1 := eval[string](t, tb, `document.querySelector("h1").textContent`); h1 != "<script>window.__pwned=1</script>" {
		t.Errorf("h1 shows %q, want the code as written", h1)
	}
	if msg := eval[string](t, tb, `document.querySelector(".record-head .message").textContent`); !strings.HasPrefix(msg, `<img src=x onerror="window.__pwned=2">`) {
		t.Errorf("message shows %q", msg)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("script").length`); n != 1 {
		t.Errorf("%d script elements, want only the site's own", n)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("iframe, object, embed, form:not([role=search]), textarea, style, details, svg").length`); n != 0 {
		t.Errorf("%d injected elements", n)
	}
	hrefs := eval[[]string](t, tb, `Array.from(document.querySelectorAll("[href],[src],[action]")).map(function (e) { return e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action") || "" }).filter(function (u) { return /^\s*(javascript|vbscript|data):/i.test(u) })`)
	if len(hrefs) > 0 {
		t.Errorf("dangerous URLs in the page: %v", hrefs)
	}
	if !eval[bool](t, tb, `document.getElementById("triggers").textContent.includes("Text with <stream> placeholder")`) {
		t.Error("the text <stream> is not shown as written")
	}
	b.screenshot(t, tb, "hostile-desktop", false)
	tb.check(t, hostilePath)
}

// withoutJS: with scripts off, the record page still shows every section
// and its code, and no dead copy button.
func (b *bt) withoutJS(t *testing.T) {
	tb := b.newTab(t)
	if _, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	tb.do(t, chromedp.Navigate(b.srv.URL+seedPath+"#L4979"))
	// Evaluate runs through the protocol, which the setting does not stop.
	if n := eval[int](t, tb, `document.querySelectorAll("button.copy").length`); n != 0 {
		t.Errorf("%d copy buttons without JavaScript", n)
	}
	for _, sel := range []string{"#documentation p", "#solutions li", "#example-fix pre .k", "#source #L4979.error-line", "#links .stable-url"} {
		if !eval[bool](t, tb, `(function (e) { return !!e && e.getBoundingClientRect().height > 0 })(document.querySelector(`+jsString(sel)+`))`) {
			t.Errorf("without JavaScript, %s is not shown", sel)
		}
	}
	if id := eval[string](t, tb, `(document.querySelector(":target") || {}).id || ""`); id != "L4979" {
		t.Errorf("without JavaScript, :target is %q", id)
	}
	b.screenshot(t, tb, "seed-nojs-desktop", false)
	tb.check(t, "no JavaScript")
}

// allPages: every kind of page, on a desktop, on 390 and 360 px phones
// and in dark mode, has no console errors, no CSP violations and no horizontal
// scrolling; each is saved as a screenshot.
func (b *bt) allPages(t *testing.T) {
	pages := []struct{ name, path string }{
		{"home", "/"},
		{"search", "/search?q=quorum"},
		{"projects", "/errors"},
		{"project", "/errors/fictional-org/quuxdb"},
		{"tag", "/tags/quorum"},
		{"seed", seedPath},
		{"python", quorumPath},
		{"js", timeoutPath},
		{"hostile", hostilePath},
		{"not-found", "/errors/fictional-org/quuxdb/no-such-error"},
	}
	for _, v := range []viewport{
		{"desktop", 1280, 900, false, false},
		{"mobile", 390, 844, true, false},
		{"dark", 1280, 900, false, true},
		{"mobile-dark", 390, 844, true, true},
		{"narrow-360", 360, 740, true, false},
	} {
		t.Run(v.name, func(t *testing.T) {
			tb := b.newTab(t)
			tb.emulate(t, v)
			for _, p := range pages {
				t.Logf("%s %s", v.name, p.path)
				tb.do(t, chromedp.Navigate(b.srv.URL+p.path), waitFor("main"))
				tb.checkLayout(t, p.name, v)
				b.screenshot(t, tb, p.name+"-"+v.name, true)
				allow := []string{}
				if p.name == "not-found" {
					allow = append(allow, "status of 404")
				}
				tb.check(t, p.name+" ("+v.name+")", allow...)
			}
		})
	}
}

// contrastJS lists text elements whose colour has a contrast ratio below
// 4.5 against the nearest opaque background: highlighted code, links,
// muted text. It catches a light-mode colour left on the dark background.
const contrastJS = `(function () {
  function rgb(s) { var m = s.match(/[\d.]+/g); return m ? m.map(Number) : null; }
  function lum(c) { var a = c.slice(0, 3).map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2]; }
  function bg(e) { for (; e; e = e.parentElement) { var c = rgb(getComputedStyle(e).backgroundColor); if (c && (c.length < 4 || c[3] > 0.5)) return c; } return [255, 255, 255]; }
  var out = [];
  document.querySelectorAll("main span, main a, main code, main p, main dt, main dd, main li, main h1, main h2, header a, footer p").forEach(function (e) {
    var own = Array.prototype.some.call(e.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim() !== ""; });
    if (!own || e.closest(".visually-hidden, .copy-status")) return;
    var f = rgb(getComputedStyle(e).color), b = bg(e), l1 = lum(f), l2 = lum(b);
    var ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    if (ratio < 4.5 && out.length < 8) out.push(e.tagName + "." + e.className + " '" + e.textContent.trim().slice(0, 20) + "' " + ratio.toFixed(2));
  });
  return out;
})()`
