package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/natserrors"
)

// readSources is the SOURCEs a file lists, one a line; blank lines and
// lines starting with # are skipped, as in dataset/sources.txt.
func readSources(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

// extractOlder extracts each older SOURCE cheaply and groups the releases
// by module, in the order given (oldest first).
func extractOlder(ctx context.Context, srcs []string, f extractFlags, stderr io.Writer) (map[string][]extract.Release, error) {
	out := map[string][]extract.Release{}
	for _, src := range srcs {
		mod, rel, err := extractRelease(ctx, src, f, stderr)
		if err != nil {
			return nil, err
		}
		out[mod] = append(out[mod], rel)
	}
	return out, nil
}

// extractRelease reads an older version of a module for its history:
// its errors and their records only. The knowledge a page shows is the
// newest version's, so the older ones skip the second load with tests,
// the SSA form surfaces are read from, and faces.
func extractRelease(ctx context.Context, src string, f extractFlags, stderr io.Writer) (string, extract.Release, error) {
	start := time.Now()
	say := func(msg string) { fmt.Fprintf(stderr, "errkb extract: %s (history): %s\n", src, msg) }
	s, err := extract.Resolve(ctx, src, f.repo, "")
	if err != nil {
		return "", extract.Release{}, err
	}
	o := &s.Origin
	prog, err := extract.Load(ctx, s, extract.LoadOptions{Tags: f.tags, Progress: say})
	if err != nil {
		return "", extract.Release{}, err
	}
	if o.Time == "" {
		o.Time = sourceDateEpoch(f.getenv)
	}
	table, err := natserrors.Open(s.Dir, o.Module)
	if err != nil {
		return "", extract.Release{}, fmt.Errorf("%s: %w", src, err)
	}
	opts := extract.Options{NoSurface: true}
	if table != nil {
		opts.TrackCalls = table.Track()
	}
	res := extract.Extract(prog, opts)
	errs := res.Errors
	if table != nil {
		errs = append(errs, table.Errors(res.Calls)...)
	}
	recs, err := extract.Records(errs, s.Dir, *o)
	if err != nil {
		return "", extract.Release{}, fmt.Errorf("%s: %w", src, err)
	}
	say(fmt.Sprintf("%s in %s", count(len(recs), "record"), time.Since(start).Round(time.Millisecond)))
	return o.Module, extract.Release{Version: releaseVersion(*o, src), Errors: errs, Records: recs}, nil
}

// releaseVersion names a release in a history: its version, else the
// ref its links point at (--ref), else its commit, else the SOURCE as
// given (a folder).
func releaseVersion(o extract.Origin, src string) string {
	switch {
	case o.Version != "":
		return o.Version
	case o.Ref != "":
		return o.Ref
	case o.Commit != "":
		return o.Commit
	}
	return src
}

// foldHistory extracts the older SOURCEs of f.history and folds each
// module's into the records of its newest SOURCE. An older SOURCE of a
// module no SOURCE names is an error: its history would go nowhere.
func foldHistory(ctx context.Context, done []*extracted, f extractFlags, stderr io.Writer) error {
	if f.history == "" {
		return nil
	}
	srcs, err := readSources(f.history)
	if err != nil {
		return fmt.Errorf("--history: %w", err)
	}
	start := time.Now()
	older, err := extractOlder(ctx, srcs, f, stderr)
	if err != nil {
		return err
	}
	for _, x := range done {
		rels, ok := older[x.Origin.Module]
		if !ok {
			continue
		}
		delete(older, x.Origin.Module)
		newest := extract.Release{Version: releaseVersion(x.Origin, x.src), Errors: x.Errors, Records: x.Records}
		x.Records = extract.Fold(newest, rels)
		removed, reworded := 0, 0
		for _, r := range x.Records {
			if r.History.RemovedIn != "" {
				removed++
			} else if len(r.History.Messages) > 0 {
				reworded++
			}
		}
		fmt.Fprintf(stderr, "errkb extract: %s: history of %d older versions: %d records reworded, %d removed\n", x.src, len(rels), reworded, removed)
	}
	for mod := range older {
		return fmt.Errorf("--history: module %s has older versions but no SOURCE", mod)
	}
	fmt.Fprintf(stderr, "errkb extract: history read in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}
