package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestExtractedRecordPage: a page of an extracted JetStream API error that
// no curated record explains shows its message, code, HTTP status, where
// it is raised with GitHub links, the snippet and how to detect it, and
// hides the sections it has no facts for.
func TestExtractedRecordPage(t *testing.T) {
	s := newTestServer(t, Config{})
	resp := fetch(t, s, "/errors/nats-io/nats-server/js-bad-request")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	d := doc(t, resp)
	if got := strings.TrimSpace(d.Find("h1.code").Text()); got != "server.JSBadRequestErr" { // the qualified name the code uses
		t.Errorf("h1 = %q", got)
	}
	if got := d.Find(".message code").Text(); got != "bad request" {
		t.Errorf("message = %q", got)
	}
	facts := d.Find("dl.facts").Text()
	for _, want := range []string{"HTTP status", "400", "Error code", "10003", "github.com/nats-io/nats-server/v2/server"} {
		if !strings.Contains(facts, want) {
			t.Errorf("facts lack %q: %s", want, facts)
		}
	}
	sites := d.Find("#raised .callsites a")
	if sites.Length() < 10 {
		t.Errorf("%d call site links, want every place NewJSBadRequestError is called", sites.Length())
	}
	href, _ := sites.First().Attr("href")
	if !strings.HasPrefix(href, "https://github.com/nats-io/nats-server/blob/v2.15.3/server/") || !strings.Contains(href, "#L") {
		t.Errorf("call site link %q is not a line permalink", href)
	}
	// A client cannot use the server's ApiError: the page offers the
	// client-side check of the err_code instead.
	if g := d.Find("#type-guard").Text(); !strings.Contains(g, "errors.As(err, &apiErr) && apiErr.ErrorCode == 10003") || strings.Contains(g, "server.ApiError") {
		t.Errorf("check = %q, want the client-side check of err_code 10003", g)
	}
	if d.Find("#source .snippet .error-line").Length() != 1 {
		t.Error("snippet without its marked line")
	}
	for _, empty := range []string{"#solutions", "#prevention", "#triggers", "#example-fix"} {
		if d.Find(empty).Length() != 0 {
			t.Errorf("%s shown with no facts behind it", empty)
		}
	}
}

func TestProjectPageAttribution(t *testing.T) {
	s := newTestServer(t, Config{})
	d := doc(t, fetch(t, s, "/errors/nats-io/nats.go"))
	a := d.Find(".attribution")
	text := a.Text()
	for _, want := range []string{"errkb extract", "github.com/nats-io/nats.go", "v1.55.0", "Apache-2.0"} {
		if !strings.Contains(text, want) {
			t.Errorf("attribution %q lacks %q", text, want)
		}
	}
	if a.Find(`a[href="https://github.com/nats-io/nats.go/blob/v1.55.0/LICENSE"]`).Length() != 1 {
		t.Errorf("no link to the license text at the version in %q", text)
	}
}
