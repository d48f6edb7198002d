package web

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// The knowledge fixture: a client sentinel of the fictional gizmo project
// with every derived field, the server's API error that is its other
// face, a log-only error and a curated record with sources. Each face
// names the other, as extraction joins them.
const (
	clientID  = "f00dfeed000000c1"
	serverID  = "f00dfeed000000a1"
	logID     = "f00dfeed000000b1"
	curatedID = "f00dfeed000000d1"
)

func knowledgeRecords() []*errkb.Record {
	code := 10071
	client := errkbtest.Record(errkbtest.ID(clientID), errkbtest.Knowledge(5),
		errkbtest.Face(serverID, "server", "example.com/acme-labs/gizmo/server", "server.GizmoJammedErr", "err_code 10071", 12))
	server := errkbtest.Record(errkbtest.ID(serverID), errkbtest.Surface(errkb.SurfaceProtocol),
		errkbtest.Face(clientID, "client", "example.com/acme-labs/gizmo", "gizmo.ErrJammed", "err_code 10071", 12),
		func(r *errkb.Record) {
			r.ErrorType, r.NumericCode, r.ErrorCode, r.QualifiedName = "api_error", &code, "GizmoJammedErr", "server.GizmoJammedErr"
			r.TypeGuard = "var apiErr *server.ApiError\nerrors.As(err, &apiErr) && apiErr.ErrCode == 10071"
			r.GoPackage = "example.com/acme-labs/gizmo/server"
		})
	logged := errkbtest.Record(errkbtest.ID(logID), errkbtest.Surface(errkb.SurfaceLog), func(r *errkb.Record) {
		r.ErrorCode, r.ErrorMessage, r.TypeGuard = "GZ_HOT", "gizmo overheated, stopping", "errors.Is(err, ErrHot)"
	})
	curated := errkbtest.Record(errkbtest.ID(curatedID), func(r *errkb.Record) {
		r.GoPackage, r.CallSites = "", nil
		r.Documentation = "The gizmo is jammed ([spin.go](https://github.com/acme-labs/gizmo/blob/v1.0.0/spin.go#L10)).\n\n" +
			"- Oiling helps ([manual](https://example.com/manual#oil)).\n- Spinning slower helps ([spin.go](https://github.com/acme-labs/gizmo/blob/v1.0.0/spin.go#L10))."
		r.Solutions = []string{"Oil it ([manual](https://example.com/manual#oil))."}
	}, errkbtest.Sources(
		errkb.Citation{URL: "https://github.com/acme-labs/gizmo/blob/v1.0.0/spin.go#L10", Note: "Spin returns ErrJammed over the load"},
		errkb.Citation{URL: "https://example.com/manual#oil", Note: "the manual on oiling"}))
	return []*errkb.Record{client, server, logged, curated}
}

func knowledgeServer(t *testing.T) *Server {
	t.Helper()
	return readyServer(t, errkbtest.Dataset(t, knowledgeRecords()...), Config{})
}

func pageOf(t *testing.T, s *Server, id string) *goquery.Document {
	t.Helper()
	resp := fetch(t, s, "/errors/acme-labs/gizmo/"+id)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d", id, resp.StatusCode)
	}
	return doc(t, resp)
}

// TestRecordPageOrder: the sections come in the page order of issue 21,
// each heading once, the code's conditions titled "When it happens" and
// the record's own prose "Trigger scenarios".
func TestRecordPageOrder(t *testing.T) {
	d := pageOf(t, knowledgeServer(t), clientID)
	if h1 := strings.TrimSpace(d.Find("h1").Text()); h1 != "gizmo.ErrJammed" {
		t.Errorf("h1 = %q, want the qualified name", h1)
	}
	var ids []string
	d.Find("header.record-head #faces, article > section[id]").Each(func(_ int, s *goquery.Selection) {
		ids = append(ids, s.AttrOr("id", ""))
	})
	want := []string{"faces", "conditions", "triggers", "situations", "returned-by", "type-guard", "try-catch", "validation",
		"solutions", "example-fix", "prevention", "handled-at", "tests", "docs", "history", "raised", "source"}
	var got []string
	for _, id := range ids {
		if slicesContains(want, id) {
			got = append(got, id)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sections in order %v, want %v", got, want)
	}
	seen := map[string]bool{}
	d.Find("h2").Each(func(_ int, h *goquery.Selection) {
		title := strings.TrimSpace(h.Text())
		if seen[title] {
			t.Errorf("heading %q twice", title)
		}
		seen[title] = true
	})
	if got := strings.TrimSpace(d.Find("#conditions h2").Text()); got != "When it happens" {
		t.Errorf("conditions titled %q", got)
	}
	if got := strings.TrimSpace(d.Find("#triggers h2").Text()); got != "Trigger scenarios" {
		t.Errorf("trigger scenarios titled %q", got)
	}
	if got := d.Find(".surface").Text(); got != "Returned to callers of the package's API." {
		t.Errorf("surface = %q", got)
	}
	if d.Find("#docs").Text() == "" || !strings.Contains(d.Find("#docs").Text(), "The gizmo is jammed.") {
		t.Error("an extracted record's documentation is not under Documentation")
	}
	if !strings.Contains(d.Find("#tests .intro").Text(), "module's own tests") {
		t.Error("tests are not labelled as the module's own")
	}
}

func slicesContains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestRecordPageLinksAndFolds: every derived fact links to its line, and
// long lists show three with the rest folded under a count.
func TestRecordPageLinksAndFolds(t *testing.T) {
	r := knowledgeRecords()[0]
	d := pageOf(t, knowledgeServer(t), clientID)
	hrefs := map[string]bool{}
	d.Find("a[href]").Each(func(_ int, a *goquery.Selection) { hrefs[a.AttrOr("href", "")] = true })
	var urls []string
	for _, c := range r.Conditions {
		urls = append(urls, c.GithubURL, c.Guards[0].GithubURL, c.Settings[0].GithubURL, c.Settings[0].ConfigAt.GithubURL)
	}
	for _, e := range r.ReturnedBy {
		urls = append(urls, e.GithubURL, e.Chain[1].GithubURL)
	}
	for i := range r.HandledAt {
		urls = append(urls, r.HandledAt[i].GithubURL, r.Tests[i].GithubURL, r.Docs[i].GithubURL)
	}
	for _, u := range urls {
		if !hrefs[u] {
			t.Errorf("no link to %s", u)
		}
	}
	for _, id := range []string{"conditions", "returned-by", "handled-at", "tests", "docs"} {
		sec := d.Find("#" + id)
		open := sec.ChildrenFiltered("ul.facts-list").ChildrenFiltered("li").Length()
		folded := sec.ChildrenFiltered("details.more-facts").ChildrenFiltered("ul.facts-list").ChildrenFiltered("li").Length()
		if open != 3 || folded != 2 {
			t.Errorf("#%s: %d shown and %d folded, want 3 and 2", id, open, folded)
		}
		if got := strings.TrimSpace(sec.Find("details.more-facts summary").Text()); got != "2 more" {
			t.Errorf("#%s: summary %q", id, got)
		}
	}
	if got := d.Find("#conditions li code").First().Text(); got != "(*Gizmo).Spin1" {
		t.Errorf("first condition in %q", got)
	}
	if !strings.Contains(d.Find("#conditions").Text(), "max_load") {
		t.Error("the condition's config key is not shown")
	}
	if d.Find("#handled-at pre").Length() != 5 {
		t.Errorf("%d handling blocks quoted, want 5", d.Find("#handled-at pre").Length())
	}
}

// TestFacesBothWays: the client sentinel's faces box links to the
// server's page, and the server's links back, each naming its side.
func TestFacesBothWays(t *testing.T) {
	s := knowledgeServer(t)
	for _, tc := range []struct{ from, to, side, name string }{
		{clientID, serverID, "server", "server.GizmoJammedErr"},
		{serverID, clientID, "Go client", "gizmo.ErrJammed"},
	} {
		box := pageOf(t, s, tc.from).Find("header.record-head #faces")
		link := box.Find(`a[href="/errors/acme-labs/gizmo/` + tc.to + `"]`)
		if link.Length() != 1 || strings.TrimSpace(link.Text()) != tc.name {
			t.Errorf("%s: faces box %q lacks a link to %s named %s", tc.from, box.Text(), tc.to, tc.name)
		}
		if got := strings.TrimSpace(box.Find(".side").Text()); got != tc.side {
			t.Errorf("%s: side %q, want %q", tc.from, got, tc.side)
		}
		if box.Find(`a[href$="join.go#L12"]`).Length() != 1 {
			t.Errorf("%s: the fact joining the faces is not linked", tc.from)
		}
	}
}

// TestGuardOnlyWhereItReachesYou: a log-only error offers no guard; a
// server API error offers the client-side check, not the server's type.
func TestGuardOnlyWhereItReachesYou(t *testing.T) {
	s := knowledgeServer(t)
	logged := pageOf(t, s, logID)
	if logged.Find("#type-guard").Length() != 0 || strings.Contains(logged.Text(), "errors.Is(err, ErrHot)") {
		t.Error("a log-only error offers a Go guard")
	}
	if got := logged.Find(".surface").Text(); !strings.Contains(got, "writes this to its log") {
		t.Errorf("log surface = %q", got)
	}
	if h1 := strings.TrimSpace(logged.Find("h1").Text()); h1 != "GZ_HOT" {
		t.Errorf("an error without a qualified name is headed %q, want its code", h1)
	}
	if logged.Find("dl.facts .severity").Length() != 1 {
		t.Error("a logged error's severity, which its log call states, is hidden")
	}
	api := pageOf(t, s, serverID)
	check := api.Find("#type-guard").Text()
	for _, want := range []string{"errors.As(err, &apiErr) && apiErr.ErrorCode == " + strconv.Itoa(10071), "errors.Is(err, gizmo.ErrJammed)"} {
		if !strings.Contains(check, want) {
			t.Errorf("client-side check %q lacks %q", check, want)
		}
	}
	if strings.Contains(check, "server.ApiError") {
		t.Error("an API error page offers the server's ApiError guard")
	}
	if api.Find("dl.facts .severity").Length() != 0 {
		t.Error("an extracted error shows the extractor's default severity")
	}
}

// TestCuratedClaimsShowSources: each curated claim has its source, with
// the note, beneath it.
func TestCuratedClaimsShowSources(t *testing.T) {
	d := pageOf(t, knowledgeServer(t), curatedID)
	spin, manual := "https://github.com/acme-labs/gizmo/blob/v1.0.0/spin.go#L10", "https://example.com/manual#oil"
	var got [][]string
	d.Find("#documentation .claim").Each(func(_ int, c *goquery.Selection) {
		got = append(got, c.Find("ul.citations a").Map(func(_ int, a *goquery.Selection) string { return a.AttrOr("href", "") }))
	})
	if want := [][]string{{spin}, {manual}, {spin}}; !reflect.DeepEqual(got, want) {
		t.Errorf("documentation claims cite %v, want %v, each beneath its claim", got, want)
	}
	if got := d.Find("#solutions li ul.citations a").AttrOr("href", ""); got != manual {
		t.Errorf("solution cites %q, want %q", got, manual)
	}
	if got := d.Find("#solutions li ul.citations").Text(); !strings.Contains(got, "the manual on oiling") {
		t.Errorf("citation %q lacks the source's note", got)
	}
}

// TestTextAndMarkdownCarryThePageFacts: every GitHub line the HTML page
// links in its derived sections and faces is in the text/plain and the
// Markdown answers too.
func TestTextAndMarkdownCarryThePageFacts(t *testing.T) {
	s := knowledgeServer(t)
	for _, id := range []string{clientID, serverID, logID, curatedID} {
		d := pageOf(t, s, id)
		var links []string
		d.Find("header.record-head a[href^='https://github.com'], article > section:not(#source):not(#links):not(#related) a[href^='https://']").Each(func(_ int, a *goquery.Selection) {
			links = append(links, a.AttrOr("href", ""))
		})
		facts := d.Find("dl.facts dd").Map(func(_ int, s *goquery.Selection) string { return strings.TrimSpace(s.Text()) })
		guard := d.Find("#type-guard pre").Text()
		text := get(t, s, "/errors/acme-labs/gizmo/"+id, "Accept", "text/plain").Body.String()
		md := get(t, s, "/errors/acme-labs/gizmo/"+id+"?format=markdown").Body.String()
		plainMD := regexp.MustCompile(`\\([[:punct:]])`).ReplaceAllString(md, "$1")
		for name, out := range map[string]string{"text": text, "markdown": plainMD} {
			for _, l := range links {
				if !strings.Contains(out, l) {
					t.Errorf("%s %s lacks the page's link %s", id, name, l)
				}
			}
			for _, f := range facts[1:] { // the project is in the headline
				if !strings.Contains(out, f) {
					t.Errorf("%s %s lacks the fact %q", id, name, f)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(guard), "\n") {
				if !strings.Contains(out, strings.TrimSpace(line)) {
					t.Errorf("%s %s lacks the guard line %q", id, name, line)
				}
			}
		}
	}
}

// TestAPIServesTheNewFields: the JSON API gives back every new field of a
// record as the dataset file holds it.
func TestAPIServesTheNewFields(t *testing.T) {
	s := knowledgeServer(t)
	for _, r := range knowledgeRecords() {
		resp := fetch(t, s, "/api/v1/errors/acme-labs/gizmo/"+r.ID)
		var got map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(errkbtest.Bare(r), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got["record"], want) {
			t.Errorf("%s: the API's record differs from the file's", r.ID)
		}
		if r.ID == clientID {
			rec := got["record"].(map[string]any)
			for _, k := range []string{"qualifiedName", "aliases", "surface", "faces", "conditions", "returnedBy", "handledAt", "tests", "docs", "history"} {
				if rec[k] == nil {
					t.Errorf("the API lacks %s", k)
				}
			}
		}
	}
}

// TestListsShowNamesAndStatedSeverity: search results head each record
// with its qualified name, and show a severity only where the source
// states one.
func TestListsShowNamesAndStatedSeverity(t *testing.T) {
	d := doc(t, fetch(t, knowledgeServer(t), "/search?q=gizmo"))
	found := map[string]bool{}
	d.Find("ol.records li").Each(func(_ int, li *goquery.Selection) {
		code := strings.TrimSpace(li.Find("a.code").Text())
		found[code] = true
		sev := li.Find(".severity").Length() == 1
		if want := code == "GZ_HOT" || code == "GZ_JAMMED"; sev != want { // the logged one and the curated one
			t.Errorf("%s: severity shown = %v, want %v", code, sev, want)
		}
	})
	for _, name := range []string{"gizmo.ErrJammed", "server.GizmoJammedErr"} {
		if !found[name] {
			t.Errorf("no result headed %s in %v", name, found)
		}
	}
}

// BenchmarkRecordViewKnowledge is the one-off cost of the page of a
// record with every derived field, five entries each.
func BenchmarkRecordViewKnowledge(b *testing.B) {
	s := New(errkbtest.Dataset(b, knowledgeRecords()...), Config{})
	r, _ := s.ds.ByID(clientID)
	for b.Loop() {
		s.recordView(context.Background(), r)
	}
}
