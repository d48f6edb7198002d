package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestDidYouMean checks that a query with typos offers the corrected query
// on the search page and in the search and lookup APIs.
func TestDidYouMean(t *testing.T) {
	s := testServer(t)
	resp := get(t, s, "/search?q=widgt+queu+is+full")
	if resp.Code != http.StatusOK {
		t.Fatalf("status %d", resp.Code)
	}
	link := doc(t, resp.Result()).Find(".did-you-mean a").First()
	if href, _ := link.Attr("href"); link.Text() != "widget queue is full" || href != "/search?q=widget+queue+is+full" {
		t.Errorf("did-you-mean link %q -> %q", link.Text(), href)
	}

	for _, path := range []string{"/api/v1/search?q=widgt+queu+is+full", "/api/v1/lookup?q=widgt+queu+is+full"} {
		var res struct {
			DidYouMean []APISuggestion `json:"didYouMean"`
		}
		if err := json.NewDecoder(get(t, s, path).Body).Decode(&res); err != nil {
			t.Fatal(err)
		}
		if len(res.DidYouMean) == 0 || res.DidYouMean[0].Text != "widget queue is full" {
			t.Errorf("%s: didYouMean %+v", path, res.DidYouMean)
		}
	}

	resp = get(t, s, "/api/v1/search?q=widget+queue+is+full")
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["didYouMean"]; ok {
		t.Errorf("a query without typos got didYouMean %v", body["didYouMean"])
	}
}

// TestSearchHighlights checks that hits carry the query's words marked in
// the message, HTML-escaped.
func TestSearchHighlights(t *testing.T) {
	s := testServer(t)
	var res SearchResponse
	if err := json.NewDecoder(get(t, s, "/api/v1/search?q=widget+queue+is+full").Body).Decode(&res); err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 {
		t.Fatal("no hits")
	}
	msg := strings.Join(res.Hits[0].Highlights["message"], "")
	if !strings.Contains(msg, "<mark>queue</mark>") {
		t.Errorf("message highlight %q lacks <mark>queue</mark>", msg)
	}
}
