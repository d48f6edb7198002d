//go:build browser

package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/errkb/errkb/templates"
)

// extractedPage: the page of an extracted JetStream API error that no
// curated record explains, as a NATS user reads it: the code, message,
// HTTP status and err_code, the type guard, where it is raised (the first
// places listed, the rest folded until asked for) and the snippet; no
// empty section.
func (b *bt) extractedPage(t *testing.T) {
	const path = "/errors/nats-io/nats-server/js-bad-request"
	s := newTestServer(t, Config{}) // the embedded dataset, which holds the extracted records
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", testCSP)
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()
	tb := b.newTab(t)
	tb.do(t, chromedp.EmulateViewport(1280, 2000), chromedp.Navigate(srv.URL+path), waitFor("#raised"))
	if h1 := eval[string](t, tb, `document.querySelector("h1").textContent`); h1 != "server.JSBadRequestErr" { // the qualified name the code uses
		t.Errorf("h1 = %q", h1)
	}
	if facts := eval[string](t, tb, `document.querySelector("dl.facts").innerText`); !containsAll(facts, "400", "10003") {
		t.Errorf("facts lack the HTTP status or err_code: %q", facts)
	}
	visible := `Array.from(document.querySelectorAll("#raised .callsites a")).filter(function (a) { return a.checkVisibility(); }).length`
	before := eval[int](t, tb, visible)
	if before != templates.FoldAfter {
		t.Errorf("%d call sites visible before unfolding, want the first %d", before, templates.FoldAfter)
	}
	tb.do(t, chromedp.Click("#raised details summary"))
	if after := eval[int](t, tb, visible); after <= before {
		t.Errorf("unfolding shows %d call sites, want more than %d", after, before)
	}
	for _, id := range []string{"type-guard", "raised", "source"} {
		if !eval[bool](t, tb, `!!document.getElementById("`+id+`")`) {
			t.Errorf("section #%s missing", id)
		}
	}
	for _, id := range []string{"solutions", "prevention", "triggers", "example-fix"} {
		if eval[bool](t, tb, `!!document.getElementById("`+id+`")`) {
			t.Errorf("empty section #%s shown", id)
		}
	}
	b.screenshot(t, tb, "extracted-api-error", true)
	tb.check(t, path)
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
