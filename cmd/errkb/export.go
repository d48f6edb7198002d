package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/errkb/errkb/export"
	"github.com/errkb/errkb/web"
)

// exportCmd writes the whole site as static files.
func exportCmd(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "folder to write the site to; must not exist or be empty (required)")
	force := fs.Bool("force", false, "write into a folder that is not empty (an earlier export there is replaced)")
	baseURL := fs.String("base-url", "", "absolute URL the files will be served at, e.g. https://docs.example.com/kb (needed for the sitemap and OpenSearch)")
	var datasets datasetFlag
	fs.Var(&datasets, "dataset", "dataset folder instead of the embedded one; repeatable (env ERRKB_DATASET)")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: errkb export --out DIR [--base-url URL] [--force] [--dataset DIR]...")
		return 2
	}
	started := time.Now()
	ds, ix, done, err := loadIndexed(ctx, datasetPaths(datasets, getenv))
	if err != nil {
		fmt.Fprintf(stderr, "errkb export: %v\n", err)
		return 1
	}
	defer done()
	// The real server renders every file, so the export holds its bytes.
	// Each page is asked for once: nothing is worth keeping in its cache.
	broken, err := brokenSamples(datasetPaths(datasets, getenv))
	if err != nil {
		fmt.Fprintf(stderr, "errkb export: %v\n", err)
		return 1
	}
	srv := web.New(ds, web.Config{BaseURL: *baseURL, CacheBytes: 1, BrokenSamples: broken})
	srv.SetSearcher(ix)
	st, err := export.Run(ctx, srv, export.Options{Routes: web.Routes(), Out: *out, Force: *force, BaseURL: *baseURL})
	if err != nil {
		fmt.Fprintf(stderr, "errkb export: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "errkb export: wrote %d pages and %d files (%d errors, %.1f MB) to %s in %s\n",
		st.Pages, st.Files, st.Records, float64(st.Bytes)/(1<<20), *out, time.Since(started).Round(time.Millisecond))
	if *baseURL == "" {
		fmt.Fprintln(stdout, "errkb export: no --base-url, so sitemap.xml and opensearch.xml, which need absolute URLs, were left out")
	}
	return 0
}
