package index

import (
	"flag"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// The real-record relevance suite: records made from real Go sources (the
// standard library, nats.go and nats-server; see scripts/realrecords) and
// queries generated from them by a seeded script written before any
// ranking was tuned on them (scripts/relevancequeries). Records are split
// by a hash of their id into a tuning half and a held-out half; ranking may
// be tuned on the first only. Run `make relevance` for the tables.

// realSuite, when set, scores the suite in another folder (dataset/ and
// queries.json) instead of the committed ones, without floors.
var realSuite = flag.String("relevance.real", realSuiteDefault, "folder of a real-record suite: dataset/ and queries.json")

// tuningOnly scores the tuning halves alone, as when working on the
// ranking: the held-out halves are not even run, so no figure of theirs
// can steer a change.
var tuningOnly = flag.Bool("relevance.tuning", false, "score only the tuning half of the real-record suites")

const realSuiteDefault = "../testdata/realrelevance"

type realQuery struct {
	labelled
	Half string `json:"half"`
}

// floors are the bars a suite's held-out half must clear. A confident
// lookup counts as right only when it names the wanted record; coverage
// counts the queries labelled as lookups that were matched to it.
type floors struct {
	top1, top1PerKind, precision, coverageNamed float64 // coverageNamed: codes, messages and log lines
}

// realSuites are the committed real-record suites: records made by
// scripts/realrecords, and records errkb extract made from nats.go v1.37.0
// and nats-server v2.10.22, each with queries from scripts/relevancequeries.
// The floors are what is reached on the held-out halves: errkb is never
// confidently wrong on the first suite's (see docs/search.md).
var realSuites = []struct {
	dir    string
	min    int // queries
	floors floors
}{
	{realSuiteDefault, 3000, floors{top1: 0.99, top1PerKind: 0.97, precision: 1, coverageNamed: 0.95}},
	{"../testdata/extractrelevance", 8000, floors{top1: 0.98, top1PerKind: 0.94, precision: 0.999, coverageNamed: 0.97}},
}

// provenanceHidden hides each project's _source.json, which holds where
// its records came from rather than a record.
type provenanceHidden struct{ fs.FS }

func (p provenanceHidden) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(p.FS, name)
	out := es[:0]
	for _, e := range es {
		if e.Name() != "_source.json" {
			out = append(out, e)
		}
	}
	return out, err
}

func (p provenanceHidden) Open(name string) (fs.File, error) {
	if path.Base(name) == "_source.json" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return p.FS.Open(name)
}

func realRelevanceIndex(t testing.TB, dir string) (*Index, []realQuery) {
	t.Helper()
	ix := buildIndex(t, errkb.Folder{Name: "realrelevance", FS: provenanceHidden{os.DirFS(filepath.Join(dir, "dataset"))}})
	var qs []realQuery
	readQueries(t, filepath.Join(dir, "queries.json"), &qs)
	for _, q := range qs {
		wantInDataset(t, ix, q.labelled)
	}
	return ix, qs
}

func TestRealRelevance(t *testing.T) {
	if *realSuite != realSuiteDefault {
		checkRealSuite(t, *realSuite, 0, nil)
		return
	}
	for _, suite := range realSuites {
		t.Run(filepath.Base(suite.dir), func(t *testing.T) {
			checkRealSuite(t, suite.dir, suite.min, &suite.floors)
		})
	}
}

// checkRealSuite scores both halves of the suite in dir and holds the
// held-out half to the floors, when given.
func checkRealSuite(t *testing.T, dir string, minQueries int, bars *floors) {
	ix, qs := realRelevanceIndex(t, dir)
	if len(qs) < minQueries {
		t.Fatalf("only %d queries; the suite needs at least %d", len(qs), minQueries)
	}
	halves := map[string][]labelled{}
	for _, q := range qs {
		halves[q.Half] = append(halves[q.Half], q.labelled)
	}
	for _, h := range []string{"tune", "held"} {
		if h == "held" && *tuningOnly {
			continue
		}
		stats, all, misses := scoreRelevance(t, ix, halves[h], false)
		t.Logf("%s, %s half:\n%s", filepath.Base(dir), h, relevanceTable(ix, stats, all))
		if *showMisses && h != "held" {
			// The held-out half is scored, never read: its misses are
			// not shown, so nothing is tuned on them.
			t.Log("\n" + strings.Join(misses, "\n"))
		}
		if h != "held" || bars == nil {
			continue
		}
		for k, s := range stats {
			if got := ratio(s.top1, s.n); got < bars.top1PerKind {
				t.Errorf("held-out kind %s: top-1 %.3f, below %.3f", k, got, bars.top1PerKind)
			}
			if k == "code" || k == "message" || k == "log" {
				if got := ratio(s.covered, s.lookups); got < bars.coverageNamed {
					t.Errorf("held-out kind %s: lookup coverage %.3f, below %.3f", k, got, bars.coverageNamed)
				}
			}
		}
		if got := ratio(all.top1, all.n); got < bars.top1 {
			t.Errorf("held-out top-1 %.3f, below %.3f", got, bars.top1)
		}
		if got := ratio(all.rightOnes, all.matches); got < bars.precision {
			t.Errorf("held-out lookup precision %.3f, below %.3f", got, bars.precision)
		}
	}
}
