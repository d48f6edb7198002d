//go:build !unix

package annotate

import "time"

// cpuTime is unknown here; the CPU metric is then left out.
func cpuTime() time.Duration { return 0 }
