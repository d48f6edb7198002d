package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/errkb/errkb/explain"
	"github.com/errkb/errkb/index"
	"github.com/errkb/errkb/web"
)

func lookup(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("lookup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the same JSON as /api/v1/lookup")
	var datasets datasetFlag
	fs.Var(&datasets, "dataset", "dataset folder instead of the embedded one; repeatable (env ERRKB_DATASET)")
	baseURL := fs.String("base-url", "", "absolute URL of the site, for the links printed")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	q := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(q) == "" {
		fmt.Fprintln(stderr, "usage: errkb lookup [--json] QUERY...")
		return 2
	}
	if len(q) > index.MaxQueryBytes {
		fmt.Fprintf(stderr, "errkb lookup: the query is longer than %d bytes\n", index.MaxQueryBytes)
		return 2
	}
	_, ix, done, err := loadIndexed(ctx, datasetPaths(datasets, getenv))
	if err != nil {
		fmt.Fprintf(stderr, "errkb lookup: %v\n", err)
		return 2
	}
	defer done()
	res, err := ix.Lookup(ctx, q)
	if err != nil {
		fmt.Fprintf(stderr, "errkb lookup: %v\n", err)
		return 2
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(web.NewLookupResponse(q, res, *baseURL))
	} else if res.Match != nil {
		_ = explain.Text(stdout, res.Match, *baseURL)
		if w := res.Wrapped; w != nil {
			fmt.Fprintf(stdout, "\nIt wraps\n  %s (%s)\n", w.ErrorMessage, w.Repo)
		}
	}
	if res.Match == nil {
		fmt.Fprintf(stderr, "no single error matches %q\n", q)
		if !*asJSON && len(res.Alternatives) > 0 {
			fmt.Fprintln(stderr, "Candidates:")
			for _, h := range res.Alternatives {
				fmt.Fprintf(stderr, "  %-28s %s: %s\n", h.Record.ErrorCode, h.Record.Repo, h.Record.ErrorMessage)
			}
		}
		return 1
	}
	return 0
}
