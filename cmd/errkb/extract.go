package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/errkb/errkb"
	"github.com/errkb/errkb/extract"
	"github.com/errkb/errkb/extract/natserrors"
	"github.com/errkb/errkb/extract/program"
)

const extractUsage = `usage: errkb extract [--out DIR] [--repo OWNER/NAME] [--ref REF] [--tags T,U] [--include-tests] [--history FILE] SOURCE...

SOURCE is a Go module's root folder; MODULE@VERSION (downloaded through
the Go module proxy with its checksum verified, as "go mod download" does);
std, the standard library of the local Go; or std@goX.Y.Z, that Go
release's, from the module proxy. Each module's errors are written to
DIR/OWNER/NAME/, one record a file, with _source.json and the module's
license beside them. Files are chosen as go build would for this GOOS and
GOARCH; tests, examples, benchmarks and test helpers are left out.

--history FILE lists older SOURCEs, one a line, oldest first: each is read
for its messages and identities only and folded into the history of the
SOURCE of the same module (docs/extract.md, "Older versions").

`

// extractFlags are the options of one extract run.
type extractFlags struct {
	out, repo, ref string
	history        string // a file of older SOURCEs
	tags           []string
	tests          bool
	getenv         func(string) string
}

// extractCmd writes the records of each SOURCE; progress goes to stderr.
func extractCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, extractUsage); fs.PrintDefaults() }
	f := extractFlags{getenv: getenv}
	fs.StringVar(&f.out, "out", "errkb-records", "folder to write the records to")
	fs.StringVar(&f.repo, "repo", "", "GitHub repo OWNER/NAME of the source (needed when the module path is not github.com/OWNER/NAME or golang.org/x/NAME)")
	fs.StringVar(&f.ref, "ref", "", "commit or tag that source links point at (default: the module's commit when known, else its version tag)")
	tags := fs.String("tags", "", "comma-separated build tags to add to the default build constraints, as go build -tags")
	fs.BoolVar(&f.tests, "include-tests", false, "also extract test files, examples, benchmarks and test-helper packages")
	fs.StringVar(&f.history, "history", "", "file of older SOURCEs, one a line, oldest first, whose messages make the records' history")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if fs.NArg() > 1 && (f.repo != "" || f.ref != "") {
		fmt.Fprintln(stderr, "errkb extract: --repo and --ref apply to one SOURCE; give one at a time")
		return 2
	}
	for _, t := range strings.Split(*tags, ",") {
		if t = strings.TrimSpace(t); t != "" {
			f.tags = append(f.tags, t)
		}
	}
	// Every source is extracted before any is written: faces join the
	// records of all of them (a server's errors and its client's).
	var done []*extracted
	for _, src := range fs.Args() {
		x, err := extractOne(ctx, src, f, stderr)
		if err != nil {
			fmt.Fprintf(stderr, "errkb extract: %v\n", err)
			return 1
		}
		done = append(done, x)
	}
	batches := make([]*extract.Batch, len(done))
	for i, x := range done {
		batches[i] = &x.Batch
	}
	extract.JoinFaces(batches)
	if err := foldHistory(ctx, done, f, stderr); err != nil {
		fmt.Fprintf(stderr, "errkb extract: %v\n", err)
		return 1
	}
	for _, x := range done {
		if err := extract.Write(f.out, x.Records, x.prov, x.licName, x.licText); err != nil {
			fmt.Fprintf(stderr, "errkb extract: %s: %v\n", x.src, err)
			return 1
		}
		fmt.Fprintf(stderr, "errkb extract: %s: %s\n", x.src, x.summary)
	}
	return 0
}

// extracted is one source's records, ready to write.
type extracted struct {
	extract.Batch
	src, summary string
	prov         errkb.Provenance
	licName      string
	licText      []byte
}

func extractOne(ctx context.Context, src string, f extractFlags, stderr io.Writer) (*extracted, error) {
	start := time.Now()
	say := func(msg string) { fmt.Fprintf(stderr, "errkb extract: %s: %s\n", src, msg) }
	say("resolving")
	s, err := extract.Resolve(ctx, src, f.repo, f.ref)
	if err != nil {
		return nil, err
	}
	o := &s.Origin
	prog, err := extract.Load(ctx, s, extract.LoadOptions{Tags: f.tags, Tests: f.tests, Progress: say})
	if err != nil {
		return nil, err
	}
	if o.Time == "" {
		o.Time = sourceDateEpoch(f.getenv)
	}
	if o.Time == "" {
		o.Time = extract.FolderTime(ctx, s, prog)
	}
	reportLoad(prog, say)
	table, err := natserrors.Open(s.Dir, o.Module)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	var opts extract.Options
	if table != nil {
		opts.TrackCalls = table.Track()
	}
	res := extract.Extract(prog, opts)
	reportProblems(res.Problems, say)
	errs := res.Errors
	if table != nil {
		errs = append(errs, table.Errors(res.Calls)...)
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("%s: %w", src, extract.ErrNoErrors)
	}
	recs, err := extract.Records(errs, s.Dir, *o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	if err := fillKnowledge(ctx, s, f, table, errs, recs, say); err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	licName, licText, spdx := extract.License(licenseDir(s))
	prov := errkb.Provenance{Repo: o.Repo, Module: o.Module, Version: o.Version, Commit: o.Commit,
		License: spdx, LicenseFile: licName, Tool: extract.Tool}
	kinds := map[extract.Kind]int{}
	for _, e := range errs {
		kinds[e.Kind]++
	}
	summary := fmt.Sprintf("%s, %s, %s (%d sentinels, %d made in functions, %d error types, %d API errors, %d log lines, %d protocol errors), in %s -> %s",
		count(len(prog.Packages), "package"), count(res.Files, "file"), count(len(recs), "record"),
		kinds[extract.Sentinel], kinds[extract.Call], kinds[extract.Type], kinds[extract.API], kinds[extract.Log], kinds[extract.Protocol],
		time.Since(start).Round(time.Millisecond), filepath.Join(f.out, filepath.FromSlash(o.Repo)))
	return &extracted{Batch: extract.Batch{Origin: *o, Errors: errs, Records: recs}, src: src, summary: summary,
		prov: prov, licName: licName, licText: licText}, nil
}

// licenseDir is where a source's license is: the module's root, or for
// the standard library GOROOT, above src.
func licenseDir(s extract.Source) string {
	if s.Origin.Module == "std" {
		return filepath.Dir(s.Dir)
	}
	return s.Dir
}

// sourceDateEpoch is SOURCE_DATE_EPOCH as a time, or "": the time a build
// may name for its sources (reproducible-builds.org), which analyzedAt
// takes for a folder whose version has no time of its own.
func sourceDateEpoch(getenv func(string) string) string {
	sec, err := strconv.ParseInt(getenv("SOURCE_DATE_EPOCH"), 10, 64)
	if err != nil {
		return ""
	}
	return time.Unix(sec, 0).UTC().Format(time.RFC3339)
}

// reportLoad says what the loader left out, so nothing is dropped
// silently.
func reportLoad(prog *program.Program, say func(string)) {
	if prog.Excluded > 0 {
		say(fmt.Sprintf("%s excluded by build constraints (other platforms, tags not given; --tags adds tags)", count(prog.Excluded, "file")))
	}
	if n := len(prog.Skipped); n > 0 {
		var names []string
		for _, s := range prog.Skipped[:min(n, 5)] {
			names = append(names, s.Path+" ("+s.Reason+")")
		}
		more := ""
		if n > 5 {
			more = fmt.Sprintf(" and %d more", n-5)
		}
		say(fmt.Sprintf("left out %s as tests, examples, benchmarks or test helpers (--include-tests keeps them): %s%s",
			count(n, "package"), strings.Join(names, ", "), more))
	}
}

// reportProblems prints what the loader could not read: the first ten,
// then how many more.
func reportProblems(probs []extract.Problem, say func(string)) {
	for i, p := range probs {
		if i == 10 {
			say(fmt.Sprintf("and %d more problems", len(probs)-10))
			break
		}
		say(p.String())
	}
}

// count is "1 file", "2 files".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
