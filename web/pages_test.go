package web

import (
	"bytes"
	"context"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var hashedRE = regexp.MustCompile(`/static/(style|app|favicon)\.[0-9a-f]{10}\.(css|js|svg)`)

// TestStaticAssets: pages link content-hashed files that are cached for a
// year; plain names still work with a short cache; a changed file gets a
// new name.
func TestStaticAssets(t *testing.T) {
	s := newPagesServer(t, false, Config{})
	page := get(t, s, seedPath).Body.String()
	urls := hashedRE.FindAllString(page, -1)
	if len(urls) != 3 {
		t.Fatalf("page links %d hashed assets, want style, app and favicon: %v", len(urls), urls)
	}
	for _, u := range urls {
		rec := get(t, s, u)
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != immutableCache {
			t.Errorf("GET %s: %d, Cache-Control %q", u, rec.Code, rec.Header().Get("Cache-Control"))
		}
		if etag := rec.Header().Get("ETag"); get(t, s, u, "If-None-Match", etag).Code != http.StatusNotModified {
			t.Errorf("GET %s with If-None-Match %s: not 304", u, etag)
		}
	}
	for _, tc := range []struct {
		path, ctype, cache string
		status             int
	}{
		{"/static/style.css", "text/css; charset=utf-8", plainCache, http.StatusOK},
		{"/static/app.js", "text/javascript; charset=utf-8", plainCache, http.StatusOK},
		{"/favicon.ico", "image/svg+xml", "public, max-age=86400", http.StatusOK},
		{"/static/style.0000000000.css", "", "", http.StatusNotFound},
		{"/static/../server.go", "", "", http.StatusNotFound},
	} {
		rec := get(t, s, tc.path)
		if rec.Code != tc.status {
			t.Errorf("GET %s: status %d, want %d", tc.path, rec.Code, tc.status)
			continue
		}
		if tc.status == http.StatusOK && (rec.Header().Get("Content-Type") != tc.ctype || rec.Header().Get("Cache-Control") != tc.cache) {
			t.Errorf("GET %s: Content-Type %q, Cache-Control %q", tc.path, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
		}
	}
	css := get(t, s, "/static/style.css").Body.String()
	if !strings.Contains(css, ".chroma .k {") || !strings.Contains(css, "prefers-color-scheme: dark") {
		t.Error("the stylesheet lacks the highlighting rules")
	}
	a := &assets{byName: map[string]*asset{}, plain: map[string]*asset{}}
	a.add("x.css", []byte("a"))
	first := a.URL("x.css")
	a.add("x.css", []byte("b"))
	if a.URL("x.css") == first {
		t.Error("changed content kept its hashed name")
	}
}

// TestDiscoveryFiles: robots.txt, the sitemap and the OpenSearch
// description use --base-url for absolute links, or the request's host.
func TestDiscoveryFiles(t *testing.T) {
	for _, tc := range []struct {
		base  string
		hosts []string
		host  string
		want  string
	}{
		{"https://errkb.example.com", nil, "ignored.example", "https://errkb.example.com"},
		{"", []string{"127.0.0.1:8080"}, "127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"", []string{"errkb.internal", "127.0.0.1:8080"}, "127.0.0.1:8080", "http://127.0.0.1:8080"},
		// A Host that is not configured is never shown: the first one is.
		{"", []string{"errkb.internal", "127.0.0.1:8080"}, "evil.example", "http://errkb.internal"},
		{"", nil, "evil.example", "http://" + DefaultHost},
	} {
		s := newPagesServer(t, false, Config{BaseURL: tc.base, Hosts: tc.hosts})
		req := func(p string) string {
			r := httptest.NewRequest(http.MethodGet, p, nil)
			r.Host = tc.host
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, r)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET %s: %d", p, rec.Code)
			}
			return rec.Body.String()
		}
		if robots := req("/robots.txt"); !strings.Contains(robots, "Sitemap: "+tc.want+"/sitemap.xml") || !strings.Contains(robots, "Disallow: /search") {
			t.Errorf("robots.txt:\n%s", robots)
		}
		var set urlSet
		if err := xml.Unmarshal([]byte(req("/sitemap.xml")), &set); err != nil {
			t.Fatal(err)
		}
		locs := map[string]bool{}
		for _, u := range set.URLs {
			locs[u.Loc] = true
		}
		for _, p := range []string{"/", "/errors", seedPath, quorumPath, hostilePath, "/errors/fictional-org/quuxdb", "/tags/quorum"} {
			if !locs[tc.want+p] {
				t.Errorf("sitemap lacks %s%s", tc.want, p)
			}
		}
		var os openSearchDesc
		if err := xml.Unmarshal([]byte(req("/opensearch.xml")), &os); err != nil {
			t.Fatal(err)
		}
		if os.ShortName != "errkb" || len(os.URLs) == 0 || os.URLs[0].Template != tc.want+"/search?q={searchTerms}" {
			t.Errorf("opensearch: %+v", os)
		}
	}
	s := newPagesServer(t, false, Config{BaseURL: "https://e.example"})
	if rec := get(t, s, "/sitemap-1.xml"); rec.Code != http.StatusNotFound {
		t.Errorf("a small site has no sitemap parts; /sitemap-1.xml gave %d", rec.Code)
	}
	// A site with more pages than one sitemap holds gets an index of parts
	// that together list every page once.
	s.sitemapMax = 4
	var idx sitemapIndex
	if err := xml.Unmarshal(get(t, s, "/sitemap.xml").Body.Bytes(), &idx); err != nil {
		t.Fatal(err)
	}
	total := len(s.sitemapPaths())
	if want := (total + 3) / 4; len(idx.Sitemaps) != want {
		t.Fatalf("sitemap index has %d parts for %d pages, want %d", len(idx.Sitemaps), total, want)
	}
	seen := map[string]bool{}
	for _, sm := range idx.Sitemaps {
		rec := get(t, s, strings.TrimPrefix(sm.Loc, "https://e.example"))
		var part urlSet
		if err := xml.Unmarshal(rec.Body.Bytes(), &part); rec.Code != http.StatusOK || err != nil || len(part.URLs) > 4 {
			t.Fatalf("%s: status %d, %v, %d URLs", sm.Loc, rec.Code, err, len(part.URLs))
		}
		for _, u := range part.URLs {
			seen[u.Loc] = true
		}
	}
	if len(seen) != total {
		t.Errorf("parts list %d distinct pages, want %d", len(seen), total)
	}
	if rec := get(t, s, "/sitemap-99.xml"); rec.Code != http.StatusNotFound {
		t.Errorf("/sitemap-99.xml gave %d", rec.Code)
	}
	if page := get(t, s, "/").Body.String(); !strings.Contains(page, `rel="search" type="application/opensearchdescription+xml"`) {
		t.Error("pages do not link the OpenSearch description")
	}
}

// TestRecordPageSafe parses the page of the record holding an injection in
// every field: no script but the site's own, no event handler attribute, no
// link with a dangerous scheme, no inline style.
func TestRecordPageSafe(t *testing.T) {
	s := newPagesServer(t, true, Config{})
	for _, path := range []string{hostilePath, "/tags/%3Cimg%20src=x%20onerror=window.__pwned=29%3E", "/search?q=pwned", "/"} {
		rec := get(t, s, path)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		doc, err := html.Parse(bytes.NewReader(rec.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		scripts := 0
		for n := range doc.Descendants() {
			if n.Type != html.ElementNode {
				continue
			}
			switch n.Data {
			case "script":
				scripts++
				if src := attr(n, "src"); !hashedRE.MatchString(src) {
					t.Errorf("%s: foreign script src=%q", path, src)
				}
			case "style", "iframe", "object", "embed", "svg", "textarea", "form", "img", "details":
				if n.Data != "form" || attr(n, "role") != "search" {
					if n.Data != "img" || attr(n, "src") != "" { // goldmark's img with its data: URL dropped
						t.Errorf("%s: injected <%s>", path, n.Data)
					}
				}
			}
			for _, a := range n.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				switch {
				case strings.HasPrefix(a.Key, "on"):
					t.Errorf("%s: event handler %s=%q on <%s>", path, a.Key, a.Val, n.Data)
				case a.Key == "style":
					t.Errorf("%s: inline style on <%s>", path, n.Data)
				case (a.Key == "href" || a.Key == "src" || a.Key == "action") &&
					(strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:") || strings.HasPrefix(v, "data:")):
					t.Errorf("%s: %s=%q on <%s>", path, a.Key, a.Val, n.Data)
				}
			}
		}
		if scripts != 1 {
			t.Errorf("%s: %d scripts, want the site's one", path, scripts)
		}
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestRecordPage checks what a reader relies on in the seed record's page.
func TestRecordPage(t *testing.T) {
	s := newPagesServer(t, true, Config{BaseURL: "https://errkb.example.com"})
	body := get(t, s, seedPath).Body.String()
	for _, want := range []string{
		`id="L4979" class="line error-line"`,
		`href="https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go#L4961"`,
		`<a class="range" href="https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go#L4961-L4997">lines 4961–4997 on GitHub</a>`,
		`href="https://github.com/nats-io/nats-server/commit/3a66a489d262bf89b71a71c955c94920394532f3"><code>3a66a489d262</code>`,
		`<time datetime="2026-09-02">2026-09-02</time>`,
		`<code class="stable-url">https://errkb.example.com/errors/nats-io/nats-server/js-consumer-offline</code>`,
		`<code class="lookup-url">https://errkb.example.com/lookup?q=JS_CONSUMER_OFFLINE</code>`,
		`<span class="lang">Go</span>`,
		`<link rel="canonical" href="https://errkb.example.com/errors/nats-io/nats-server/js-consumer-offline">`,
		`<li aria-current="page">JS_CONSUMER_OFFLINE</li>`,
		`<code>nats consumer info &lt;stream&gt; &lt;consumer&gt;</code>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("seed page lacks %s", want)
		}
	}
	for _, id := range []string{"documentation", "triggers", "situations", "solutions", "example-fix", "validation", "type-guard", "try-catch", "prevention", "source", "tags", "related", "links"} {
		if !strings.Contains(body, `<section id="`+id+`"`) || !strings.Contains(body, `<a class="anchor" href="#`+id+`">`) {
			t.Errorf("no linked section #%s", id)
		}
	}
	if n := strings.Count(body, `<a class="ln" href="https://github.com/nats-io/nats-server/blob/3a66a489d262bf89b71a71c955c94920394532f3/server/jetstream_api.go#L`); n != 37 {
		t.Errorf("%d line links, want 37", n)
	}
}

// TestRelated: records sharing tags come first, the same project counts,
// and the record itself is never listed. Without the index, so that search
// ranking does not change the order; with it, similar messages may join.
func TestRelated(t *testing.T) {
	for _, withSearch := range []bool{false, true} {
		s := newPagesServer(t, withSearch, Config{})
		r, _ := s.ds.ByPath("fictional-org/quuxdb", "replica-quorum-lost")
		got := s.related(context.Background(), r, maxRelated)
		seen := map[string]string{}
		for _, it := range got {
			if it.URL == quorumPath {
				t.Error("a record is related to itself")
			}
			seen[it.URL] = it.Note
		}
		// The seed shares "cluster" and "quorum"; write-timeout shares
		// "replication" and the project; the hostile record shares nothing.
		if !strings.Contains(strings.ToLower(seen[seedPath]), "tags cluster, quorum") {
			t.Errorf("search %v: seed note %q", withSearch, seen[seedPath])
		}
		if !strings.HasPrefix(seen[timeoutPath], "Same project") || !strings.Contains(seen[timeoutPath], "tag replication") {
			t.Errorf("search %v: write-timeout note %q", withSearch, seen[timeoutPath])
		}
		if !withSearch {
			if len(got) != 2 || got[0].URL != seedPath {
				t.Errorf("related = %+v, want the seed (two shared tags), then write-timeout", got)
			}
		}
	}
}

// TestRecordPageCachedOnceReady: a record page (Markdown, highlighting,
// related errors) is rendered once and kept, but not before the index is
// ready, when it still lacks the related errors search finds.
func TestRecordPageCachedOnceReady(t *testing.T) {
	const key = "http://" + DefaultHost + seedPath // no --base-url, no hosts
	s := newPagesServer(t, false, Config{})
	get(t, s, seedPath)
	if s.responses.Get(key) != nil {
		t.Error("a page rendered before the index is ready was cached")
	}
	s2 := newPagesServer(t, true, Config{})
	first := get(t, s2, seedPath)
	if s2.responses.Get(key) == nil {
		t.Fatal("the page is not cached once the index is ready")
	}
	if second := get(t, s2, seedPath); second.Body.String() != first.Body.String() {
		t.Error("the cached page differs from the rendered one")
	}
}

// BenchmarkRecordView is the one-off cost of a record page: Markdown,
// highlighting, related errors.
func BenchmarkRecordView(b *testing.B) {
	s := newPagesServer(b, true, Config{})
	r, _ := s.ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	for b.Loop() {
		s.recordView(context.Background(), r)
	}
}

// BenchmarkRecordPageCached is a record page once its view is cached.
func BenchmarkRecordPageCached(b *testing.B) {
	s := newPagesServer(b, true, Config{})
	req := httptest.NewRequest(http.MethodGet, seedPath, nil)
	for b.Loop() {
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
}
