package index

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/errkb/errkb"
)

// The paste suites (testdata/pastesuites, written by
// scripts/pastesuites.sh): records errkb extract made from grpc-go, pgx,
// go-redis and the standard library, and the embedded NATS dataset, with
// queries in the forms engineers paste them (gRPC statuses, wrapped
// connect errors, JSON and klog lines, panics, filled-in messages,
// fragments, typos). Each project is scored alone and with all projects
// loaded together, on both halves; the held-out half's misses are never
// shown.

const pasteSuitesDir = "../testdata/pastesuites"

// pasteProjects are the suites' projects; "nats" is the embedded dataset.
var pasteProjects = []string{"grpc", "pgx", "redis", "std", "nats"}

// pasteFloors are the bars each project's halves clear, alone and
// together: lookup precision first, then top-1 and lookup coverage.
var pasteFloors = map[string]struct{ precision, top1, coverage float64 }{
	"grpc":  {1, 0.5, 0.5},
	"pgx":   {1, 0.5, 0.5},
	"redis": {1, 0.5, 0.5},
	"std":   {1, 0.5, 0.5},
	"nats":  {1, 0.5, 0.5},
}

var (
	pasteTable = flag.Bool("pastesuites.table", false, "print the paste suites' summary table in Markdown")
	pasteOnly  = flag.String("pastesuites.only", "", "score only this project of the paste suites, alone")
)

func pasteFolder(name string) errkb.Folder {
	if name == "nats" {
		return errkb.Embedded()
	}
	return errkb.Folder{Name: name, FS: os.DirFS(filepath.Join(pasteSuitesDir, name, "dataset"))}
}

// pasteOutcome is what one query's lookup answered: the id matched, or
// "" when it was not confident.
type pasteOutcome map[string]string

func TestPasteSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("the paste suites build six indexes")
	}
	queries := map[string][]realQuery{}
	for _, p := range pasteProjects {
		var qs []realQuery
		readQueries(t, filepath.Join(pasteSuitesDir, p, "queries.json"), &qs)
		queries[p] = qs
	}
	var rows []string
	alone := map[string]pasteOutcome{}
	for _, p := range pasteProjects {
		if *pasteOnly != "" && p != *pasteOnly {
			continue
		}
		ix := buildIndex(t, pasteFolder(p))
		alone[p] = pasteOutcome{}
		rows = append(rows, scorePaste(t, ix, p, "alone", queries[p], alone[p])...)
	}
	if *pasteOnly != "" {
		logPasteTable(t, rows)
		return
	}
	folders := make([]errkb.Folder, len(pasteProjects))
	for i, p := range pasteProjects {
		folders[i] = pasteFolder(p)
	}
	together := buildIndex(t, folders...)
	for _, p := range pasteProjects {
		got := pasteOutcome{}
		rows = append(rows, scorePaste(t, together, p, "together", queries[p], got)...)
		// A confident answer does not depend on what else is loaded.
		changed := 0
		for q, id := range alone[p] {
			if id != "" && got[q] != id {
				changed++
				if changed <= 5 {
					t.Errorf("%s: %q: alone %s, together %q", p, q, id, got[q])
				}
			}
		}
		if changed > 0 {
			t.Errorf("%s: %d confident answers change when all projects are loaded", p, changed)
		}
	}
	logPasteTable(t, rows)
}

// logPasteTable logs the summary table, with -pastesuites.table.
func logPasteTable(t *testing.T, rows []string) {
	if *pasteTable {
		t.Log("\n| project | loaded | half | queries | top-1 | lookup coverage | lookup precision |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n" + strings.Join(rows, "\n"))
	}
}

// scorePaste scores one project's queries on ix, both halves (the tuning
// half alone with -relevance.tuning), records each confident answer in
// out, holds every half to the project's floors and returns the table's
// rows.
func scorePaste(t *testing.T, ix *Index, project, loaded string, qs []realQuery, out pasteOutcome) []string {
	t.Helper()
	halves := map[string][]labelled{}
	for _, q := range qs {
		halves[q.Half] = append(halves[q.Half], q.labelled)
	}
	bars := pasteFloors[project]
	var rows []string
	for _, h := range []string{"tune", "held"} {
		if h == "held" && *tuningOnly {
			continue
		}
		stats, all, misses := scoreRelevanceInto(t, ix, halves[h], false, out)
		t.Logf("%s %s, %s half:\n%s", project, loaded, h, relevanceTable(ix, stats, all))
		if *showMisses && h != "held" {
			t.Log("\n" + strings.Join(wrongFirst(misses), "\n"))
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %d | %.3f | %.3f (%d/%d) | %.4f (%d/%d) |", project, loaded, h, all.n,
			ratio(all.top1, all.n), ratio(all.covered, all.lookups), all.covered, all.lookups, ratio(all.rightOnes, all.matches), all.rightOnes, all.matches))
		if got := ratio(all.rightOnes, all.matches); got < bars.precision {
			t.Errorf("%s %s, %s half: lookup precision %.4f, below %.4f", project, loaded, h, got, bars.precision)
		}
		if got := ratio(all.top1, all.n); got < bars.top1 {
			t.Errorf("%s %s, %s half: top-1 %.3f, below %.3f", project, loaded, h, got, bars.top1)
		}
		if got := ratio(all.covered, all.lookups); got < bars.coverage {
			t.Errorf("%s %s, %s half: lookup coverage %.3f, below %.3f", project, loaded, h, got, bars.coverage)
		}
	}
	return rows
}

// wrongFirst orders misses with the wrong confident answers first.
func wrongFirst(misses []string) []string {
	sort.SliceStable(misses, func(i, j int) bool {
		return strings.HasPrefix(misses[i], "WRONG") && !strings.HasPrefix(misses[j], "WRONG")
	})
	return misses
}
