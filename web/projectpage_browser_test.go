//go:build browser

package web

import (
	"fmt"
	"github.com/errkb/errkb/web/siteurl"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/errkb/errkb"
)

// TestBrowserBrowse tries the pages for browsing at scale in Chromium: the
// issue's 3,000 generated records over 420 projects (one grown to 400
// errors) and the embedded nats-server records, on a desktop and a 360 px
// phone, light and dark. Screenshots go to artifacts/browse, which is
// committed.
func TestBrowserBrowse(t *testing.T) {
	exe := findChromium(t)
	fsys, repo := generatedFS(t, trialRecords, trialBig)
	ds, err := errkb.Load(errkb.Folder{Name: "generated", FS: fsys}, errkb.Folder{Name: "long", FS: longNameFS()})
	if err != nil {
		t.Fatal(err)
	}
	gen := httptest.NewServer(withCSP(readyServer(t, ds, Config{})))
	defer gen.Close()
	var embedded *errkb.Dataset
	embedded, err = errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	real := httptest.NewServer(withCSP(readyServer(t, embedded, Config{})))
	defer real.Close()

	b := &bt{t: t, srv: gen, alloc: newAllocator(t, exe, 5*time.Minute), shots: browseArtifactsDir(t)}
	bb := &browseTest{bt: b, ds: ds, repo: repo, real: real, embedded: embedded}
	t.Run("FilterWithJavaScript", bb.filterWithJS)
	t.Run("FilterWithoutJavaScript", bb.filterWithoutJS)
	t.Run("SortByNumber", bb.sortByNumber)
	t.Run("ProjectsFilter", bb.projectsFilter)
	t.Run("SearchSnippets", bb.searchSnippets)
	t.Run("LongNameFacet", bb.longNameFacet)
	t.Run("NATS", bb.nats)
	t.Run("Screens", bb.screens)
}

// longRepo is a fictional project with a long name, whose errors share the
// word "zanzibar", so a search for it lists the project among the facets.
const longRepo = "northwind-distributed-systems-laboratory/replicated-transaction-coordinator"

func longNameFS() fstest.MapFS {
	var b strings.Builder
	for i, slug := range []string{"zanzibar-lease-lost", "zanzibar-quorum-timeout", "zanzibar-epoch-stale"} {
		fmt.Fprintf(&b, `{"record": {"id": "longname-%d", "repo": %q, "slug": %q, "errorCode": %q, "errorMessage": "zanzibar coordinator %s", "severity": "error", "documentation": "The `+"`zanzibar`"+` coordinator **gave up**: see `+"`coordinator.%s`"+`."}}`+"\n",
			i, longRepo, slug, strings.ToUpper(strings.ReplaceAll(slug, "-", "_")), strings.ReplaceAll(slug, "-", " "), strings.ReplaceAll(slug, "-", "_"))
	}
	return fstest.MapFS{"long.jsonl": {Data: []byte(b.String())}}
}

type browseTest struct {
	*bt
	ds       *errkb.Dataset
	repo     string
	real     *httptest.Server
	embedded *errkb.Dataset
}

func withCSP(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", testCSP)
		h.ServeHTTP(w, r)
	})
}

// browseArtifactsDir is artifacts/browse at the repository root, or
// $ERRKB_ARTIFACTS/browse.
func browseArtifactsDir(t *testing.T) string {
	dir := filepath.Join("..", "artifacts", "browse")
	if env := os.Getenv("ERRKB_ARTIFACTS"); env != "" {
		dir = filepath.Join(env, "browse")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

var (
	desktop     = viewport{"desktop", 1280, 900, false, false}
	desktopDark = viewport{"desktop-dark", 1280, 900, false, true}
	phone       = viewport{"phone-360", 360, 740, true, false}
	phoneDark   = viewport{"phone-360-dark", 360, 740, true, true}
)

// shownRows is what a reader sees of a project table: codes of rows that
// take up room on the page.
const shownRowsJS = `Array.from(document.querySelectorAll("table.errors tbody tr")).filter(function (r) {
  return r.getClientRects().length > 0 }).map(function (r) { return r.querySelector("a").getAttribute("href") })`

func checkShown(t *testing.T, tb *tab, want map[string]bool, what string) {
	t.Helper()
	got := eval[[]string](t, tb, shownRowsJS)
	if len(got) != len(want) {
		t.Errorf("%s: %d rows shown, want %d", what, len(got), len(want))
	}
	for _, p := range got {
		if !want[p] {
			t.Errorf("%s: %s shown but does not match", what, p)
		}
	}
}

// filterWithJS: typing narrows the rows at once, hides empty groups,
// says how many match, and puts ?q= in the address; clearing shows all.
func (bb *browseTest) filterWithJS(t *testing.T) {
	tb := bb.newTab(t)
	tb.emulate(t, desktop)
	recs := bb.ds.ByRepo(bb.repo)
	tb.do(t, chromedp.Navigate(bb.srv.URL+siteurl.Project(bb.repo)), waitFor("table.errors"))
	const q = "timed out"
	tb.do(t, chromedp.SendKeys("#filter", q))
	want := matching(recs, q)
	if len(want) == 0 || len(want) == len(recs) {
		t.Fatalf("%q matches %d of %d records; pick a query that narrows", q, len(want), len(recs))
	}
	checkShown(t, tb, want, "typed "+q)
	if got := eval[string](t, tb, `new URLSearchParams(location.search).get("q")`); got != q {
		t.Errorf("address has q=%q", got)
	}
	wantStatus := "Showing " + strconv.Itoa(len(want)) + " of " + strconv.Itoa(len(recs)) + " errors matching “" + q + "”."
	if got := eval[string](t, tb, `document.querySelector(".filter-status").textContent.trim()`); got != wantStatus {
		t.Errorf("status %q, want %q", got, wantStatus)
	}
	if empty := eval[int](t, tb, `Array.from(document.querySelectorAll("section.group")).filter(function (g) {
		return g.getClientRects().length > 0 && !g.querySelector("tbody tr:not([hidden])") }).length`); empty != 0 {
		t.Errorf("%d groups shown without a matching row", empty)
	}
	bb.screenshot(t, tb, "project-filter-js-desktop", false)
	eval[bool](t, tb, `(function (i) { i.value = ""; i.dispatchEvent(new Event("input")); return true })(document.getElementById("filter"))`)
	checkShown(t, tb, matching(recs, ""), "cleared")
	tb.check(t, "filter with JavaScript")
}

// filterWithoutJS: with scripts off, the same box filters on the server.
func (bb *browseTest) filterWithoutJS(t *testing.T) {
	tb := bb.newTab(t)
	tb.emulate(t, desktop)
	if _, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	recs := bb.ds.ByRepo(bb.repo)
	tb.do(t, chromedp.Navigate(bb.srv.URL+siteurl.Project(bb.repo)), waitFor("table.errors"))
	const q = "conflict"
	tb.do(t, chromedp.SendKeys("#filter", q), chromedp.Click("form.filter button"), waitFor(".filter-status a.clear"))
	if got := eval[string](t, tb, `new URLSearchParams(location.search).get("q")`); got != q {
		t.Errorf("after submitting, the address has q=%q", got)
	}
	want := matching(recs, q)
	if len(want) == 0 || len(want) == len(recs) {
		t.Fatalf("%q matches %d of %d records; pick a query that narrows", q, len(want), len(recs))
	}
	checkShown(t, tb, want, "submitted "+q)
	bb.screenshot(t, tb, "project-filter-nojs-desktop", false)
	tb.check(t, "filter without JavaScript")
}

// sortByNumber: the "numeric code" link orders each group by number.
func (bb *browseTest) sortByNumber(t *testing.T) {
	tb := bb.newTab(t)
	tb.emulate(t, desktop)
	tb.do(t, chromedp.Navigate(bb.srv.URL+siteurl.Project(bb.repo)), waitFor("p.sort a"),
		chromedp.Click("p.sort a"), waitFor("p.sort a[href$='"+siteurl.Project(bb.repo)+"']"))
	bad := eval[[]string](t, tb, `Array.from(document.querySelectorAll("section.group")).flatMap(function (g) {
		var ns = Array.from(g.querySelectorAll("tbody tr")).map(function (r) { return parseInt(r.querySelector("td[data-label=Number]").textContent, 10) });
		return ns.every(function (n, i) { return i === 0 || ns[i - 1] <= n }) ? [] : [g.id + ": " + ns.join(",")] })`)
	if len(bad) > 0 {
		t.Errorf("groups not in numeric order: %v", bad)
	}
	tb.check(t, "sort by number")
}

// projectsFilter: /errors narrows as you type.
func (bb *browseTest) projectsFilter(t *testing.T) {
	tb := bb.newTab(t)
	tb.emulate(t, desktop)
	owner := strings.Split(bb.repo, "/")[0]
	tb.do(t, chromedp.Navigate(bb.srv.URL+"/errors"), waitFor("ul.project-list"), chromedp.SendKeys("#filter", owner))
	want := 0
	for _, p := range bb.ds.Projects() {
		if strings.Contains(strings.ToLower(p.Repo), owner) {
			want++
		}
	}
	got := eval[[]string](t, tb, `Array.from(document.querySelectorAll("ul.project-list li")).filter(function (li) {
		return li.getClientRects().length > 0 }).map(function (li) { return li.querySelector("a").textContent })`)
	if len(got) != want || want == 0 {
		t.Errorf("typed %q: %d projects shown, want %d", owner, len(got), want)
	}
	for _, name := range got {
		if !strings.Contains(name, owner) {
			t.Errorf("typed %q: %s shown", owner, name)
		}
	}
	bb.screenshot(t, tb, "projects-filter-js-desktop", false)
	tb.check(t, "projects filter")
}

// searchSnippets: at hundreds of hits, snippets show code spans as code,
// no Markdown syntax, and no did-you-mean.
func (bb *browseTest) searchSnippets(t *testing.T) {
	tb := bb.newTab(t)
	tb.emulate(t, desktop)
	tb.do(t, chromedp.Navigate(bb.srv.URL+"/search?q=timeout"), waitFor("ol.records"))
	if n := eval[int](t, tb, `document.querySelectorAll(".highlight code").length`); n == 0 {
		t.Error("no code spans in the snippets")
	}
	if raw := eval[string](t, tb, `Array.from(document.querySelectorAll(".highlight")).map(function (h) { return h.textContent }).join(" ")`); strings.ContainsAny(raw, "`*") {
		t.Errorf("raw Markdown in snippets: %.300s", raw)
	}
	if eval[bool](t, tb, `!!document.querySelector(".did-you-mean")`) {
		t.Errorf("did-you-mean beside hundreds of hits: %s", eval[string](t, tb, `document.querySelector(".did-you-mean").textContent`))
	}
	tb.check(t, "search snippets")
}

// longNameFacet: on a 360 px phone a long project name in the facets
// wraps between its parts and stays inside its box.
func (bb *browseTest) longNameFacet(t *testing.T) {
	tb := bb.newTab(t)
	tb.emulate(t, phone)
	tb.do(t, chromedp.Navigate(bb.srv.URL+"/search?q=zanzibar+coordinator"), waitFor(".facets"))
	got := eval[[]int](t, tb, `(function () {
		var l = Array.from(document.querySelectorAll(".facets .facet-label")).find(function (e) { return e.textContent === `+jsString(longRepo)+` });
		if (!l) { return []; }
		return [l.querySelectorAll("wbr").length, l.scrollWidth - l.clientWidth, l.getClientRects().length, Math.round(l.getBoundingClientRect().height)];
	})()`)
	if len(got) == 0 {
		t.Fatalf("no facet for %s", longRepo)
	}
	if got[0] == 0 || got[1] > 0 {
		t.Errorf("facet %s: %d break points, overflows by %d px", longRepo, got[0], got[1])
	}
	tb.check(t, "long name facet")
}

// nats: the nats-server page of the embedded dataset shows every shipped
// record, with its HTTP status and number where the record has them, and
// its filter works with and without JavaScript.
func (bb *browseTest) nats(t *testing.T) {
	recs := bb.embedded.ByRepo(natsRepo)
	if len(recs) == 0 {
		t.Fatalf("the embedded dataset has no %s records", natsRepo)
	}
	t.Logf("%s: %d records embedded", natsRepo, len(recs))
	for _, js := range []bool{true, false} {
		t.Run("js="+strconv.FormatBool(js), func(t *testing.T) { bb.natsPage(t, recs, js) })
	}
}

// natsPage is one run of nats, with or without JavaScript; each has its
// own browser, as a test's tabs share a profile directory.
func (bb *browseTest) natsPage(t *testing.T, recs []*errkb.Record, js bool) {
	{
		tb := bb.newTab(t)
		tb.emulate(t, desktop)
		if !js {
			if _, err := chromedp.Call(tb.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
				t.Fatal(err)
			}
		}
		tb.do(t, chromedp.Navigate(bb.real.URL+siteurl.Project(natsRepo)), waitFor("table.errors"))
		checkShown(t, tb, matching(recs, ""), "nats-server")
		cells := eval[map[string][]string](t, tb, `Object.fromEntries(Array.from(document.querySelectorAll("table.errors tbody tr")).map(function (r) {
			var h = Array.from(r.closest("table").querySelectorAll("th")).map(function (th) { return th.textContent.trim() });
			var c = Array.from(r.cells).map(function (td) { return td.textContent.trim() });
			return [r.querySelector("a").getAttribute("href"), h.map(function (name, i) { return name + "=" + c[i] })] }))`)
		for _, r := range recs {
			row := strings.Join(cells[recordURL(r)], "|")
			for _, want := range []struct{ col, val string }{{"HTTP", optInt(r.HTTPStatus)}, {"Number", optInt(r.NumericCode)}} {
				if want.val != "" && !strings.Contains(row, want.col+"="+want.val) {
					t.Errorf("%s: row %q lacks %s=%s", r.ErrorCode, row, want.col, want.val)
				}
			}
		}
		// Filter by a code: the first record with one from the middle on
		// (errors made in functions have none).
		var q string
		for _, r := range recs[len(recs)/2:] {
			if q = strings.ToLower(r.ErrorCode); q != "" {
				break
			}
		}
		if js {
			tb.do(t, chromedp.SendKeys("#filter", q))
		} else {
			tb.do(t, chromedp.SendKeys("#filter", q), chromedp.Click("form.filter button"), waitFor(".filter-status a.clear"))
		}
		checkShown(t, tb, matching(recs, q), "nats-server filtered by "+q)
		tb.check(t, "nats-server page")
	}
}

// screens: the browsing pages on each screen, checked for sideways
// scrolling, contrast and console problems, and saved.
func (bb *browseTest) screens(t *testing.T) {
	pages := []struct {
		name, url string
		full      bool   // the whole page on a desktop; phones show their first screen
		scrollTo  string // element to bring to the top before the screenshot
	}{
		{"home", bb.srv.URL + "/", true, ""},
		{"search", bb.srv.URL + "/search?q=timeout", true, ""},
		{"search-long-name", bb.srv.URL + "/search?q=zanzibar+coordinator", true, ""},
		{"project", bb.srv.URL + siteurl.Project(bb.repo), false, ""},
		{"project-table", bb.srv.URL + siteurl.Project(bb.repo) + "?sort=numeric", false, "section.group"},
		{"projects", bb.srv.URL + "/errors", false, ""},
		{"nats-server", bb.real.URL + siteurl.Project(natsRepo), false, ""},
		{"nats-server-table", bb.real.URL + siteurl.Project(natsRepo) + "?sort=numeric", false, "#g-server-jetstream-errors-generated-go"},
	}
	for _, v := range []viewport{desktop, desktopDark, phone, phoneDark} {
		t.Run(v.name, func(t *testing.T) {
			tb := bb.newTab(t)
			tb.emulate(t, v)
			for _, p := range pages {
				tb.do(t, chromedp.Navigate(p.url), waitFor("main"))
				if p.scrollTo != "" {
					// The group asked for, or the first one when the data lacks it.
					eval[bool](t, tb, `(function (e) { e.scrollIntoView(); return true })(document.querySelector(`+jsString(p.scrollTo)+`) || document.querySelector("section.group"))`)
				}
				tb.checkLayout(t, p.name, v)
				bb.screenshot(t, tb, p.name+"-"+v.name, p.full && !v.mobile)
				tb.check(t, p.name+" ("+v.name+")")
			}
		})
	}
}
