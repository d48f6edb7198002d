package kbgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
)

// options are the validated command-line settings.
type options struct {
	n       int
	out     string
	seed    uint64
	perFile int
	format  string
	force   bool
}

// batchSize records are encoded per work item: large enough to amortize
// channel traffic, small enough to keep memory bounded.
const batchSize = 256

// progressEvery is how often (in records) progress goes to stderr.
const progressEvery = 10000

// batch is the encoded output of records [start, start+len(ends)).
type batch struct {
	buf   []byte
	ends  []int
	paths []string
	err   error
}

// encodeBatch encodes records one JSON envelope per line. HTML escaping is
// off so Markdown such as `<stream>` is stored verbatim, as in the seed.
func encodeBatch(g *Generator, start, end int, withPaths bool) batch {
	var buf bytes.Buffer
	buf.Grow((end - start) * 5200)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	b := batch{ends: make([]int, 0, end-start)}
	for i := start; i < end; i++ {
		env := g.Envelope(i)
		if err := enc.Encode(&env); err != nil {
			b.err = err
			return b
		}
		b.ends = append(b.ends, buf.Len())
		if withPaths {
			b.paths = append(b.paths, filepath.Join(filepath.FromSlash(env.Record.Repo), env.Record.Slug+".json"))
		}
	}
	b.buf = buf.Bytes()
	return b
}

// produce encodes records on all CPUs and hands batches to emit in index
// order, so the output is identical to a sequential run.
func produce(g *Generator, n int, withPaths bool, emit func(start int, b batch) error) error {
	workers := runtime.GOMAXPROCS(0)
	type job struct {
		start int
		res   chan batch
	}
	jobs := make(chan job)
	order := make(chan chan batch, 2*workers)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		defer close(order)
		defer close(jobs)
		for start := 0; start < n; start += batchSize {
			res := make(chan batch, 1)
			select {
			case order <- res:
			case <-quit:
				return
			}
			select {
			case jobs <- job{start, res}:
			case <-quit:
				return
			}
		}
	}()
	for range workers {
		go func() {
			for j := range jobs {
				j.res <- encodeBatch(g, j.start, min(j.start+batchSize, n), withPaths)
			}
		}()
	}
	start := 0
	for res := range order {
		b := <-res
		if b.err != nil {
			return b.err
		}
		if err := emit(start, b); err != nil {
			return err
		}
		start += len(b.ends)
	}
	return nil
}

// generate writes the data set described by o and reports progress.
func generate(o options, progress io.Writer) error {
	g := NewGenerator(o.seed)
	var (
		total   int64
		files   int
		cur     *os.File
		w       *bufio.Writer
		lastDir string
	)
	closeCur := func() error {
		if cur == nil {
			return nil
		}
		err := errors.Join(w.Flush(), cur.Close())
		cur = nil
		return err
	}
	emit := func(start int, b batch) error {
		prev := 0
		for j, end := range b.ends {
			i, line := start+j, b.buf[prev:end]
			prev = end
			if o.format == "json" {
				path := filepath.Join(o.out, b.paths[j])
				if dir := filepath.Dir(path); dir != lastDir {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						return err
					}
					lastDir = dir
				}
				if err := os.WriteFile(path, line, 0o644); err != nil {
					return err
				}
				files++
			} else {
				if i%o.perFile == 0 {
					if err := closeCur(); err != nil {
						return err
					}
					f, err := os.Create(filepath.Join(o.out, fmt.Sprintf("part-%05d.jsonl", i/o.perFile)))
					if err != nil {
						return err
					}
					cur, w = f, bufio.NewWriterSize(f, 1<<20)
					files++
				}
				if _, err := w.Write(line); err != nil {
					return err
				}
			}
			total += int64(len(line))
			if (i+1)%progressEvery == 0 && i+1 < o.n {
				fmt.Fprintf(progress, "kbgen: %d/%d records, %.1f MB\n", i+1, o.n, float64(total)/1e6)
			}
		}
		return nil
	}
	err := produce(g, o.n, o.format == "json", emit)
	if err = errors.Join(err, closeCur()); err != nil {
		return err
	}
	fmt.Fprintf(progress, "kbgen: wrote %d records (%.1f MB) in %d files to %s\n", o.n, float64(total)/1e6, files, o.out)
	return nil
}

// prepareOut makes sure out can receive the data set. An existing
// non-empty directory is refused unless force is set, so a typo cannot mix
// two data sets; with force, stale part files are removed for the same
// reason.
func prepareOut(o options) error {
	fi, err := os.Stat(o.out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(o.out, 0o755)
	case err != nil:
		return err
	case !fi.IsDir():
		return usageError{fmt.Sprintf("-out %s exists and is not a directory", o.out)}
	}
	entries, err := os.ReadDir(o.out)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !o.force {
		return usageError{fmt.Sprintf("-out %s exists and is not empty (use -force to write into it)", o.out)}
	}
	if o.format == "jsonl" {
		stale, _ := filepath.Glob(filepath.Join(o.out, "part-[0-9]*.jsonl"))
		for _, f := range stale {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}
