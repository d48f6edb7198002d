package web

import (
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// historyServer serves two gizmo records with a history: one reworded in
// v1.1.0, one removed in it.
func historyServer(t *testing.T) *Server {
	t.Helper()
	rec := func(id, code, msg string, h errkb.History) *errkb.Record {
		return errkbtest.Record(errkbtest.ID(id), func(r *errkb.Record) {
			r.ErrorCode, r.ErrorClass, r.ErrorMessage, r.MessagePattern, r.NumericCode = code, "", msg, msg, nil
			r.History = &h
		})
	}
	return readyServer(t, errkbtest.Dataset(t,
		rec("f00dfeed000000a1", "GZ_STUCK", "gizmo is stuck in gear", errkb.History{FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0",
			MessageSince: "v1.1.0", Messages: []errkb.OldMessage{{Message: "gizmo jammed in gear", Versions: []string{"v1.0.0"}}}}),
		rec("f00dfeed000000a2", "GZ_BENT", "gizmo bent out of shape", errkb.History{FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0",
			RemovedIn: "v1.1.0"}),
	), Config{})
}

// TestHistoryPage: the page says which wording came before today's and
// that a removed error was removed; a paste of the older wording, and of
// the removed error's message, looks up their records.
func TestHistoryPage(t *testing.T) {
	s := historyServer(t)
	for _, tc := range []struct{ id, want string }{
		{"f00dfeed000000a1", "Before v1.1.0 the message read gizmo jammed in gear"},
		{"f00dfeed000000a2", "Removed in v1.1.0"},
	} {
		got := strings.Join(strings.Fields(pageOf(t, s, tc.id).Find("#history").Text()), " ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: history %q lacks %q", tc.id, got, tc.want)
		}
	}
	for q, want := range map[string]string{"gizmo jammed in gear": "f00dfeed000000a1", "gizmo bent out of shape": "f00dfeed000000a2"} {
		resp := fetch(t, s, "/api/v1/lookup?q="+url.QueryEscape(q))
		body, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(body), `"match":{"record":{"id":"`+want+`"`) {
			t.Errorf("lookup %q: %s, want the match %s", q, body, want)
		}
	}
}
