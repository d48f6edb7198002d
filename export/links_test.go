package export

import (
	"github.com/errkb/errkb/web"
	"reflect"
	"testing"
)

func TestFileFor(t *testing.T) {
	for _, tc := range []struct {
		path, file string
		page       bool
	}{
		{"/", "index.html", true},
		{"/errors", "errors/index.html", true},
		{"/errors/acme-labs/widgetd/queue-full", "errors/acme-labs/widgetd/queue-full/index.html", true},
		{"/errors/acme-labs/lib.js", "errors/acme-labs/lib.js/index.html", true}, // a dot does not make a file
		{"/tags/two%20words", "tags/two words/index.html", true},
		{"/static/style.abc.css", "static/style.abc.css", false},
		{"/api/v1/errors/a/b/c", "api/v1/errors/a/b/c", false},
		{"/sitemap.xml", "sitemap.xml", false},
		{"/sitemap-2.xml", "sitemap-2.xml", false},
		{"/favicon.ico", "favicon.ico", false},
	} {
		file, page := site(web.Routes()).fileFor(tc.path)
		if file != tc.file || page != tc.page {
			t.Errorf("fileFor(%q) = %q, %v; want %q, %v", tc.path, file, page, tc.file, tc.page)
		}
	}
}

func TestRelativize(t *testing.T) {
	in := `<a href="/">home</a><a href="/errors/a/b">p</a><link href="/static/s.css">` +
		`<form action="/search"><a href="/search?q=x&amp;tag=y">s</a><a href="#L3">l</a>` +
		`<a href="https://github.com/a/b">gh</a><a href="//cdn.example/x">cdn</a><a href="/errors/a/b#top">t</a>`
	for _, tc := range []struct {
		depth int
		want  string
	}{
		{0, `<a href="./">home</a><a href="errors/a/b/">p</a><link href="static/s.css">` +
			`<form action="search/"><a href="search/?q=x&amp;tag=y">s</a><a href="#L3">l</a>` +
			`<a href="https://github.com/a/b">gh</a><a href="//cdn.example/x">cdn</a><a href="errors/a/b/#top">t</a>`},
		{2, `<a href="../../">home</a><a href="../../errors/a/b/">p</a><link href="../../static/s.css">` +
			`<form action="../../search/"><a href="../../search/?q=x&amp;tag=y">s</a><a href="#L3">l</a>` +
			`<a href="https://github.com/a/b">gh</a><a href="//cdn.example/x">cdn</a><a href="../../errors/a/b/#top">t</a>`},
	} {
		if got := string(site(web.Routes()).relativize([]byte(in), tc.depth)); got != tc.want {
			t.Errorf("depth %d:\n got %s\nwant %s", tc.depth, got, tc.want)
		}
	}
	if got := string(site(web.Routes()).absolutize([]byte(`<a href="/errors/a">x</a><link href="/static/s.css">`), "/kb")); got != `<a href="/kb/errors/a/">x</a><link href="/kb/static/s.css">` {
		t.Errorf("absolutize: %s", got)
	}
}

func TestSiteLinks(t *testing.T) {
	got := siteLinks([]byte(`<a href="/errors/a?x=1">a</a> <a href="/search?q=b&amp;c">b</a> <a href="#x">c</a> <img src="/static/i.svg"> <a href="//x.example/">d</a>`))
	want := []string{"/errors/a", "/search", "/static/i.svg"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("siteLinks = %q, want %q", got, want)
	}
}

func TestDepth(t *testing.T) {
	for p, want := range map[string]int{"/": 0, "/errors": 1, "/errors/a/b/c": 4, "/search": 1} {
		if got := depth(p); got != want {
			t.Errorf("depth(%q) = %d, want %d", p, got, want)
		}
	}
}
