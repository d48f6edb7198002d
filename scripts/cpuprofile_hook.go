//go:build ignore

// cpuprofile_hook.go is copied by scripts/load.sh into a temporary copy of
// cmd/errkb, for the profiles in BENCHMARKS.md only; errkb itself has no
// profiling endpoint. It writes a CPU profile of the window from
// ERRKB_PROF_DELAY seconds after start, ERRKB_PROF_SECONDS long, to
// ERRKB_CPUPROFILE.
package main

import (
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

func init() {
	out := os.Getenv("ERRKB_CPUPROFILE")
	if out == "" {
		return
	}
	delay, _ := strconv.Atoi(os.Getenv("ERRKB_PROF_DELAY"))
	secs, _ := strconv.Atoi(os.Getenv("ERRKB_PROF_SECONDS"))
	go func() {
		time.Sleep(time.Duration(delay) * time.Second)
		f, err := os.Create(out)
		if err != nil {
			return
		}
		defer f.Close()
		if pprof.StartCPUProfile(f) == nil {
			time.Sleep(time.Duration(secs) * time.Second)
			pprof.StopCPUProfile()
		}
	}()
}
