package index

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestFileResident checks that the build reads the file pages the process
// maps: its own binary at least, on Linux.
func TestFileResident(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RssFile is read from /proc")
	}
	if got := fileResident(); got <= 0 {
		t.Fatalf("fileResident() = %d, want the resident pages of the mapped binary", got)
	}
}

// TestBuildGCRestores checks that the collector is set during a build
// and left as it was after it.
func TestBuildGCRestores(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("the environment sets the collector")
	}
	pct, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(pct)
	restore := buildGC(100000)
	during := debug.SetMemoryLimit(-1)
	if budget, floor := buildBudget(100000); during < floor || during > max(budget, floor) {
		t.Errorf("limit during the build = %d, want between %d and the budget", during, floor)
	}
	restore()
	if got := debug.SetGCPercent(pct); got != pct {
		t.Errorf("GOGC after the build = %d, want %d", got, pct)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit after the build = %d, want %d", got, limit)
	}
}

// TestShouldRelease: a serving index releases the pages queries mapped
// as soon as they add up, not on a timer, and releases nothing while idle;
// where resident pages are not known, it falls back to a timer.
func TestShouldRelease(t *testing.T) {
	for _, c := range []struct {
		now, left int64
		since     time.Duration
		want      bool
	}{
		{now: 100 << 20, left: 0, since: releaseCheck, want: true}, // what opening read
		{now: 140 << 20, left: 133 << 20, since: time.Hour, want: false},
		{now: 133<<20 + releaseSlack, left: 133 << 20, since: releaseCheck, want: true},
		{now: 0, left: 0, since: releaseCheck, want: false},
		{now: 0, left: 0, since: releaseInterval, want: true},
	} {
		if got := shouldRelease(c.now, c.left, c.since); got != c.want {
			t.Errorf("shouldRelease(%d MiB, %d MiB, %v) = %v, want %v", c.now>>20, c.left>>20, c.since, got, c.want)
		}
	}
}
