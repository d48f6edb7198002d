package web

import (
	"strings"
	"testing"
)

// TestSearchSaysWhenNothingExplains: a pasted text no record explains is
// answered with that sentence first and no count; a text a record
// explains, or a search of a word or two, gets the count.
func TestSearchSaysWhenNothingExplains(t *testing.T) {
	s := knowledgeServer(t)
	for _, tc := range []struct {
		q           string
		unexplained bool
	}{
		{"the gizmo jammed again after oiling", true},
		{"gizmo overheated, stopping", false},
		{"gizmo", false},
	} {
		d := doc(t, fetch(t, s, "/search?q="+strings.ReplaceAll(tc.q, " ", "+")))
		notice := strings.TrimSpace(d.Find("p.notice").Text())
		if got := notice == Unexplained; got != tc.unexplained {
			t.Errorf("%q: notice %q", tc.q, notice)
		}
		if got := d.Find("p.total").Length() == 0; got != tc.unexplained {
			t.Errorf("%q: count shown = %v", tc.q, !got)
		}
		if tc.unexplained && d.Find("ol.records li").Length() == 0 {
			t.Errorf("%q: the records that share words are not listed", tc.q)
		}
	}
}

// TestSearchAsText: /search answers a terminal and Markdown with the
// results the page lists.
func TestSearchAsText(t *testing.T) {
	s := knowledgeServer(t)
	text := get(t, s, "/search?q=the+gizmo+jammed+again+after+oiling", "Accept", "text/plain")
	md := get(t, s, "/search?q=the+gizmo+jammed+again+after+oiling&format=markdown")
	for name, w := range map[string]string{"text": text.Body.String(), "markdown": md.Body.String()} {
		if !strings.HasPrefix(w, Unexplained+"\n") {
			t.Errorf("%s does not start with the notice:\n%s", name, w)
		}
		if !strings.Contains(w, "/errors/acme-labs/gizmo/") {
			t.Errorf("%s lists no result:\n%s", name, w)
		}
	}
	if ct := text.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("text Content-Type %q", ct)
	}
	if ct := md.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/markdown") {
		t.Errorf("markdown Content-Type %q", ct)
	}
	if w := get(t, s, "/search?q=gizmo", "Accept", "text/plain").Body.String(); !strings.HasPrefix(w, "4 matching errors\n") {
		t.Errorf("a word search does not lead with the count:\n%s", w)
	}
}
