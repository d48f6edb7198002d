package index

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/internal/errkbtest"
)

// testIndex builds a real index of the seed record and testdata/basic:
// fictional acme-labs/widgetd records, two of which share a code.
func testIndex(t testing.TB) *Index {
	return buildIndex(t, errkbtest.SeedFolder(), errkb.Folder{Name: "basic", FS: os.DirFS("../testdata/basic")})
}

// buildIndex loads the sources, failing on any problem, and builds a real
// index of them that is closed when the test ends.
func buildIndex(t testing.TB, sources ...errkb.Folder) *Index {
	t.Helper()
	ix, err := Build(context.Background(), errkbtest.Load(t, sources...), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestSearchFindsRecordFirst(t *testing.T) {
	ix := testIndex(t)
	tests := []struct {
		name, q, want string
	}{
		{"code", "JS_CONSUMER_OFFLINE", "dabd815d1877efcd"},
		{"code lower kebab", "js-consumer-offline", "dabd815d1877efcd"},
		{"class", "JSConsumerOfflineReasonError", "dabd815d1877efcd"},
		{"id", "dabd815d1877efcd", "dabd815d1877efcd"},
		{"message", "widget queue is full", "a1c3e5f7a9b1c3d5"},
		{"log line", `[4411] 2026/11/02 09:14:07.120331 [ERR] 10.0.0.7:4222 - cid:18 - consumer is offline: "orders.>" ~1 /var/lib/nats`, "dabd815d1877efcd"},
		{"typo", "widget queue is ful", "a1c3e5f7a9b1c3d5"},
		{"prose", "flush deadline", "c3e5a7b9d1f3c5e7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ix.Search(context.Background(), Query{Text: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) == 0 || res.Hits[0].Record.ID != tt.want {
				t.Fatalf("first hit for %q is %v, want %s", tt.q, firstID(res), tt.want)
			}
		})
	}
}

func firstID(res *Result) string {
	if len(res.Hits) == 0 {
		return "nothing"
	}
	return res.Hits[0].Record.ID
}

func TestSearchFiltersAndFacets(t *testing.T) {
	ix := testIndex(t)
	ctx := context.Background()
	res, err := ix.Search(ctx, Query{Repo: "acme-labs/widgetd"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 4 {
		t.Errorf("repo filter: total %d, want 4", res.Total)
	}
	res, err = ix.Search(ctx, Query{Text: "timed out", Tag: "disk"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 1 || res.Hits[0].Record.Slug != "flush-timeout" {
		t.Errorf("tag filter: got %d hits, first %s", res.Total, firstID(res))
	}
	res, err = ix.Search(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, f := range res.Facets.Repo {
		counts[f.Value] = f.Count
	}
	if counts["acme-labs/widgetd"] != 4 || counts["nats-io/nats-server"] != 1 {
		t.Errorf("repo facet = %v", res.Facets.Repo)
	}
	if res.Total != 5 {
		t.Errorf("empty query total = %d, want all 5", res.Total)
	}
}

func TestLookup(t *testing.T) {
	ix := testIndex(t)
	tests := []struct {
		name, q string
		want    string // "" means no confident match
		minAlts int
	}{
		{"exact code", "JS_CONSUMER_OFFLINE", "dabd815d1877efcd", 0},
		{"code any case", "wd_queue_full", "a1c3e5f7a9b1c3d5", 0},
		{"id", "a1c3e5f7a9b1c3d5", "a1c3e5f7a9b1c3d5", 0},
		{"class", "QueueFullError", "a1c3e5f7a9b1c3d5", 0},
		{"message", "Consumer is offline", "dabd815d1877efcd", 0},
		{"log line with message", "2026-11-02T09:14:07Z ERROR store: timed out flushing widgets to disk after 30s", "c3e5a7b9d1f3c5e7", 0},
		{"shared code lists both", "WD_TIMEOUT", "", 2},
		{"shared class lists both", "TimeoutError", "", 2},
		{"vague words", "timed out", "", 1},
		{"nothing", "zzzz qqqq", "", 0},
	}
	for _, tt := range tests {
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
			if len(res.Alternatives) < tt.minAlts {
				t.Errorf("Lookup(%q) gave %d alternatives, want at least %d", tt.q, len(res.Alternatives), tt.minAlts)
			}
		})
	}
}

// TestHostileTextNeverFails sends text that bleve's query-string syntax
// would reject; it must be searched as plain words.
func TestHostileTextNeverFails(t *testing.T) {
	ix := testIndex(t)
	for _, q := range []string{
		`/usr/lib/libfoo.so: cannot open`, `'foo~bar'`, `a* b* *`, `/.*/`, `field:value +must -not`,
		`"unbalanced`, `(((`, `\`, `^~2`, `{"error":{"code":500}}`, "\x00\xff",
	} {
		if _, err := ix.Search(context.Background(), Query{Text: q}); err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
		if _, err := ix.Lookup(context.Background(), q); err != nil {
			t.Errorf("Lookup(%q): %v", q, err)
		}
	}
}
