package web

import (
	"context"
	"github.com/errkb/errkb/web/siteurl"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
)

// natsRepo is the project of the embedded dataset's real records.
const natsRepo = "nats-io/nats-server"

// The trial: 3,000 generated records over 420 projects, one of
// which is grown to 400 errors.
const (
	trialRecords = 3000
	trialBig     = 400
)

var (
	trialOnce sync.Once
	trialSrv  *Server
	trialDS   *errkb.Dataset
	trialRepo string
)

// trialServer serves the trial dataset with a real index, built once for
// every test of this file.
func trialServer(t *testing.T) (*Server, *errkb.Dataset, string) {
	t.Helper()
	trialOnce.Do(func() {
		trialDS, trialRepo = generatedDataset(t, trialRecords, trialBig)
		// Built without readyServer, whose cleanup would close the index
		// when the first test using it ends; it lives until the process
		// does.
		ix, err := index.Build(context.Background(), trialDS, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatalf("build index: %v", err)
		}
		trialSrv = New(trialDS, Config{})
		trialSrv.SetSearcher(ix)
	})
	if trialSrv == nil {
		t.Fatal("trial server failed to build")
	}
	return trialSrv, trialDS, trialRepo
}

// visibleRows are the project table's rows a reader sees: not hidden, in
// a group that is not hidden.
func visibleRows(d *goquery.Document) *goquery.Selection {
	return d.Find("section.group:not([hidden]) table.errors tbody tr:not([hidden])")
}

func TestProjectPageGroups(t *testing.T) {
	s, ds, repo := trialServer(t)
	resp := fetch(t, s, siteurl.Project(repo))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	d := doc(t, resp)
	recs := ds.ByRepo(repo)
	groups := d.Find("section.group")
	if groups.Length() < 2 {
		t.Fatalf("%d groups for %d errors", groups.Length(), len(recs))
	}
	// Every record once, in the group of its directory, with the group's
	// count right.
	byCode := map[string]*errkb.Record{}
	for _, r := range recs {
		byCode[r.ErrorCode+"\x00"+recordURL(r)] = r
	}
	seen := 0
	groups.Each(func(_ int, g *goquery.Selection) {
		title := strings.TrimSpace(strings.TrimSuffix(g.Find("h2").Contents().Not(".count").Text(), " "))
		rows := g.Find("tbody tr")
		if count := g.Find("h2 .count").Text(); count != strconv.Itoa(rows.Length()) {
			t.Errorf("group %s: count %q, %d rows", title, count, rows.Length())
		}
		idx := d.Find(`nav.group-index [data-group-link="` + g.AttrOr("id", "") + `"] .count`).Text()
		if idx != strconv.Itoa(rows.Length()) {
			t.Errorf("group %s: index says %q, %d rows", title, idx, rows.Length())
		}
		rows.Each(func(_ int, row *goquery.Selection) {
			a := row.Find("td.col-code a")
			r := byCode[a.Text()+"\x00"+a.AttrOr("href", "")]
			if r == nil {
				t.Errorf("row %q -> %q is no record of %s", a.Text(), a.AttrOr("href", ""), repo)
				return
			}
			seen++
			if dir := r.FilePath[:strings.LastIndexByte(r.FilePath, '/')]; dir != title {
				t.Errorf("%s (%s) in group %q", r.ErrorCode, r.FilePath, title)
			}
			if got := row.Find("td.col-message").Text(); got != r.ErrorMessage {
				t.Errorf("%s: message %q, want %q", r.ErrorCode, got, r.ErrorMessage)
			}
			if got, want := row.Find(`td[data-label="HTTP"]`).Text(), optInt(r.HTTPStatus); got != want {
				t.Errorf("%s: HTTP cell %q, want %q", r.ErrorCode, got, want)
			}
			if got, want := row.Find(`td[data-label="Number"]`).Text(), optInt(r.NumericCode); got != want {
				t.Errorf("%s: number cell %q, want %q", r.ErrorCode, got, want)
			}
		})
	})
	if seen != len(recs) {
		t.Errorf("%d rows for %d records", seen, len(recs))
	}
	if got, want := d.Find(".project-summary").Text(), strconv.Itoa(len(recs))+" errors in "; !strings.HasPrefix(got, want) {
		t.Errorf("summary %q, want it to start %q", got, want)
	}
	// A group shows the HTTP and number columns when one of its errors
	// has them, and only then.
	groups.Each(func(_ int, g *goquery.Selection) {
		for _, col := range []string{"HTTP", "Number"} {
			head := g.Find("th abbr:contains('"+col+"')").Length() == 1
			filled := false
			g.Find(`td[data-label="` + col + `"]`).Each(func(_ int, td *goquery.Selection) { filled = filled || td.Text() != "" })
			if head != filled {
				t.Errorf("group %s: %s column shown=%v, some error has it=%v", g.AttrOr("id", ""), col, head, filled)
			}
		}
	})
	if d.Find(`td[data-label="HTTP"]`).Length() == 0 || d.Find(`td[data-label="Number"]`).Length() == 0 {
		t.Error("no HTTP or number column on the page")
	}
}

func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

// TestProjectPageFilter: ?q= leaves visible exactly the errors holding
// every word, counts them in words, and works through the full router
// without JavaScript.
func TestProjectPageFilter(t *testing.T) {
	s, ds, repo := trialServer(t)
	recs := ds.ByRepo(repo)
	for _, q := range []string{"timed out", "CONFLICT", "503", "nothing-matches-this", strconv.Itoa(*firstNumeric(recs).NumericCode)} {
		t.Run(q, func(t *testing.T) {
			want := matching(recs, q)
			resp := fetch(t, s, siteurl.Project(repo)+"?q="+url.QueryEscape(q))
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d", resp.StatusCode)
			}
			d := doc(t, resp)
			got := map[string]bool{}
			visibleRows(d).Each(func(_ int, row *goquery.Selection) { got[row.Find("a").AttrOr("href", "")] = true })
			if len(got) != len(want) {
				t.Errorf("%d rows shown, want %d", len(got), len(want))
			}
			for p := range want {
				if !got[p] {
					t.Errorf("%s matches but is not shown", p)
				}
			}
			if d.Find("#filter").AttrOr("value", "") != q {
				t.Errorf("filter box holds %q", d.Find("#filter").AttrOr("value", ""))
			}
			status := d.Find(".filter-status").Text()
			wantStatus := "Showing " + strconv.Itoa(len(want)) + " of " + strconv.Itoa(len(recs)) + " errors matching “" + q + "”."
			if len(want) == 0 {
				wantStatus = "No errors match “" + q + "”."
				if d.Find(".no-match:not([hidden])").Length() != 1 {
					t.Error("no 'no error matches' notice")
				}
			}
			if !strings.Contains(status, wantStatus) {
				t.Errorf("status %q, want %q", status, wantStatus)
			}
			// Groups without a match are hidden with their index entry.
			d.Find("section.group").Each(func(_ int, g *goquery.Selection) {
				n := g.Find("tbody tr:not([hidden])").Length()
				_, hidden := g.Attr("hidden")
				_, linkHidden := d.Find(`[data-group-link="` + g.AttrOr("id", "") + `"]`).Attr("hidden")
				if hidden != (n == 0) || linkHidden != (n == 0) {
					t.Errorf("group %s: %d rows shown, hidden=%v, index entry hidden=%v", g.AttrOr("id", ""), n, hidden, linkHidden)
				}
			})
		})
	}
}

// matching is the records of repo whose code, message, HTTP status and
// number hold every word of q, as a reader would pick them out.
func matching(recs []*errkb.Record, q string) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		text := strings.ToLower(r.ErrorCode + " " + r.ErrorMessage + " " + optInt(r.HTTPStatus) + " " + optInt(r.NumericCode))
		ok := true
		for _, w := range strings.Fields(strings.ToLower(q)) {
			ok = ok && strings.Contains(text, w)
		}
		if ok {
			out[recordURL(r)] = true
		}
	}
	return out
}

// padded makes numbers sort as text.
func padded(n string) string { return strings.Repeat("0", 12-len(n)) + n }

func firstNumeric(recs []*errkb.Record) *errkb.Record {
	for _, r := range recs {
		if r.NumericCode != nil {
			return r
		}
	}
	panic("no record with a numeric code")
}

func TestProjectPageSort(t *testing.T) {
	s, _, repo := trialServer(t)
	for _, tc := range []struct {
		query string
		key   func(row *goquery.Selection) string
	}{
		{"", func(row *goquery.Selection) string { return strings.ToLower(row.Find("td.col-code").Text()) }},
		{"?sort=code", func(row *goquery.Selection) string { return strings.ToLower(row.Find("td.col-code").Text()) }},
		{"?sort=numeric", func(row *goquery.Selection) string {
			return padded(row.Find(`td[data-label="Number"]`).Text())
		}},
		{"?sort=numeric&q=timed", func(row *goquery.Selection) string {
			return padded(row.Find(`td[data-label="Number"]`).Text())
		}},
	} {
		resp := fetch(t, s, siteurl.Project(repo)+tc.query)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", tc.query, resp.StatusCode)
		}
		d := doc(t, resp)
		d.Find("section.group").Each(func(_ int, g *goquery.Selection) {
			var keys []string
			g.Find("tbody tr").Each(func(_ int, row *goquery.Selection) { keys = append(keys, tc.key(row)) })
			if !slices.IsSorted(keys) {
				t.Errorf("%s: group %s not in order: %v", tc.query, g.AttrOr("id", ""), keys)
			}
		})
		// The other order is a link keeping the filter; the current one is not.
		cur := d.Find("p.sort strong").Text()
		if (strings.Contains(tc.query, "numeric") && cur != "numeric code") || (!strings.Contains(tc.query, "numeric") && cur != "code") {
			t.Errorf("%s: current order shown as %q", tc.query, cur)
		}
		if strings.Contains(tc.query, "q=timed") && !strings.Contains(d.Find("p.sort a").AttrOr("href", ""), "q=timed") {
			t.Errorf("%s: sort link %q drops the filter", tc.query, d.Find("p.sort a").AttrOr("href", ""))
		}
	}
	if resp := fetch(t, s, siteurl.Project(repo)+"?sort=size"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("?sort=size: status %d, want 400", resp.StatusCode)
	}
}

// TestProjectPageSmall: a project of a few errors is one table without
// group headings, and its columns are only those its records fill.
func TestProjectPageSmall(t *testing.T) {
	s := testServer(t)
	d := doc(t, fetch(t, s, "/errors/nats-io/nats-server"))
	if n := d.Find("section.group").Length(); n != 1 {
		t.Errorf("%d groups", n)
	}
	if d.Find("nav.group-index").Length() != 0 {
		t.Error("a group index for one group")
	}
	if got := d.Find(".project-summary").Text(); !strings.HasPrefix(got, "1 error ·") {
		t.Errorf("summary %q, want \"1 error · ...\"", got)
	}
	if d.Find("th abbr[title='HTTP status']").Length() != 0 || d.Find("p.sort").Length() != 0 {
		t.Error("HTTP column or sort links for records without statuses or numbers")
	}
}

func TestProjectPageProvenance(t *testing.T) {
	ds, err := errkb.Load(errkb.Folder{Name: "generated", FS: mustFS(generatedFS(t, 30, 0))})
	if err != nil {
		t.Fatal(err)
	}
	repo := ds.Records[0].Repo
	ds.Provenance = map[string]errkb.Provenance{repo: {Repo: repo, Module: "example.com/acme/widgets", Version: "v1.2.3",
		Commit: strings.Repeat("ab", 20), License: "Apache-2.0", LicenseFile: "LICENSE", Tool: "errkb extract"}}
	s := New(ds, Config{})
	d := doc(t, fetch(t, s, siteurl.Project(repo)))
	a := d.Find("dl.attribution")
	for _, want := range []struct{ text, href string }{
		{"example.com/acme/widgets", "https://pkg.go.dev/example.com/acme/widgets@v1.2.3"},
		{strings.Repeat("ab", 6), "https://github.com/" + repo + "/commit/" + strings.Repeat("ab", 20)},
		{"Apache-2.0", "https://github.com/" + repo + "/blob/" + strings.Repeat("ab", 20) + "/LICENSE"},
	} {
		link := a.Find(`a[href="` + want.href + `"]`)
		if link.Length() != 1 || link.Text() != want.text {
			t.Errorf("attribution lacks %q linking to %s; have %q", want.text, want.href, a.Text())
		}
	}
	if !strings.Contains(a.Text(), "v1.2.3") || !strings.Contains(a.Text(), "errkb extract") {
		t.Errorf("attribution %q lacks the version or the tool", a.Text())
	}
	// Without a license file the license links to pkg.go.dev's tab.
	p := ds.Provenance[repo]
	p.LicenseFile = ""
	ds.Provenance[repo] = p
	s = New(ds, Config{})
	if href := doc(t, fetch(t, s, siteurl.Project(repo))).Find("dl.attribution a:contains('Apache-2.0')").AttrOr("href", ""); href != "https://pkg.go.dev/example.com/acme/widgets@v1.2.3?tab=licenses" {
		t.Errorf("license without a file links to %q", href)
	}
	// Without provenance there is no attribution box.
	other := ds.Projects()[1].Repo
	if doc(t, fetch(t, s, siteurl.Project(other))).Find("dl.attribution").Length() != 0 {
		t.Error("attribution shown for a project without provenance")
	}
}

func mustFS[T any](fsys T, _ string) T { return fsys }

// TestProjectPageCached: the plain project page is kept like every other
// page (ETag, 304), while filtered views are rendered per request.
func TestProjectPageCached(t *testing.T) {
	s, _, repo := trialServer(t)
	first := get(t, s, siteurl.Project(repo))
	etag := first.Header().Get("ETag")
	if etag == "" || first.Header().Get("Cache-Control") == "" {
		t.Fatalf("project page not cached: headers %v", first.Header())
	}
	if again := get(t, s, siteurl.Project(repo), "If-None-Match", etag); again.Code != http.StatusNotModified {
		t.Errorf("revalidation: status %d, want 304", again.Code)
	}
	if f := get(t, s, siteurl.Project(repo)+"?q=timed"); f.Header().Get("ETag") != "" {
		t.Error("a filtered view was cached")
	}
}

// TestHomeAtScale: the home page lists at most 50 projects, largest
// first, says how many there are in words that agree, and links to
// /errors, which lists every one and filters them.
func TestHomeAtScale(t *testing.T) {
	s, ds, repo := trialServer(t)
	d := doc(t, fetch(t, s, "/"))
	items := d.Find("ul.project-list li")
	if items.Length() != homeProjects {
		t.Fatalf("home lists %d projects, want %d", items.Length(), homeProjects)
	}
	if first := items.First().Find("a").AttrOr("href", ""); first != siteurl.Project(repo) {
		t.Errorf("first project %s, want the largest, %s", first, siteurl.Project(repo))
	}
	prev := len(ds.ByRepo(repo))
	items.Each(func(i int, li *goquery.Selection) {
		n := len(ds.ByRepo(strings.TrimPrefix(li.Find("a").AttrOr("href", ""), "/errors/")))
		if want := strconv.Itoa(n) + " errors"; li.Find(".count").Text() != want {
			t.Errorf("item %d: count %q, want %q", i, li.Find(".count").Text(), want)
		}
		if n > prev {
			t.Errorf("item %d has %d errors, more than the one before (%d)", i, n, prev)
		}
		prev = n
	})
	if !strings.Contains(d.Find(".intro").Text(), "3,392 errors from 420 projects.") {
		t.Errorf("intro %q", d.Find(".intro").Text())
	}
	if more := d.Find("p.more a"); more.AttrOr("href", "") != "/errors" || !strings.Contains(more.Text(), "420 projects") {
		t.Errorf("link to all projects: %q -> %q", more.Text(), more.AttrOr("href", ""))
	}

	all := doc(t, fetch(t, s, "/errors"))
	if n := all.Find("ul.project-list li:not([hidden])").Length(); n != len(ds.Projects()) {
		t.Errorf("/errors lists %d projects, want %d", n, len(ds.Projects()))
	}
	owner := strings.Split(repo, "/")[0]
	filtered := doc(t, fetch(t, s, "/errors?q="+owner))
	shown := filtered.Find("ul.project-list li:not([hidden]) a")
	if shown.Length() == 0 || shown.Length() >= len(ds.Projects()) {
		t.Fatalf("/errors?q=%s shows %d projects", owner, shown.Length())
	}
	shown.Each(func(_ int, a *goquery.Selection) {
		if !strings.Contains(a.Text(), owner) {
			t.Errorf("/errors?q=%s shows %s", owner, a.Text())
		}
	})
}

// TestCountWords: counts read "1 error", "2 errors", "1 project".
func TestCountWords(t *testing.T) {
	s := testServer(t)
	for _, tc := range []struct{ path, sel, want string }{
		{"/", `ul.project-list a[href="/errors/nats-io/nats-server"] + .count`, "1 error"},
		{"/", ".intro p", "from 2 projects."},
		{"/errors", `ul.project-list a[href="/errors/nats-io/nats-server"] + .count`, "1 error"},
		{"/search?q=consumer+offline&repo=nats-io/nats-server", "p.total", "1 matching error"},
		{"/tags/consumer", "main > p", "1 error."},
	} {
		d := doc(t, fetch(t, s, tc.path))
		if got := d.Find(tc.sel).First().Text(); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %s reads %q, want %q", tc.path, tc.sel, got, tc.want)
		}
	}
}

// TestSearchSnippetsAtScale: snippets of a query with hundreds of hits
// show code spans as code and no Markdown syntax, and no did-you-mean
// stands beside them; a misspelt query still gets its correction.
func TestSearchSnippetsAtScale(t *testing.T) {
	s, _, _ := trialServer(t)
	resp := fetch(t, s, "/search?q=timeout")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	d := doc(t, resp)
	if d.Find("p.total").Length() == 0 {
		t.Fatalf("no total on the results page")
	}
	total, _ := strconv.Atoi(strings.Fields(strings.ReplaceAll(d.Find("p.total").Text(), ",", ""))[0])
	if total < 100 {
		t.Fatalf("only %d hits for timeout", total)
	}
	if d.Find(".did-you-mean").Length() != 0 {
		t.Errorf("did-you-mean beside %d good hits: %q", total, d.Find(".did-you-mean").Text())
	}
	hl := d.Find("p.highlight")
	if hl.Length() == 0 || hl.Find("code").Length() == 0 {
		t.Fatalf("no snippets with code spans: %q", hl.Text())
	}
	if text := hl.Text(); strings.ContainsAny(text, "`*") {
		t.Errorf("raw Markdown in snippets: %q", text)
	}
	if d.Find("p.highlight code mark").Length() == 0 {
		t.Error("no matched word marked inside a code span")
	}
	if dym := doc(t, fetch(t, s, "/search?q=timout")).Find(".did-you-mean a").First().Text(); dym != "timeout" {
		t.Errorf("did-you-mean for timout: %q", dym)
	}
}

// TestFacetsBreakLongNames: facet values break between a long name's
// parts.
func TestFacetsBreakLongNames(t *testing.T) {
	s := testServer(t)
	d := doc(t, fetch(t, s, "/search?q=timed+out"))
	label := d.Find(".facets ul.facet-values .facet-label").First()
	if label.Find("wbr").Length() == 0 {
		t.Errorf("facet %q has no break points", label.Text())
	}
}

// TestChooseGrouping: the coarsest grouping whose groups each hold at most
// half the errors.
func TestChooseGrouping(t *testing.T) {
	rec := func(pkg, file string, tags ...string) *errkb.Record {
		return &errkb.Record{GoPackage: pkg, FilePath: file, Tags: tags}
	}
	many := func(n int, r func(i int) *errkb.Record) []*errkb.Record {
		out := make([]*errkb.Record, n)
		for i := range out {
			out[i] = r(i)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		recs []*errkb.Record
		want string
	}{
		{"few errors stay one table", many(5, func(i int) *errkb.Record { return rec("m/p"+strconv.Itoa(i), "f.go") }), ""},
		{"packages", many(40, func(i int) *errkb.Record { return rec("m/p"+strconv.Itoa(i%4), "x/f"+strconv.Itoa(i)+".go") }), "package"},
		{"one package, many directories", many(40, func(i int) *errkb.Record { return rec("m", "d"+strconv.Itoa(i%5)+"/f.go") }), "directory"},
		{"one package that holds most: files", many(40, func(i int) *errkb.Record {
			if i < 36 {
				return rec("m/server", "server/f"+strconv.Itoa(i%6)+".go")
			}
			return rec("m/other", "other/g.go")
		}), "file"},
		{"no source: tags", many(40, func(i int) *errkb.Record { return rec("", "", "t"+strconv.Itoa(i%3)) }), "tag"},
		{"nothing splits", many(40, func(i int) *errkb.Record { return rec("m", "f.go", "t") }), ""},
		{"every error its own file: too fine", many(40, func(i int) *errkb.Record { return rec("m", "f"+strconv.Itoa(i)+".go") }), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if g := chooseGrouping(tc.recs); g != nil {
				got = g.name
			}
			if got != tc.want {
				t.Errorf("grouped by %q, want %q", got, tc.want)
			}
		})
	}
}

// TestProjectPageRedirectKeepsQuery: a project link in other case keeps
// its filter and order on the way to the canonical page.
func TestProjectPageRedirectKeepsQuery(t *testing.T) {
	s, _, repo := trialServer(t)
	resp := fetch(t, s, siteurl.Project(strings.ToUpper(repo))+"?q=timed+out&sort=numeric")
	if want := siteurl.Project(repo) + "?q=timed+out&sort=numeric"; resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
		t.Errorf("%d to %q, want 301 to %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
}
