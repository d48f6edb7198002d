package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/natserrors"
)

const extractUsage = `usage: errkb extract [--out DIR] [--repo OWNER/NAME] [--ref REF] SOURCE...

SOURCE is a Go module's root folder or MODULE@VERSION (downloaded through
the Go module proxy with its checksum verified, as "go mod download" does).
Each module's errors are written to DIR/OWNER/NAME/, one record a file,
with _source.json and the module's license beside them.

`

// extractCmd writes the records of each SOURCE; progress goes to stderr.
func extractCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, extractUsage); fs.PrintDefaults() }
	out := fs.String("out", "errkb-records", "folder to write the records to")
	repo := fs.String("repo", "", "GitHub repo OWNER/NAME of the source (needed when the module path is not github.com/OWNER/NAME)")
	ref := fs.String("ref", "", "commit or tag that source links point at (default: the module's commit when known, else its version tag)")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if fs.NArg() > 1 && (*repo != "" || *ref != "") {
		fmt.Fprintln(stderr, "errkb extract: --repo and --ref apply to one SOURCE; give one at a time")
		return 2
	}
	for _, src := range fs.Args() {
		if err := extractOne(ctx, src, *out, *repo, *ref, stderr); err != nil {
			fmt.Fprintf(stderr, "errkb extract: %v\n", err)
			return 1
		}
	}
	return 0
}

func extractOne(ctx context.Context, src, out, repo, ref string, stderr io.Writer) error {
	start := time.Now()
	s, err := extract.Resolve(ctx, src, repo, ref)
	if err != nil {
		return err
	}
	o := s.Origin
	table, err := natserrors.Open(s.Dir, o.Module)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	var opts extract.Options
	if table != nil {
		opts.TrackCalls = table.Track()
	}
	res, err := extract.Dir(s.Dir, opts)
	if err != nil {
		return err
	}
	for _, p := range res.Problems {
		fmt.Fprintf(stderr, "errkb extract: %s: skipped %s\n", src, p)
	}
	errs := res.Errors
	if table != nil {
		errs = append(errs, table.Errors(res.Calls)...)
	}
	if len(errs) == 0 {
		return fmt.Errorf("%s: %w", src, extract.ErrNoErrors)
	}
	recs, err := extract.Records(errs, s.Dir, o)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	licName, licText, spdx := extract.License(s.Dir)
	prov := errkb.Provenance{Repo: o.Repo, Module: o.Module, Version: o.Version, Commit: o.Commit,
		License: spdx, LicenseFile: licName, Tool: extract.Tool}
	if err := extract.Write(out, recs, prov, licName, licText); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	kinds := map[extract.Kind]int{}
	for _, e := range errs {
		kinds[e.Kind]++
	}
	fmt.Fprintf(stderr, "errkb extract: %s: %d files, %d records (%d sentinels, %d made in functions, %d error types, %d API errors), %d files skipped, in %s -> %s\n",
		src, res.Files, len(recs), kinds[extract.Sentinel], kinds[extract.Call], kinds[extract.Type], kinds[extract.API],
		len(res.Problems), time.Since(start).Round(time.Millisecond), filepath.Join(out, filepath.FromSlash(o.Repo)))
	return nil
}
