//go:build browser

package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/errkb/errkb/export"
)

// TestBrowserExport exports the page fixtures with `errkb export`'s
// package, serves the folder under /kb/ with a plain file server (no errkb
// at all) under the deployed Content-Security-Policy, and clicks through
// it: home, a project, an error page; then searches and looks up in the
// browser.
func TestBrowserExport(t *testing.T) {
	exe := findChromium(t)
	s := newPagesServer(t, true, Config{BaseURL: "https://docs.example.test/kb"})
	dir := filepath.Join(t.TempDir(), "site")
	if _, err := export.Run(context.Background(), s, export.Options{Routes: Routes(), Out: dir, BaseURL: "https://docs.example.test/kb"}); err != nil {
		t.Fatal(err)
	}
	files := http.StripPrefix("/kb", http.FileServer(http.Dir(dir)))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", testCSP)
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()

	alloc := newAllocator(t, exe, 3*time.Minute)
	b := &bt{t: t, srv: srv, alloc: alloc, shots: artifactsDir(t)}

	t.Run("ClickThrough", b.exportClickThrough)
	t.Run("Search", b.exportSearch)
	t.Run("Lookup", b.exportLookup)
}

// exportClickThrough: home -> project -> error page, every page styled
// and scripted from files under the prefix.
func (b *bt) exportClickThrough(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb/"), waitFor(`main a[href="errors/nats-io/nats-server/"]`))
	b.checkStyled(t, tb, "home")
	tb.check(t, "home")

	tb.do(t, chromedp.Click(`main a[href="errors/nats-io/nats-server/"]`), waitFor(`main a[href$="js-consumer-offline/"]`))
	if p := eval[string](t, tb, `location.pathname`); p != "/kb/errors/nats-io/nats-server/" {
		t.Errorf("project link opened %s", p)
	}
	b.checkStyled(t, tb, "project")
	tb.check(t, "project")

	tb.do(t, chromedp.Click(`main a[href$="js-consumer-offline/"]`), waitFor("#source"))
	if p := eval[string](t, tb, `location.pathname`); p != "/kb"+seedPath+"/" {
		t.Errorf("record link opened %s", p)
	}
	if h1 := eval[string](t, tb, `document.querySelector("h1").textContent`); h1 != "JS_CONSUMER_OFFLINE" {
		t.Errorf("h1 = %q", h1)
	}
	b.checkStyled(t, tb, "record")
	// app.js ran from the export: it adds the copy buttons.
	if n := eval[int](t, tb, `document.querySelectorAll("button.copy").length`); n == 0 {
		t.Error("no copy buttons: app.js did not run")
	}
	// The API link leads to the exported JSON.
	api := eval[string](t, tb, `(function () { var x = new XMLHttpRequest(); x.open("GET", document.querySelector('a[href*="api/v1/errors/"]').href, false); x.send(); return x.responseText })()`)
	if !strings.Contains(api, `"slug":"js-consumer-offline"`) {
		t.Errorf("API link: %.200s", api)
	}
	tb.check(t, "record")
	b.screenshot(t, tb, "export-record", false)
}

// checkStyled fails when the page's stylesheet did not load.
func (b *bt) checkStyled(t *testing.T, tb *tab, what string) {
	t.Helper()
	if n := eval[int](t, tb, `Array.from(document.styleSheets).reduce(function (n, s) { return n + s.cssRules.length }, 0)`); n < 10 {
		t.Errorf("%s: the stylesheet did not load (%d rules)", what, n)
	}
}

// exportSearch: the search box sends the reader to the export's search
// page, which answers in the browser; the first result opens.
func (b *bt) exportSearch(t *testing.T) {
	tb := b.newTab(t)
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb"+quorumPath+"/"), waitFor("#q"),
		chromedp.SendKeys("#q", "quorum lost"), chromedp.Submit("#q"),
		waitFor(`html[data-search="done"] ol.records li a.code`))
	if loc := eval[string](t, tb, `location.pathname + location.search`); loc != "/kb/search/?q=quorum+lost" {
		t.Errorf("search went to %s", loc)
	}
	codes := eval[[]string](t, tb, `Array.from(document.querySelectorAll("ol.records a.code")).map(function (a) { return a.textContent })`)
	if len(codes) == 0 || codes[0] != "QUUX_QUORUM_LOST" {
		t.Errorf("results %v, want QUUX_QUORUM_LOST first", codes)
	}
	if total := eval[string](t, tb, `document.querySelector(".total").textContent`); total != "1 matching errors" {
		t.Errorf("total %q", total)
	}
	b.screenshot(t, tb, "export-search", false)
	tb.check(t, "search")
	tb.do(t, chromedp.Click("ol.records li a.code"), waitFor("#source"))
	if p := eval[string](t, tb, `location.pathname`); p != "/kb"+quorumPath+"/" {
		t.Errorf("first result opened %s", p)
	}
	tb.check(t, "search result")

	// A tag filter, as the facet links of the search page send it.
	want := len(loadPages(t).ByTag("consumer"))
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb/search/?tag=consumer"), waitFor(`html[data-search="done"] .total`))
	if n := eval[int](t, tb, `document.querySelectorAll("ol.records li").length`); n != want || want == 0 {
		t.Errorf("tag filter: %d results, want %d", n, want)
	}
	tb.check(t, "tag filter")

	// The hostile record's markup is shown as text by the browser search too.
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb/search/?q=script"), waitFor(`html[data-search="done"] .total`))
	if codes := eval[[]string](t, tb, `Array.from(document.querySelectorAll("ol.records a.code")).map(function (a) { return a.textContent })`); len(codes) == 0 || codes[0] != "<script>window.__pwned=1</script>" {
		t.Errorf("hostile search: %q", codes)
	}
	if eval[bool](t, tb, `!!window.__pwned || !!document.querySelector("ol.records script, ol.records img")`) {
		t.Error("the hostile record's markup ran in the browser search")
	}
	tb.check(t, "hostile search")

	// Pages of 20, as on the server: the four fixtures fill page 1 only.
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb/search/?page=2"), waitFor(`html[data-search="done"] .total`))
	if n := eval[int](t, tb, `document.querySelectorAll("ol.records li").length`); n != 0 {
		t.Errorf("page 2: %d results", n)
	}
	if prev := eval[string](t, tb, `(document.querySelector('nav.pages a[rel="prev"]') || {}).href || ""`); !strings.HasSuffix(prev, "/kb/search/?page=1") {
		t.Errorf("page 2: previous link %q", prev)
	}
	tb.check(t, "page 2")
}

// exportLookup: /kb/lookup/?q=CODE goes straight to the error, as the
// server's /lookup does; an unknown text goes to the search.
func (b *bt) exportLookup(t *testing.T) {
	tb := b.newTab(t)
	// Only the error page has #source, and only the search page, once
	// answered, html[data-search]: each wait passes only after the lookup
	// page has moved on.
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb/lookup/?q=JS_CONSUMER_OFFLINE"), waitFor("#source"))
	if p := eval[string](t, tb, `location.pathname`); p != "/kb"+seedPath+"/" {
		t.Errorf("lookup went to %s", p)
	}
	tb.do(t, chromedp.Navigate(b.srv.URL+"/kb/lookup/?q=nothing+like+this"), waitFor(`html[data-search="done"] .total`))
	if loc := eval[string](t, tb, `location.pathname + location.search`); loc != "/kb/search/?q=nothing%20like%20this" {
		t.Errorf("unknown lookup went to %s", loc)
	}
	if total := eval[string](t, tb, `document.querySelector(".total").textContent`); total != "0 matching errors" {
		t.Errorf("unknown lookup: search says %q", total)
	}
	tb.check(t, "lookup")
}
