package web

import (
	"context"
	"encoding/json"
	"github.com/errkb/errkb/web/siteurl"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/internal/errkbtest"
)

// testServer serves the seed record and testdata/basic with a real
// in-memory index.
func testServer(t testing.TB) *Server {
	t.Helper()
	ds := errkbtest.Load(t, errkbtest.SeedFolder(), errkb.Folder{Name: "basic", FS: os.DirFS("../testdata/basic")})
	return readyServer(t, ds, Config{})
}

func doc(t testing.TB, resp *http.Response) *goquery.Document {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRecordPageSections(t *testing.T) {
	s := testServer(t)
	resp := fetch(t, s, seedPath)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q", ct)
	}
	d := doc(t, resp)
	checks := []struct{ sel, want string }{
		{"h1", "JS_CONSUMER_OFFLINE"},
		{"header .message", "consumer is offline"},
		{"#documentation", "offlineReason set"},
		{"#triggers", "raft group has no quorum"},
		{"#situations", "rolling downgrade"},
		{"#solutions li", "Restore quorum"},
		{"#example-fix code", "js.AddConsumer"},
		{"#validation code", "js.ConsumerInfo"},
		{"#type-guard code", "func isConsumerOfflineErr"},
		{"#try-catch code", "js.UpdateConsumer"},
		{"#prevention li", "Ensure cluster quorum"},
		{"#tags a", "jetstream"},
		{"dl.facts", "JSConsumerOfflineReasonError"},
		{"#source .where", "server/jetstream_api.go"},
		{".lookup-url", "/lookup?q=JS_CONSUMER_OFFLINE"},
	}
	for _, c := range checks {
		if got := d.Find(c.sel).Text(); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q does not contain %q", c.sel, got, c.want)
		}
	}
	// Solutions are Markdown: the inline code span becomes <code>.
	if d.Find("#solutions code").Length() == 0 {
		t.Error("Markdown in solutions not rendered")
	}

	lines := d.Find("#source .line")
	if lines.Length() != 4997-4961+1 {
		t.Fatalf("snippet shows %d lines, want 37", lines.Length())
	}
	const blob = "https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go"
	first := lines.First()
	if id, _ := first.Attr("id"); id != "L4961" {
		t.Errorf("first line id %q, want L4961", id)
	}
	if href, _ := first.Find("a.ln").Attr("href"); href != blob+"#L4961" {
		t.Errorf("first line links to %q", href)
	}
	errLine := d.Find("#source .error-line")
	if errLine.Length() != 1 {
		t.Fatalf("%d error lines marked, want 1", errLine.Length())
	}
	if id, _ := errLine.Attr("id"); id != "L4979" || !strings.Contains(errLine.Text(), "NewJSConsumerOfflineReasonError") {
		t.Errorf("error line is %q: %q", id, errLine.Text())
	}
	if href, _ := d.Find("#source a.range").Attr("href"); href != blob+"#L4961-L4997" {
		t.Errorf("range link %q", href)
	}
}

// TestRecordPageShowsTextNotMarkup checks a record whose fields hold HTML:
// placeholders like <stream> are shown, scripts never run.
func TestRecordPageShowsTextNotMarkup(t *testing.T) {
	s := testServer(t)
	resp := fetch(t, s, "/errors/acme-labs/widgetd/hostile-text")
	d := doc(t, resp)
	d.Find("script").Each(func(_ int, el *goquery.Selection) {
		if src, _ := el.Attr("src"); !strings.HasPrefix(src, "/static/") || strings.TrimSpace(el.Text()) != "" {
			t.Errorf("page has a script that is not the site's own: src %q, text %q", src, el.Text())
		}
	})
	d.Find("*").Each(func(_ int, el *goquery.Selection) {
		for _, a := range el.Nodes[0].Attr {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(a.Key, "on") || strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "data:") {
				t.Errorf("element <%s> has %s=%q", el.Nodes[0].Data, a.Key, a.Val)
			}
		}
	})
	if got := d.Find("#documentation").Text(); !strings.Contains(got, "Names like <stream> are placeholders") {
		t.Errorf("documentation text lost the placeholder: %q", got)
	}
	if got := d.Find("h1 + .message").Text(); !strings.Contains(got, "<script>alert(1)</script>") {
		t.Errorf("message not shown as text: %q", got)
	}
	if got := d.Find("#source").Text(); !strings.Contains(got, "</code></pre><script>") {
		t.Errorf("snippet not shown as text: %q", got)
	}
}

func TestAPIRecordServesEveryField(t *testing.T) {
	s := testServer(t)
	queueFull, err := os.ReadFile("../testdata/basic/acme-labs/queue-full.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		file []byte
	}{
		{"/api/v1/errors/nats-io/nats-server/js-consumer-offline", errkbtest.SeedJSON()},
		{"/api/v1/errors/acme-labs/widgetd/queue-full", queueFull},
	} {
		resp := fetch(t, s, tc.path)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("%s: status %d, type %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var got, want map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(tc.file, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got["record"], want["record"]) {
			t.Errorf("%s: record differs from the dataset file", tc.path)
		}
		if got["datasetVersion"] != want["datasetVersion"] {
			t.Errorf("%s: datasetVersion %v, want %v", tc.path, got["datasetVersion"], want["datasetVersion"])
		}
		if !strings.HasPrefix(got["url"].(string), "/errors/") {
			t.Errorf("%s: url %v", tc.path, got["url"])
		}
	}
}

func TestLookupRedirect(t *testing.T) {
	s := testServer(t)
	tests := []struct{ q, location string }{
		{"JS_CONSUMER_OFFLINE", seedPath},
		{"js-consumer-offline", seedPath},
		{"dabd815d1877efcd", seedPath},
		{"JSConsumerOfflineReasonError", seedPath},
		{"[7] 2026/11/02 09:14:07 [ERR] consumer is offline", seedPath},
		{"WD_TIMEOUT", "/search?q=WD_TIMEOUT"},
		{"", "/search?q="},
	}
	for _, tt := range tests {
		resp := fetch(t, s, siteurl.Lookup(tt.q))
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != tt.location {
			t.Errorf("lookup %q: %d to %q, want 303 to %q", tt.q, resp.StatusCode, resp.Header.Get("Location"), tt.location)
		}
	}
}

func TestAPILookup(t *testing.T) {
	s := testServer(t)
	var res struct {
		Query        string
		Match        *struct{ Record map[string]any }
		Alternatives []APIHit
	}
	resp := fetch(t, s, "/api/v1/lookup?q=WD_TIMEOUT")
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatal(err)
	}
	if res.Match != nil || len(res.Alternatives) != 2 {
		t.Errorf("shared code: match %v, %d alternatives; want null and both records", res.Match, len(res.Alternatives))
	}
	resp = fetch(t, s, "/api/v1/lookup?q=wd_queue_full")
	res.Match = nil
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatal(err)
	}
	if res.Match == nil || res.Match.Record["id"] != "a1c3e5f7a9b1c3d5" || res.Query != "wd_queue_full" {
		t.Errorf("code lookup: %+v", res)
	}
}

func TestAPISearch(t *testing.T) {
	s := testServer(t)
	resp := fetch(t, s, "/api/v1/search?q=timed+out&limit=1")
	var res SearchResponse
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		t.Fatal(err)
	}
	if res.Total != 2 || len(res.Hits) != 1 {
		t.Fatalf("total %d, %d hits; want 2 and 1", res.Total, len(res.Hits))
	}
	h := res.Hits[0]
	if h.Repo != "acme-labs/widgetd" || h.URL != "/errors/acme-labs/widgetd/"+h.Slug || h.Score <= 0 {
		t.Errorf("hit %+v", h)
	}
	if res.Facets["repo"]["acme-labs/widgetd"] != 2 || res.Facets["tag"]["timeout"] != 2 {
		t.Errorf("facets %v", res.Facets)
	}
}

func TestErrorsAnswerWithStatus(t *testing.T) {
	s := testServer(t)
	tests := []struct {
		path   string
		status int
		json   bool
	}{
		{"/api/v1/errors/nats-io/nats-server/no-such", 404, true},
		{"/api/v1/search?limit=0", 400, true},
		{"/api/v1/search?limit=abc", 400, true},
		{"/api/v1/search?offset=-1", 400, true},
		{"/api/v1/search?q=" + strings.Repeat("a", 9000), 400, true},
		{"/api/v1/nothing", 404, true},
		{"/errors/nats-io/nats-server/no-such", 404, false},
		{"/errors/nobody/nothing", 404, false},
		{"/tags/no-such-tag", 404, false},
		{"/search?page=0", 400, false},
		{"/no/such/page", 404, false},
	}
	for _, tt := range tests {
		resp := fetch(t, s, tt.path)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if tt.json {
			var e struct {
				Error struct{ Code, Message string }
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Errorf("%s: not a JSON error: %s", tt.path, body)
			}
			continue
		}
		d, _ := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
		if d.Find("form[action='/search'] input[name=q]").Length() == 0 {
			t.Errorf("%s: error page has no search box", tt.path)
		}
	}
}

func TestNotFoundSuggests(t *testing.T) {
	s := testServer(t)
	d := doc(t, fetch(t, s, "/errors/nats-io/nats-server/consumer-offline"))
	if href, _ := d.Find("ol.records a.code").First().Attr("href"); href != seedPath {
		t.Errorf("404 suggestion %q, want %q", href, seedPath)
	}
}

func TestLinksSurviveSlashesAndCase(t *testing.T) {
	s := testServer(t)
	tests := []struct{ path, location string }{
		{seedPath + "/", seedPath},
		{"/errors/NATS-IO/Nats-Server/js-consumer-offline", seedPath},
		{"/errors/NATS-IO/nats-server", "/errors/nats-io/nats-server"},
		{"//evil.example/", "/evil.example"},
	}
	for _, tt := range tests {
		resp := fetch(t, s, tt.path)
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != tt.location {
			t.Errorf("%s: %d to %q, want 301 to %q", tt.path, resp.StatusCode, resp.Header.Get("Location"), tt.location)
		}
	}
	if resp := fetch(t, s, "/api/v1/errors/NATS-IO/nats-server/js-consumer-offline"); resp.StatusCode != 200 {
		t.Errorf("API with other case: %d", resp.StatusCode)
	}
}

func TestListPages(t *testing.T) {
	s := testServer(t)
	tests := []struct {
		path, sel string
		want      []string
	}{
		{"/", "ul.project-list a", []string{"acme-labs/widgetd", "nats-io/nats-server"}},
		{"/", "ul.links a", []string{"timeout"}},
		{"/errors", "ul.project-list a", []string{"acme-labs/widgetd", "nats-io/nats-server"}},
		{"/errors/acme-labs/widgetd", "table.errors td.col-code a", []string{"WD_TIMEOUT", "WD_QUEUE_FULL", "WD_HOSTILE"}},
		{"/tags/timeout", "ol.records .message", []string{"timed out dialing", "timed out flushing"}},
		{"/search?q=consumer+offline", "ol.records a.code", []string{"JS_CONSUMER_OFFLINE"}},
		{"/search?q=timed+out&tag=disk", "ol.records .message", []string{"timed out flushing"}},
	}
	for _, tt := range tests {
		resp := fetch(t, s, tt.path)
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d", tt.path, resp.StatusCode)
			continue
		}
		text := doc(t, resp).Find(tt.sel).Text()
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %s lacks %q (have %q)", tt.path, tt.sel, w, text)
			}
		}
	}
}

func TestReadiness(t *testing.T) {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	s := New(ds, Config{})
	if resp := fetch(t, s, "/healthz"); resp.StatusCode != 200 {
		t.Errorf("healthz before index: %d", resp.StatusCode)
	}
	if resp := fetch(t, s, "/readyz"); resp.StatusCode != 503 {
		t.Errorf("readyz before index: %d, want 503", resp.StatusCode)
	}
	if resp := fetch(t, s, "/api/v1/search?q=x"); resp.StatusCode != 503 {
		t.Errorf("search before index: %d, want 503", resp.StatusCode)
	}
	if resp := fetch(t, s, seedPath); resp.StatusCode != 200 {
		t.Errorf("record page before index: %d, want 200", resp.StatusCode)
	}
	ix, err := index.Build(context.Background(), ds, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	s.SetSearcher(ix)
	if resp := fetch(t, s, "/readyz"); resp.StatusCode != 200 {
		t.Errorf("readyz after index: %d", resp.StatusCode)
	}
}

func TestOpenAPI(t *testing.T) {
	s := testServer(t)
	var spec struct {
		OpenAPI string
		Paths   map[string]any
	}
	if err := json.NewDecoder(fetch(t, s, "/api/v1/openapi.json").Body).Decode(&spec); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/v1/errors/{owner}/{repo}/{slug}", "/api/v1/lookup", "/api/v1/search"} {
		if _, ok := spec.Paths[p]; !ok || !strings.HasPrefix(spec.OpenAPI, "3.") {
			t.Errorf("openapi lacks %s (version %q)", p, spec.OpenAPI)
		}
	}
}

func TestHead(t *testing.T) {
	s := testServer(t)
	for _, p := range []string{"/healthz", seedPath, "/api/v1/search?q=x"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, p, nil))
		if rec.Code != 200 {
			t.Errorf("HEAD %s: %d", p, rec.Code)
		}
	}
}

// TestRecordPageWithoutCodeLinksItsMessage: an error made in a function
// has no code of its own, so the page's lookup link asks for its message.
func TestRecordPageWithoutCodeLinksItsMessage(t *testing.T) {
	s := newTestServer(t, Config{}) // the embedded dataset
	resp := fetch(t, s, "/errors/nats-io/nats-server/qos-2-is-disabled-for-publish")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	got := doc(t, resp).Find(".lookup-url").Text()
	if want := "/lookup?q=QoS%3D2+is+disabled+for+PUBLISH+messages"; !strings.HasSuffix(got, want) {
		t.Errorf("lookup link %q, want it to end %q", got, want)
	}
}

// TestShippedPagesSayHowYouMeetThem checks, on the embedded dataset, what
// issue 20 asks of two pages: the qos-2 MQTT error is logged and the
// client dropped, with the call that closes the connection linked and no
// Go guard; the seed shows its err_code and HTTP status, and where the
// code has moved since it was written, both places.
func TestShippedPagesSayHowYouMeetThem(t *testing.T) {
	s := newTestServer(t, Config{})
	for _, tt := range []struct {
		path          string
		want, wantNot []string
	}{
		{"/errors/nats-io/nats-server/qos-2-is-disabled-for-publish",
			[]string{"writes this to its log and closes the connection", "(*client).closeConnection", "https://github.com/nats-io/nats-server/blob/v2.15.3/server/client.go#L"},
			[]string{`id="type-guard"`}},
		{seedPath,
			[]string{"10119", "500", "Where the code differs", "server/jetstream_api.go line 4979", "server/jetstream_errors_generated.go"},
			nil},
	} {
		resp := fetch(t, s, tt.path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", tt.path, resp.StatusCode)
		}
		html, _ := doc(t, resp).Html()
		html = strings.ReplaceAll(html, "&#34;", `"`)
		for _, w := range tt.want {
			if !strings.Contains(html, w) {
				t.Errorf("%s lacks %q", tt.path, w)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(html, w) {
				t.Errorf("%s has %q", tt.path, w)
			}
		}
	}
}

// TestLookupOfALogLineShowsTheErrorItWraps: a pasted log line that wraps
// an error sends the browser to the log line's page, which names the
// wrapped error with a link (issue 23: "shows both").
func TestLookupOfALogLineShowsTheErrorItWraps(t *testing.T) {
	s := newTestServer(t, Config{})
	const q = "[WRN] Consumer create failed for 'ACC > ORDERS > proc': insufficient resources"
	res := get(t, s, "/lookup?q="+url.QueryEscape(q))
	if res.Code != http.StatusSeeOther {
		t.Fatalf("status %d, want 303", res.Code)
	}
	loc := res.Header().Get("Location")
	path, wraps, ok := strings.Cut(loc, "?wraps=")
	if !ok {
		t.Fatalf("redirect to %s names no wrapped error", loc)
	}
	w, found := s.ds.ByID(wraps)
	if !found || w.ErrorMessage != "insufficient resources" {
		t.Fatalf("wraps %q: %+v", wraps, w)
	}
	page := get(t, s, loc)
	if page.Code != http.StatusOK {
		t.Fatalf("%s: %d", loc, page.Code)
	}
	body := page.Body.String()
	if !strings.Contains(body, `class="wraps"`) || !strings.Contains(body, `href="`+recordURL(w)+`"`) {
		t.Errorf("the page %s does not link the wrapped error %s", path, recordURL(w))
	}
	if plain := get(t, s, path); strings.Contains(plain.Body.String(), `class="wraps"`) {
		t.Error("the page without ?wraps names a wrapped error")
	}
}
