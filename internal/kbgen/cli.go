// Package kbgen generates deterministic, clearly fictional datasets of
// errkb records. It is a package rather than only a command so that the
// benchmarks of every package can build datasets of any size without
// shipping them in the repository; cmd/kbgen is its command line.
//
// Usage of the command:
//
//	kbgen -n N -out DIR [-seed S] [-per-file K] [-format jsonl|json] [-force]
//
// The same flags always produce byte-identical output.
package kbgen

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Main runs the kbgen command line and returns its exit status.
func Main(args []string, stderr io.Writer) int { return run(args, stderr) }

// Write generates n records of seed into dir (created if absent; it must
// be empty) as JSONL part files, the layout the benchmarks load.
func Write(dir string, n int, seed uint64) error {
	o := options{n: n, out: dir, seed: seed, perFile: 1000, format: "jsonl"}
	if err := prepareOut(o); err != nil {
		return err
	}
	return generate(o, io.Discard)
}

// usageError marks a problem with the flags, reported with exit status 2
// so scripts can tell misuse from a failed run (status 1).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// run is main without os.Exit so tests can drive the whole command.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("kbgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.n, "n", 0, "number of records to generate (required, >= 1)")
	fs.StringVar(&o.out, "out", "", "output directory (required; must be absent or empty unless -force)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed; the same flags always produce identical output")
	fs.IntVar(&o.perFile, "per-file", 1000, "records per part-NNNNN.jsonl file (jsonl format)")
	fs.StringVar(&o.format, "format", "jsonl", "jsonl: part files of one envelope per line; json: DIR/<owner>/<repo>/<slug>.json")
	fs.BoolVar(&o.force, "force", false, "write into a non-empty -out (stale part files are removed)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: kbgen -n N -out DIR [-seed S] [-per-file K] [-format jsonl|json] [-force]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if err := validate(fs, o); err != nil {
		fmt.Fprintln(stderr, "kbgen:", err)
		fs.Usage()
		return 2
	}
	if err := prepareOut(o); err != nil {
		fmt.Fprintln(stderr, "kbgen:", err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	if err := generate(o, stderr); err != nil {
		fmt.Fprintln(stderr, "kbgen:", err)
		return 1
	}
	return 0
}

// validate rejects flag combinations that cannot produce a data set.
func validate(fs *flag.FlagSet, o options) error {
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	case o.n < 1:
		return usageError{fmt.Sprintf("-n must be >= 1 (got %d)", o.n)}
	case o.out == "":
		return usageError{"-out is required"}
	case o.perFile < 1:
		return usageError{fmt.Sprintf("-per-file must be >= 1 (got %d)", o.perFile)}
	case o.format != "jsonl" && o.format != "json":
		return usageError{fmt.Sprintf("-format must be jsonl or json (got %q)", o.format)}
	}
	return nil
}
