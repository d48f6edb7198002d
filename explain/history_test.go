package explain

import (
	"strings"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// TestHistorySentences: the history reads "Before vX the message read"
// for the wording before today's, "Already in the oldest version
// analysed" for an error the history does not reach the start of, and
// "Removed in" for one the newest version lacks, in text and Markdown.
func TestHistorySentences(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    errkb.History
		want []string
		not  []string
	}{
		{"reworded twice", errkb.History{FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0", MessageSince: "v1.2.0",
			Messages: []errkb.OldMessage{{Message: "gizmo stuck", Versions: []string{"v1.0.0"}}, {Message: "gizmo is stuck", Versions: []string{"v1.1.0"}}}},
			[]string{"Already in the oldest version analysed, `v1.0.0`", "Before v1.2.0 the message read `gizmo is stuck`", "Earlier the message read `gizmo stuck`"},
			[]string{"First in", "Removed in"}},
		{"new", errkb.History{FirstVersion: "v1.1.0", OldestAnalyzed: "v1.0.0"},
			[]string{"First in `v1.1.0`"}, []string{"Already in", "message read"}},
		{"removed", errkb.History{FirstVersion: "v1.0.0", OldestAnalyzed: "v1.0.0", RemovedIn: "v1.1.0"},
			[]string{"Removed in `v1.1.0`"}, []string{"First in"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := errkbtest.Record(func(r *errkb.Record) { r.History = &tc.h })
			text, md := render(t, r)
			for name, out := range map[string]string{"text": text, "markdown": strings.ReplaceAll(md, `\`, "")} {
				for _, w := range tc.want {
					if name == "text" {
						w = strings.ReplaceAll(w, "`", "")
					}
					if !strings.Contains(out, w) {
						t.Errorf("%s lacks %q:\n%s", name, w, out)
					}
				}
				for _, w := range tc.not {
					if strings.Contains(out, w) {
						t.Errorf("%s has %q", name, w)
					}
				}
			}
		})
	}
}
