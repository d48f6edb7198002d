package index

import (
	"context"
	"os"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// historyRecord is a fictional lever record of acme-labs/lever with the
// given id, code, message and history.
func historyRecord(id, code, msg string, h *errkb.History) *errkb.Record {
	return errkbtest.Record(errkbtest.ID(id), func(r *errkb.Record) {
		r.Repo, r.ErrorCode, r.ErrorClass, r.ErrorMessage, r.MessagePattern = "acme-labs/lever", code, "", msg, msg
		r.TypeGuard, r.ExampleFix, r.ValidationCode, r.NumericCode, r.Tags = "", "", "", nil, []string{"lever"}
		r.History = h
	})
}

// TestLookupOlderWording checks that a paste of a message a record had
// in an older version lands on it, that a removed record is still found,
// and that an older wording, or a removed error's message, that another
// record has today stays that record's.
func TestLookupOlderWording(t *testing.T) {
	stuck := historyRecord("1e7e400000000001", "ErrLeverStuck", "lever is stuck in its slot", &errkb.History{
		FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0", MessageSince: "v1.1.0",
		Messages: []errkb.OldMessage{{Message: "lever jammed solid in its slot", Versions: []string{"v1.0.0"}}},
	})
	bent := historyRecord("1e7e400000000002", "ErrLeverBent", "lever bent beyond repair", &errkb.History{
		FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0", RemovedIn: "v1.1.0",
	})
	// Its old wording is widgetd's message today: a paste of it is
	// widgetd's.
	thief := historyRecord("1e7e400000000003", "ErrLeverFull", "lever queue overflowed", &errkb.History{
		FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0", MessageSince: "v1.1.0",
		Messages: []errkb.OldMessage{{Message: "widget queue is full", Versions: []string{"v1.0.0"}}},
	})
	// Removed, with the message widgetd's flush timeout has today.
	gone := historyRecord("1e7e400000000004", "ErrLeverFlush", "timed out flushing widgets to disk", &errkb.History{
		FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0", RemovedIn: "v1.1.0",
	})
	ix := buildIndex(t, errkbtest.SeedFolder(), errkb.Folder{Name: "basic", FS: os.DirFS("../testdata/basic")},
		errkbtest.Folder(stuck, bent, thief, gone))
	for _, tt := range []struct{ name, q, want string }{
		{"older wording", "lever jammed solid in its slot", stuck.ID},
		{"older wording in a log line", "2026/11/02 09:14:07 [ERR] lever jammed solid in its slot", stuck.ID},
		{"today's wording", "lever is stuck in its slot", stuck.ID},
		{"removed record", "lever bent beyond repair", bent.ID},
		{"older wording another record has today", "widget queue is full", "a1c3e5f7a9b1c3d5"},
		{"removed message another record has today", "2026-11-02T09:14:07Z ERROR store: timed out flushing widgets to disk after 30s", "c3e5a7b9d1f3c5e7"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Lookup(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if res.Match != nil {
				got = res.Match.ID
			}
			if got != tt.want {
				t.Errorf("Lookup(%q) match = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}
