package main

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/errkb/errkb/internal/kbgen"
)

// TestServeBrowseAtScale: the binary serving 3,000 generated records over
// 420 projects lists the 50 largest on the home page with a link to all
// of them, lists all 420 on /errors, and filters a project page through
// ?q= for readers without JavaScript.
func TestServeBrowseAtScale(t *testing.T) {
	data := t.TempDir()
	if err := kbgen.Write(data, 3000, 1); err != nil {
		t.Fatal(err)
	}
	base := startServer(t, "--dataset", data)
	page := func(path string) *goquery.Document {
		t.Helper()
		resp, body := fetch(t, base+path)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	home := page("/")
	if n := home.Find("ul.project-list li").Length(); n != 50 {
		t.Errorf("home lists %d projects, want 50", n)
	}
	if more := home.Find(`p.more a[href="/errors"]`).Text(); !strings.Contains(more, "420 projects") {
		t.Errorf("home's link to all projects reads %q", more)
	}
	if n := page("/errors").Find("ul.project-list li").Length(); n != 420 {
		t.Errorf("/errors lists %d projects, want 420", n)
	}

	project := home.Find("ul.project-list a").First().AttrOr("href", "")
	all := page(project).Find("table.errors tbody tr")
	code := all.First().Find("td.col-code").Text()
	filtered := page(project + "?q=" + url.QueryEscape(code))
	shown := filtered.Find("table.errors tbody tr:not([hidden])")
	if shown.Length() == 0 || shown.Length() >= all.Length() {
		t.Errorf("%s?q=%s shows %d of %d rows", project, code, shown.Length(), all.Length())
	}
	shown.Each(func(_ int, row *goquery.Selection) {
		if !strings.Contains(strings.ToLower(row.Text()), strings.ToLower(code)) {
			t.Errorf("%s?q=%s shows %q", project, code, row.Text())
		}
	})
	if status := filtered.Find(".filter-status").Text(); !strings.Contains(status, "Showing "+strconv.Itoa(shown.Length())+" of ") {
		t.Errorf("filter status %q", status)
	}
}
