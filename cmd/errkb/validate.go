package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/errkb/errkb"
)

// validate checks datasets and prints every problem; exit 1 on any.
func validate(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			fmt.Fprintln(stdout, "usage: errkb validate [PATH...]   (default: the embedded dataset)")
			return 0
		}
	}
	dirs, err := folders(args)
	if err != nil {
		fmt.Fprintf(stderr, "errkb validate: %v\n", err)
		return 1
	}
	ds, err := errkb.Load(dirs...)
	var probs errkb.Problems
	if err != nil && !errors.As(err, &probs) {
		fmt.Fprintf(stderr, "errkb validate: %v\n", err)
		return 1
	}
	for _, p := range probs {
		fmt.Fprintln(stdout, p.String())
	}
	fmt.Fprintf(stdout, "%d valid records, %d problems\n", ds.Len(), len(probs))
	if len(probs) > 0 {
		return 1
	}
	return 0
}

// versionString names the build: module version and VCS revision when known.
func versionString() string {
	v, rev := "(devel)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " " + s.Value[:12]
			}
		}
	}
	return "errkb " + v + rev + " (dataset " + embeddedVersion() + ")"
}

func embeddedVersion() string {
	ds, err := errkb.Load(errkb.Embedded())
	if err != nil {
		return "invalid"
	}
	return ds.Version()
}
