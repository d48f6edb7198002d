//go:build unix

package index

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU adds a cpu-ms/op metric to b: the process's user+system CPU
// time per operation, which unlike ns/op does not grow when other work
// shares the machine's cores. Call the returned function after the loop.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
