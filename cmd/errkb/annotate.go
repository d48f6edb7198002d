package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/errkb/errkb/annotate"
	"github.com/errkb/errkb/index"
)

// annotateCmd copies log lines from the files, or stdin, to stdout,
// appending the code and page URL of each error errkb confidently knows.
func annotateCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("annotate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var datasets datasetFlag
	fs.Var(&datasets, "dataset", "dataset folder instead of the embedded one; repeatable (env ERRKB_DATASET)")
	server := fs.String("url", "", "ask the errkb server at this URL (its /api/v1/lookup) instead of a local index")
	baseURL := fs.String("base-url", "", "absolute URL of the site, for the links of a local index (default: site paths)")
	asJSON := fs.Bool("json", false, "add errkb_code and errkb_url keys to lines that are JSON objects")
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if *server != "" && (len(datasets) > 0 || *baseURL != "") {
		fmt.Fprintln(stderr, "errkb annotate: --url asks a server, whose dataset and URLs apply; leave out --dataset and --base-url")
		return 2
	}
	// Files are opened first, so a typo fails at once rather than after
	// the index is built.
	inputs, closeAll, err := openInputs(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "errkb annotate: %v\n", err)
		return 2
	}
	defer closeAll()

	m, cleanup, err := annotateMatcher(ctx, *server, *baseURL, datasetPaths(datasets, getenv))
	if err != nil {
		fmt.Fprintf(stderr, "errkb annotate: %v\n", err)
		return 1
	}
	defer cleanup()

	failed := 0
	var once sync.Once
	opt := annotate.Options{JSON: *asJSON, MaxLineBytes: index.MaxQueryBytes, OnError: func(err error) {
		failed++
		once.Do(func() { fmt.Fprintf(stderr, "errkb annotate: %v (lines pass through unannotated)\n", err) })
	}}
	for _, in := range inputs {
		if err := annotate.Stream(ctx, in, stdout, m, opt); err != nil {
			if errors.Is(err, context.Canceled) {
				return 130
			}
			fmt.Fprintf(stderr, "errkb annotate: %v\n", err)
			return 1
		}
	}
	if failed > 0 {
		fmt.Fprintf(stderr, "errkb annotate: %d lookups failed\n", failed)
		return 1
	}
	return 0
}

// openInputs opens every file named, or stands stdin in for none.
func openInputs(names []string, stdin io.Reader) ([]io.Reader, func(), error) {
	if len(names) == 0 {
		return []io.Reader{stdin}, func() {}, nil
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	var out []io.Reader
	for _, name := range names {
		if name == "-" {
			out = append(out, stdin)
			continue
		}
		f, err := os.Open(name)
		if err == nil {
			var st os.FileInfo
			if st, err = f.Stat(); err == nil && st.IsDir() {
				err = errors.New("is a directory")
			}
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("cannot read %s: %w", name, unwrapPath(err))
		}
		files = append(files, f)
		out = append(out, f)
	}
	return out, closeAll, nil
}

// unwrapPath drops the *PathError wrapper, whose text repeats the name.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// annotateMatcher is the remote matcher when a server URL is given, else
// an index built from the datasets (the embedded one by default).
func annotateMatcher(ctx context.Context, server, baseURL string, paths []string) (annotate.Matcher, func(), error) {
	if server != "" {
		m, err := annotate.NewRemote(ctx, server, nil)
		return m, func() {}, err
	}
	_, ix, done, err := loadIndexed(ctx, paths)
	if err != nil {
		return nil, nil, err
	}
	return annotate.NewLocal(ix, baseURL), done, nil
}
