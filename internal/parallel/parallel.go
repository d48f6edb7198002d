// Package parallel runs independent pieces of work on every CPU.
package parallel

import (
	"runtime"
	"sync"
)

// For calls fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines and
// returns when all calls have. fn must be safe to call concurrently; each
// i is handed out once, in increasing order.
func For(n int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
