package index

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
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

// pasteSuitesDir, when changed, scores suites written elsewhere (by
// scripts/pastesuite with another seed, say), without the floors' meaning.
var pasteSuitesDir = "../testdata/pastesuites"

func init() {
	flag.StringVar(&pasteSuitesDir, "pastesuites.dir", pasteSuitesDir, "folder of the paste suites")
}

// pasteProjects are the suites' projects; "nats" is the embedded dataset.
var pasteProjects = []string{"grpc", "pgx", "redis", "std", "nats"}

// pasteFloors are the bars each project's halves clear, alone and
// together, set at what is measured (docs/relevance.md): lookup
// precision first, then top-1 and lookup coverage; dropped, the share of
// the project's confident answers alone that may become no confident
// answer with every project loaded (records of several projects then fit
// the text, and the lookup says so); and moved, how many confident
// answers alone may become another record together: 0 but for one
// held-out NATS query and one held-out std one, which are scored and
// not read. dropped is above the share measured on the suites before
// their regeneration: a typo two records are as close to is no
// confident answer (decide_precision.go), and the NATS suite has twice
// the records. The held-out halves of pgx together (0.9962, 2 wrong) and std
// together (0.99896, 3 wrong) are still below the 0.999 aim; the rest
// reach it (docs/relevance.md). NATS coverage together is 0.930 on the
// tuning half since the suite holds the errors older releases had
// (history's removed records): 3,862 records, 197 more.
var pasteFloors = map[string]struct {
	precision, top1, coverage, dropped float64
	moved                              int
}{
	"grpc":  {1, 0.965, 0.97, 0.025, 0},
	"pgx":   {0.996, 0.935, 0.88, 0.095, 0},
	"redis": {1, 0.945, 0.95, 0.035, 0},
	"std":   {0.9989, 0.965, 0.965, 0.011, 1},
	"nats":  {0.999, 0.955, 0.925, 0.027, 1},
}

var (
	pasteTable = flag.Bool("pastesuites.table", false, "print the paste suites' summary table in Markdown")
	pasteOnly  = flag.String("pastesuites.only", "", "score only this project of the paste suites, alone")
)

func pasteFolder(name string) errkb.Folder {
	if name == "nats" {
		e := errkb.Embedded()
		return errkb.Folder{Name: e.Name, FS: withoutDir{e.FS, "extracted/golang"}}
	}
	return errkb.Folder{Name: name, FS: os.DirFS(filepath.Join(pasteSuitesDir, name, "dataset"))}
}

// checkTogether holds the answers with every project loaded to those of
// the project alone: a confident answer stays the same record or, when
// records of several projects fit, becomes none. (A text with no
// confident answer alone may get one together: the text search's window
// of candidates then holds other records.) The tuning half's changes are listed with -relevance.misses.
func checkTogether(t *testing.T, project string, qs []realQuery, alone, together pasteOutcome) {
	t.Helper()
	confident, dropped, changed := 0, 0, 0
	for _, q := range qs {
		a, g := alone[q.Q], together[q.Q]
		switch {
		case a != "" && g == "":
			dropped++
			if *showMisses && q.Half == "tune" {
				t.Logf("%s: %s %q: alone %s, none together", project, q.Kind, q.Q, a)
			}
		case a != "" && a != g:
			changed++
			if q.Half == "tune" { // the held-out half is scored, never read
				t.Errorf("%s: %s %q: alone %q, together %q", project, q.Kind, q.Q, a, g)
			}
		}
		if a != "" {
			confident++
		}
	}
	t.Logf("%s: %d of %d confident answers alone are none together, %d another record", project, dropped, confident, changed)
	if most := pasteFloors[project].moved; changed > most {
		t.Errorf("%s: %d confident answers alone are another record together, above %d", project, changed, most)
	}
	if got, most := ratio(dropped, confident), pasteFloors[project].dropped; got > most {
		t.Errorf("%s: %.3f of confident answers alone are none together, above %.3f", project, got, most)
	}
}

// pasteOutcome is what one query's lookup answered: the id matched, or
// "" when it was not confident.
type pasteOutcome map[string]string

func TestPasteSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("the paste suites build six indexes")
	}
	projects := pasteProjects
	if *pasteOnly != "" {
		projects = []string{*pasteOnly}
	}
	queries := map[string][]realQuery{}
	alone, together := map[string]pasteOutcome{}, map[string]pasteOutcome{}
	rows := map[string][]string{}
	for _, p := range projects {
		var qs []realQuery
		readQueries(t, filepath.Join(pasteSuitesDir, p, "queries.json"), &qs)
		queries[p] = qs
		alone[p], together[p] = pasteOutcome{}, pasteOutcome{}
	}
	// The projects are scored in parallel subtests, each into maps of its
	// own, made above.
	t.Run("alone", func(t *testing.T) {
		for _, p := range projects {
			t.Run(p, func(t *testing.T) {
				t.Parallel()
				rows["alone "+p] = scorePaste(t, buildIndex(t, pasteFolder(p)), p, "alone", queries[p], alone[p])
			})
		}
	})
	if *pasteOnly == "" {
		folders := make([]errkb.Folder, len(projects))
		for i, p := range projects {
			folders[i] = pasteFolder(p)
		}
		all := buildIndex(t, folders...)
		t.Run("together", func(t *testing.T) {
			for _, p := range projects {
				t.Run(p, func(t *testing.T) {
					t.Parallel()
					rows["together "+p] = scorePaste(t, all, p, "together", queries[p], together[p])
					checkTogether(t, p, queries[p], alone[p], together[p])
				})
			}
		})
	}
	if *pasteTable {
		var table []string
		for _, loaded := range []string{"alone", "together"} {
			for _, p := range projects {
				table = append(table, rows[loaded+" "+p]...)
			}
		}
		t.Log("\n| project | loaded | half | queries | top-1 | lookup coverage | lookup precision |\n| --- | --- | --- | ---: | ---: | ---: | ---: |\n" + strings.Join(table, "\n"))
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

// withoutDir is a file system with one folder left out: the embedded
// dataset without the standard library's records, which the "std" suite
// loads on its own, so that "nats" is the NATS records alone.
type withoutDir struct {
	fs.FS
	dir string
}

func (w withoutDir) hidden(name string) bool {
	return name == w.dir || strings.HasPrefix(name, w.dir+"/")
}

func (w withoutDir) Open(name string) (fs.File, error) {
	if w.hidden(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return w.FS.Open(name)
}

func (w withoutDir) ReadDir(name string) ([]fs.DirEntry, error) {
	if w.hidden(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	es, err := fs.ReadDir(w.FS, name)
	return slices.DeleteFunc(es, func(e fs.DirEntry) bool { return w.hidden(path.Join(name, e.Name())) }), err
}
