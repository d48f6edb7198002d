package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// The faces relevance suite: for every server API error of the
// extractrelevance records, what NATS clients print for it, the raw JSON
// API response, a log line holding it and the bare number, each labelled
// with the server's error (scripts/facequeries, written before ranking
// was tuned on it; its comment cites each client's source). The queries
// are split into a tuning and a held-out half as the real-record suites'.
const faceSuite = "../testdata/facerelevance/queries.json"

// faceFloors are what the held-out half reached when the suite was
// first run. A text that carries the err_code (every kind but
// descriptionOnly) is never answered wrong and finds the server's error
// first; a description alone ("nats: consumer not found", NATS.Net's
// message) names it less surely, and one of each was answered with
// another error's record.
var faceFloors = floors{top1: 0.96, top1PerKind: 0.8, precision: 0.995, coverageNamed: 0.95}

// descriptionOnly are the kinds whose text holds the description and no
// code.
var descriptionOnly = map[string]bool{"nats.go-nats": true, "nats.net": true}

func TestFaceRelevance(t *testing.T) {
	ix := buildIndex(t, errkb.Folder{Name: "realrelevance", FS: provenanceHidden{os.DirFS(filepath.Join("../testdata/extractrelevance", "dataset"))}})
	var qs []realQuery
	readQueries(t, faceSuite, &qs)
	if len(qs) < 1000 {
		t.Fatalf("only %d queries", len(qs))
	}
	halves := map[string][]labelled{}
	for _, q := range qs {
		wantInDataset(t, ix, q.labelled)
		halves[q.Half] = append(halves[q.Half], q.labelled)
	}
	for _, h := range []string{"tune", "held"} {
		if h == "held" && *tuningOnly {
			continue
		}
		stats, all, misses := scoreRelevance(t, ix, halves[h], false)
		t.Logf("facerelevance, %s half:\n%s", h, relevanceTable(ix, stats, all))
		if *showMisses && h != "held" {
			t.Log("\n" + strings.Join(misses, "\n"))
		}
		if h != "held" {
			continue
		}
		for k, s := range stats {
			if !descriptionOnly[k] && (s.top1 != s.n || s.rightOnes != s.matches) {
				t.Errorf("held-out kind %s, which carries the err_code: top-1 %d/%d, lookups right %d/%d; want all", k, s.top1, s.n, s.rightOnes, s.matches)
			}
			if got := ratio(s.top1, s.n); got < faceFloors.top1PerKind {
				t.Errorf("held-out kind %s: top-1 %.3f, below %.3f", k, got, faceFloors.top1PerKind)
			}
			if got := ratio(s.covered, s.lookups); s.lookups > 0 && got < faceFloors.coverageNamed {
				t.Errorf("held-out kind %s: lookup coverage %.3f, below %.3f", k, got, faceFloors.coverageNamed)
			}
		}
		if got := ratio(all.top1, all.n); got < faceFloors.top1 {
			t.Errorf("held-out top-1 %.3f, below %.3f", got, faceFloors.top1)
		}
		if got := ratio(all.rightOnes, all.matches); got < faceFloors.precision {
			t.Errorf("held-out lookup precision %.3f, below %.3f", got, faceFloors.precision)
		}
	}
}
