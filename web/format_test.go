package web

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/errkb/errkb/explain"
)

// TestRecordPageFormats asks the record page in each format through the
// full router, twice each, so the second answer comes from the response
// cache: the cache must keep one entry per format.
func TestRecordPageFormats(t *testing.T) {
	s := newTestServer(t, Config{BaseURL: "https://errkb.example.com"})
	r, ok := s.ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	if !ok {
		t.Fatal("embedded record missing")
	}
	var text, md bytes.Buffer
	if err := explain.Text(&text, r, "https://errkb.example.com"); err != nil {
		t.Fatal(err)
	}
	if err := explain.Markdown(&md, r, "https://errkb.example.com"); err != nil {
		t.Fatal(err)
	}
	path := "/errors/nats-io/nats-server/js-consumer-offline"
	cases := []struct {
		name, target, accept, wantType, wantBody string
	}{
		{"browser", path, "text/html,application/xhtml+xml,*/*;q=0.8", "text/html", "<!DOCTYPE html>"},
		{"text", path, "text/plain", "text/plain", text.String()},
		{"curl", path, "*/*", "text/html", "<!DOCTYPE html>"},
		{"markdown", path + "?format=markdown", "", "text/markdown", md.String()},
		{"markdown by Accept", path, "text/markdown", "text/markdown", md.String()},
	}
	for round := range 2 {
		for _, tc := range cases {
			w := get(t, s, tc.target, "Accept", tc.accept)
			if w.Code != http.StatusOK {
				t.Fatalf("round %d %s: status %d", round, tc.name, w.Code)
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, tc.wantType) {
				t.Errorf("round %d %s: Content-Type %q, want %s", round, tc.name, ct, tc.wantType)
			}
			if !strings.Contains(w.Header().Get("Vary"), "Accept") {
				t.Errorf("round %d %s: Vary %q lacks Accept", round, tc.name, w.Header().Get("Vary"))
			}
			got := w.Body.String()
			if tc.wantType == "text/html" {
				if !strings.HasPrefix(strings.TrimSpace(strings.ToLower(got)), strings.ToLower(tc.wantBody)) {
					t.Errorf("round %d %s: not an HTML page: %.80q", round, tc.name, got)
				}
			} else if got != tc.wantBody {
				t.Errorf("round %d %s: body differs from the shared formatter:\n got %q\nwant %q", round, tc.name, got, tc.wantBody)
			}
		}
	}
	if !strings.Contains(md.String(), "](https://github.com/nats-io/nats-server/blob/") || !strings.Contains(md.String(), "#L") {
		t.Errorf("Markdown lacks GitHub line links:\n%s", md.String())
	}
}

func TestLookupAsText(t *testing.T) {
	s := newTestServer(t, Config{BaseURL: "https://errkb.example.com"})
	r, _ := s.ds.ByPath("nats-io/nats-server", "js-consumer-offline")
	var text bytes.Buffer
	_ = explain.Text(&text, r, "https://errkb.example.com")

	w := get(t, s, "/lookup?q=JS_CONSUMER_OFFLINE", "Accept", "text/plain")
	if w.Code != http.StatusOK || w.Body.String() != text.String() {
		t.Errorf("match: status %d body %q, want 200 and the record's text", w.Code, w.Body.String())
	}
	if !strings.Contains(w.Header().Get("Vary"), "Accept") {
		t.Errorf("match: Vary %q lacks Accept", w.Header().Get("Vary"))
	}

	w = get(t, s, "/lookup?q=consumer", "Accept", "text/plain")
	if w.Code != http.StatusNotFound || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("no match: status %d type %q, want 404 text/plain", w.Code, w.Header().Get("Content-Type"))
	}
	for _, want := range []string{`no single error matches "consumer"`, "Candidates:", "https://errkb.example.com/errors/nats-io/", "Search: https://errkb.example.com/search?q=consumer"} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("no match: answer lacks %q:\n%s", want, w.Body.String())
		}
	}

	w = get(t, s, "/lookup?q=JS_CONSUMER_OFFLINE&format=markdown")
	var md bytes.Buffer
	_ = explain.Markdown(&md, r, "https://errkb.example.com")
	if w.Code != http.StatusOK || w.Body.String() != md.String() {
		t.Errorf("markdown match: status %d body %q", w.Code, w.Body.String())
	}

	// Errors answer a terminal in text too.
	w = get(t, s, "/errors/nats-io/nats-server/no-such-error", "Accept", "text/plain")
	if w.Code != http.StatusNotFound || w.Body.String() != "errkb has no error at nats-io/nats-server/no-such-error.\n" {
		t.Errorf("missing page as text: %d %q", w.Code, w.Body.String())
	}

	// A browser still gets the redirect.
	w = get(t, s, "/lookup?q=JS_CONSUMER_OFFLINE", "Accept", "text/html")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/errors/nats-io/nats-server/js-consumer-offline" {
		t.Errorf("browser: status %d Location %q, want 303 to the page", w.Code, w.Header().Get("Location"))
	}
	if !strings.Contains(w.Header().Get("Vary"), "Accept") {
		t.Errorf("browser: Vary %q lacks Accept", w.Header().Get("Vary"))
	}
}
