package curate_test

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/curate"
)

// minCurated is how many errors the shipped dataset explains by hand.
const minCurated = 40

// TestCuratedRecords holds every curated record of the embedded dataset to
// the rules a reader relies on: it is a valid record, explains the
// extracted record of the same error (same id, repo and slug), fills every
// section, ends every claim with a link to its source, lists every link in
// sources, cites code only at the versions it was written for and at lines
// that exist, cites threads only for answers of a listed maintainer, and
// was written against the message and location the extractor reports (or
// is flagged stale).
func TestCuratedRecords(t *testing.T) {
	curated, extracted := loadCurated(t)
	if n := curated.Len(); n < minCurated {
		t.Errorf("%d curated records, want at least %d", n, minCurated)
	}
	if _, err := errkb.Load(errkb.Embedded()); err != nil {
		t.Fatalf("the embedded dataset with its curated records: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	mods := curate.NewModules()
	repos := map[string]bool{}
	for _, r := range curated.Records {
		repos[r.Repo] = true
	}
	maint := maintainers(t, ctx, mods, extracted, repos)
	for _, r := range curated.Records {
		t.Run(r.Path(), func(t *testing.T) {
			f, err := curate.ReadFields(r)
			if err != nil {
				t.Fatal(err)
			}
			checkSections(t, r)
			checkClaims(t, r, f)
			checkSources(t, ctx, mods, r, f, extracted, maint)
			checkWrittenAgainst(t, ctx, mods, r, f, extracted)
		})
	}
}

// loadCurated loads dataset/curated and dataset/extracted of the embedded
// dataset, each on its own.
func loadCurated(t *testing.T) (curated, extracted *errkb.Dataset) {
	t.Helper()
	load := func(dir string) *errkb.Dataset {
		sub, err := fs.Sub(errkb.Embedded().FS, dir)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := errkb.Load(errkb.Folder{Name: "dataset/" + dir, FS: sub})
		if err != nil {
			t.Fatalf("dataset/%s: %v", dir, err)
		}
		return ds
	}
	return load(curate.Dir), load("extracted")
}

// checkSections: every section a page shows is filled, the fix shows the
// code before and after, and the file sits where its repo and slug say.
func checkSections(t *testing.T, r *errkb.Record) {
	t.Helper()
	if want := "dataset/" + curate.Dir + "/" + r.Repo + "/" + r.Slug + ".json"; r.Location.File != want {
		t.Errorf("%s: a curated record lives at %s", r.Location.File, want)
	}
	for name, v := range map[string]string{
		"documentation": r.Documentation, "triggerScenarios": r.TriggerScenarios,
		"commonSituations": r.CommonSituations, "exampleFix": r.ExampleFix,
		"validationCode": r.ValidationCode, "tryCatchPattern": r.TryCatchPattern,
	} {
		if strings.TrimSpace(v) == "" {
			t.Errorf("%s is empty", name)
		}
	}
	if len(r.Solutions) == 0 || len(r.PreventionTips) == 0 {
		t.Errorf("%d solutions and %d prevention tips; want at least one of each", len(r.Solutions), len(r.PreventionTips))
	}
	if !curate.HasBeforeAndAfter(r.ExampleFix) {
		t.Error(`exampleFix does not show the code before ("// before") and after ("// after") the fix`)
	}
	if !curate.ValidStrategy(r.HandlingStrategy) {
		t.Errorf("handlingStrategy %q is none of %v", r.HandlingStrategy, curate.Strategies)
	}
}

// checkClaims: each claim ends with a link to a source; every URL of the
// prose is a source and every source is linked.
func checkClaims(t *testing.T, r *errkb.Record, f curate.Fields) {
	t.Helper()
	sources := map[string]bool{}
	for _, s := range f.Sources {
		if sources[s.URL] {
			t.Errorf("source %s listed twice", s.URL)
		}
		sources[s.URL] = true
		if strings.TrimSpace(s.Note) == "" {
			t.Errorf("source %s has no note saying what it shows", s.URL)
		}
	}
	if len(f.Sources) == 0 {
		t.Fatal("no sources")
	}
	for _, c := range curate.Claims(r) {
		u, ok := c.SourceURL()
		if !ok {
			t.Errorf("%s: claim without a source link at its end: %q", c.Where(), c.Text)
		} else if !sources[u] {
			t.Errorf("%s: claim cites %s, which sources does not list", c.Where(), u)
		}
	}
	linked := map[string]bool{}
	for _, u := range curate.URLs(r) {
		linked[u] = true
		if !sources[u] {
			t.Errorf("the prose links to %s, which sources does not list", u)
		}
	}
	for u := range sources {
		if !linked[u] {
			t.Errorf("source %s is not linked from any claim", u)
		}
	}
}

// checkSources: each source is a code line at a version the record was
// written for, a docs page, or a thread cited for a listed maintainer's
// answer; code lines exist in the module at that version.
func checkSources(t *testing.T, ctx context.Context, mods *curate.Modules, r *errkb.Record, f curate.Fields,
	extracted *errkb.Dataset, maint []string) {
	t.Helper()
	if f.WrittenFor[r.Repo] == "" {
		t.Fatalf("writtenFor %v lacks the record's own repo %s", f.WrittenFor, r.Repo)
	}
	for repo := range f.WrittenFor {
		if _, ok := extracted.Provenance[repo]; !ok {
			t.Errorf("writtenFor names %s, which the dataset has no module for", repo)
		}
	}
	links := []string{r.GithubURL}
	for _, s := range f.Sources {
		kind, err := curate.Classify(s.URL)
		if err != nil {
			t.Error(err)
			continue
		}
		switch kind {
		case curate.CodeLine:
			links = append(links, s.URL)
		case curate.Thread:
			handles := curate.Handles(s.Note)
			if len(handles) == 0 {
				t.Errorf("%s: the note does not name the maintainer whose answer it cites (@handle)", s.URL)
			}
			for _, h := range handles {
				if !slices.Contains(maint, h) {
					t.Errorf("%s: @%s is not listed in the MAINTAINERS.md of the modules", s.URL, h)
				}
			}
		}
	}
	for _, u := range links {
		if u == "" {
			continue
		}
		l, ok := curate.ParseCodeLink(u)
		if !ok {
			t.Errorf("%s: not a link to lines at a version", u)
			continue
		}
		if v := f.WrittenFor[l.Repo]; v != l.Version {
			t.Errorf("%s: links %s at %s, but the record was written for %q", u, l.Repo, l.Version, v)
			continue
		}
		lines, err := moduleFile(ctx, t, mods, extracted, l.Repo, l.Version, l.Path)
		if err != nil {
			t.Error(err)
			continue
		}
		if l.End > len(lines) {
			t.Errorf("%s: %s has %d lines at %s", u, l.Path, len(lines), l.Version)
		}
	}
}

// checkWrittenAgainst: the record explains the error the extractor sees.
// With an extracted record of the same repo and slug, the ids agree and
// the message, location and identity fields are the extracted ones; a
// difference at a later version makes the record stale. Without one (an
// error the extractor does not find), the line the record points at must
// still define its identifier at the dataset's version.
func checkWrittenAgainst(t *testing.T, ctx context.Context, mods *curate.Modules, r *errkb.Record, f curate.Fields, extracted *errkb.Dataset) {
	t.Helper()
	written := f.WrittenFor[r.Repo]
	current := extracted.Provenance[r.Repo].Version
	ext, ok := extracted.ByPath(r.Repo, r.Slug)
	if ok {
		if r.ID != ext.ID {
			t.Errorf("id %s, but the extracted record it explains has %s", r.ID, ext.ID)
		}
		if drift := curate.Drift(r, ext); len(drift) > 0 {
			if written == current {
				t.Errorf("disagrees with the extracted record of the same version (%s):\n  %s", current, strings.Join(drift, "\n  "))
			} else {
				t.Errorf("stale: written for %s; at %s the extracted record differs:\n  %s\n(review the record against the new code, then set writtenFor)",
					written, current, strings.Join(drift, "\n  "))
			}
		}
		return
	}
	lines, err := moduleFile(ctx, t, mods, extracted, r.Repo, current, r.FilePath)
	if err != nil {
		t.Error(err)
		return
	}
	if r.LineNumber < 1 || r.LineNumber > len(lines) || !strings.Contains(lines[r.LineNumber-1], r.ErrorCode) {
		t.Errorf("stale: written for %s against %s:%d defining %s, which %s at %s no longer has", written, r.FilePath, r.LineNumber, r.ErrorCode, r.Repo, current)
	}
}

// moduleFile reads a file of repo's module at version.
func moduleFile(ctx context.Context, t *testing.T, mods *curate.Modules, extracted *errkb.Dataset, repo, version, path string) ([]string, error) {
	t.Helper()
	module := extracted.Provenance[repo].Module
	if module == "" {
		return nil, fmt.Errorf("no module is known for %s", repo)
	}
	if _, err := mods.Dir(ctx, module, version); err != nil {
		needNetwork(t, err)
	}
	return mods.File(ctx, module, version, path)
}

// maintainers lists the handles in the MAINTAINERS.md of every module of
// repos the dataset was extracted from, at that version.
func maintainers(t *testing.T, ctx context.Context, mods *curate.Modules, extracted *errkb.Dataset, repos map[string]bool) []string {
	t.Helper()
	var out []string
	for repo, p := range extracted.Provenance {
		if !repos[repo] {
			continue // only the projects curated records explain cite their maintainers
		}
		lines, err := moduleFile(ctx, t, mods, extracted, repo, p.Version, "MAINTAINERS.md")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, curate.Maintainers(strings.Join(lines, "\n"))...)
	}
	if len(out) == 0 {
		t.Fatal("no maintainer handles in the modules' MAINTAINERS.md")
	}
	return out
}

// TestEvidence: dataset/curated/EVIDENCE.md, which says why each error was
// chosen, lists every curated record, and counts only threads it links.
func TestEvidence(t *testing.T) {
	curated, _ := loadCurated(t)
	b, err := fs.ReadFile(errkb.Embedded().FS, curate.Dir+"/EVIDENCE.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, r := range curated.Records {
		if !strings.Contains(md, "`"+r.Path()+"`") {
			t.Errorf("EVIDENCE.md does not list %s", r.Path())
		}
	}
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "- `") || !strings.Contains(line, "): <") {
			continue
		}
		for _, u := range strings.Split(line[strings.Index(line, "): ")+3:], ", ") {
			u = strings.Trim(u, "<>")
			if kind, err := curate.Classify(u); err != nil || kind != curate.Thread {
				t.Errorf("EVIDENCE.md counts %q, which is not an issue, pull request or discussion thread", u)
			}
		}
	}
}
