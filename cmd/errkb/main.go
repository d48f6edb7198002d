// Command errkb serves the error knowledge base, looks errors up in the
// terminal and validates datasets. See README.md for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopProfile := cpuProfile(os.Getenv("ERRKB_CPUPROFILE"))
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stopProfile()
	stop()
	os.Exit(code)
}

// cpuProfile writes a CPU profile of the whole run to path, when one is
// given (ERRKB_CPUPROFILE), so start-up and one-shot commands such as
// lookup can be profiled as users run them. It returns the function that
// ends the profile.
func cpuProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "errkb: ERRKB_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "errkb: ERRKB_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

const usage = `errkb: a searchable knowledge base of software errors

Usage:
  errkb [serve] [--addr ADDR] [--dataset DIR]... [--base-url URL] [--skip-invalid] [--index-dir DIR]
  errkb lookup [--json] [--dataset DIR]... QUERY...
  errkb annotate [--dataset DIR]... [--url BASE] [--base-url URL] [--json] [FILE...]
  errkb export --out DIR [--base-url URL] [--force] [--dataset DIR]...
  errkb validate [PATH...]
  errkb extract [--out DIR] [--repo OWNER/NAME] [--ref REF] [--tags T,U] [--include-tests] SOURCE...
  errkb version

Run "errkb COMMAND -h" for the flags of a command.
`

// run is main without the exit, so tests can call it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	cmd := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, stderr, getenv)
	case "lookup":
		return lookup(ctx, args, stdout, stderr, getenv)
	case "annotate":
		return annotateCmd(ctx, args, os.Stdin, stdout, stderr, getenv)
	case "export":
		return exportCmd(ctx, args, stdout, stderr, getenv)
	case "validate":
		return validate(args, stdout, stderr)
	case "extract":
		return extractCmd(ctx, args, stdout, stderr, getenv)
	case "version":
		fmt.Fprintln(stdout, versionString())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "errkb: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}

// parseExit is the exit code after a flag parse error: 0 when the user
// asked for -h, 2 for a bad flag (the flag package has printed why).
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}
