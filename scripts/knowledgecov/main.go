// Command knowledgecov prints, per project of a dataset folder, the share
// of records that carry each field extract/knowledge derives: conditions,
// returnedBy, handledAt, tests and docs (issue 21's coverage table).
//
//	go run ./scripts/knowledgecov /tmp/knowledge-out
//	go run ./scripts/knowledgecov dataset/extracted
//
// Shares are of the records with a place the error is made (callSites)
// in the analysed version: an error the module never makes has no
// condition and no caller to state, and one removed before it (history's
// removedIn, read from an older version for its message only) has none
// derived; the records column counts those apart. returnedBy is also given over the records whose surface is
// "returned", when the records carry a surface.
package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/errkb/errkb"
)

// row counts one project's records.
type row struct {
	records, made, conditions, unconditional, settings, returnedBy int
	surfaced, surfacedWith                                         int
	handledAt, checks, tests, docs                                 int
	removed                                                        int
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: knowledgecov DIR...")
		os.Exit(2)
	}
	rows := map[string]*row{}
	for _, dir := range os.Args[1:] {
		if err := walk(dir, rows); err != nil {
			fmt.Fprintln(os.Stderr, "knowledgecov:", err)
			os.Exit(1)
		}
	}
	print(rows)
}

// walk reads every record file below dir.
func walk(dir string, rows map[string]*row) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".json") || strings.HasPrefix(d.Name(), "_") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var env struct {
			Record *errkb.Record `json:"record"`
		}
		if err := json.Unmarshal(data, &env); err != nil || env.Record == nil {
			return nil // not a record file
		}
		count(env.Record, rows)
		return nil
	})
}

func count(r *errkb.Record, rows map[string]*row) {
	w := rows[r.Repo]
	if w == nil {
		w = &row{}
		rows[r.Repo] = w
	}
	w.records++
	if r.History != nil && r.History.RemovedIn != "" {
		w.removed++
		return
	}
	if r.Surface == errkb.SurfaceReturned {
		w.surfaced++
		if len(r.ReturnedBy) > 0 {
			w.surfacedWith++
		}
	}
	if len(r.CallSites) == 0 {
		return
	}
	w.made++
	inc := func(has bool, n *int) {
		if has {
			*n++
		}
	}
	inc(len(r.Conditions) > 0, &w.conditions)
	inc(slices.ContainsFunc(r.Conditions, func(c errkb.Condition) bool { return c.Unconditional }), &w.unconditional)
	inc(slices.ContainsFunc(r.Conditions, func(c errkb.Condition) bool { return len(c.Settings) > 0 }), &w.settings)
	inc(len(r.ReturnedBy) > 0, &w.returnedBy)
	inc(len(r.HandledAt) > 0, &w.handledAt)
	inc(len(r.Tests) > 0, &w.tests)
	inc(len(r.Docs) > 0, &w.docs)
	w.checks += len(r.HandledAt)
}

func print(rows map[string]*row) {
	fmt.Println("| project | records (removed) | made somewhere | conditions | with a setting | returnedBy | returnedBy of surface returned | handledAt (checks) | tests | docs |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	var repos []string
	for repo := range rows {
		repos = append(repos, repo)
	}
	slices.Sort(repos)
	for _, repo := range repos {
		w := rows[repo]
		surfaced := "no surfaces"
		if w.surfaced > 0 {
			surfaced = share(w.surfacedWith, w.surfaced)
		}
		fmt.Printf("| %s | %d (%d) | %d | %s | %s | %s | %s | %s (%d) | %s | %s |\n", repo, w.records, w.removed, w.made,
			share(w.conditions, w.made), share(w.settings, w.made), share(w.returnedBy, w.made), surfaced,
			share(w.handledAt, w.made), w.checks, share(w.tests, w.made), share(w.docs, w.made))
	}
}

// share is "n (p%)" of total.
func share(n, total int) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%d (%.0f%%)", n, 100*float64(n)/float64(total))
}
