package web

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
)

// admission bounds the expensive work running at once: searches, lookups
// and page renders the cache does not hold. Beyond the workers a short
// queue waits; beyond that the answer is a fast 503 with Retry-After, so a
// flood of costly queries turns into refusals instead of a backlog every
// other request waits behind. Cached pages, static files, health checks and
// metrics never pass through here.
//
// Fairness: one client (address, as Server.clientIP decides it) may hold
// every worker but only half the queue, so while it floods, others still
// find a place in line. A client refused for holding its share already is
// answered only after holdOverShare: a client looping on refusals over
// hundreds of connections would otherwise make thousands of them a
// second, and take the CPU from everyone else's cached pages.
type admission struct {
	workers   chan struct{}
	queued    atomic.Int64
	maxQueued int64
	perClient int

	mu      sync.Mutex
	clients map[string]int // requests running or queued, by client

	held atomic.Int64 // refusals being held; see holdOverShare
}

// Holding refusals of a client over its share: for this long, at most
// maxHeld at once (each is a sleeping goroutine and its buffers); beyond,
// refusals are immediate.
const (
	holdOverShare = 500 * time.Millisecond
	maxHeld       = 1024
)

// refusal says why acquire refused.
type refusal int

const (
	admitted  refusal = iota
	overShare         // the client holds its share of workers and queue
	queueFull         // the queue is full, or the wait ended
)

// Admission defaults: workers are the CPUs Go uses but one, which is left
// to the answers that never wait (cached pages, static files, probes): with
// every CPU running searches, Go's scheduler shares them out among hundreds
// of busy goroutines and a cached page waits its turn. On 2 cores, under
// one client's search flood, a cached page answered 8,394 req/s with one
// worker against 585 with two, and as many searches completed. The queue
// holds eight requests per CPU, a few tenths of a second of typical
// searches at most.
func defaultWorkers() int { return max(1, runtime.GOMAXPROCS(0)-1) }

func newAdmission(workers, queued int) *admission {
	if workers <= 0 {
		workers = defaultWorkers()
	}
	if queued <= 0 {
		queued = 8 * runtime.GOMAXPROCS(0)
	}
	return &admission{
		workers:   make(chan struct{}, workers),
		maxQueued: int64(queued),
		perClient: workers + max(1, queued/2),
		clients:   map[string]int{},
	}
}

// acquire takes a worker for client, waiting in the queue if there is room.
// Unless it returns admitted, it took nothing; otherwise the caller must
// call release.
func (a *admission) acquire(ctx context.Context, client string) refusal {
	a.mu.Lock()
	if a.clients[client] >= a.perClient {
		a.mu.Unlock()
		return overShare
	}
	a.clients[client]++
	a.mu.Unlock()
	select {
	case a.workers <- struct{}{}:
		return admitted
	default:
	}
	if a.queued.Add(1) > a.maxQueued {
		a.queued.Add(-1)
		a.leave(client)
		return queueFull
	}
	defer a.queued.Add(-1)
	select {
	case a.workers <- struct{}{}:
		return admitted
	case <-ctx.Done():
		a.leave(client)
		return queueFull
	}
}

// hold delays the refusal of a client over its share by holdOverShare, or
// until ctx ends, unless maxHeld refusals are held already.
func (a *admission) hold(ctx context.Context) {
	if a.held.Add(1) > maxHeld {
		a.held.Add(-1)
		return
	}
	defer a.held.Add(-1)
	t := time.NewTimer(holdOverShare)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// tryAcquire takes a worker only if one is free now, for optional work (the
// suggestions of a 404 page) that is better skipped than waited for.
func (a *admission) tryAcquire() bool {
	select {
	case a.workers <- struct{}{}:
		return true
	default:
		return false
	}
}

// done gives back a worker taken by tryAcquire.
func (a *admission) done() { <-a.workers }

func (a *admission) release(client string) {
	a.done()
	a.leave(client)
}

func (a *admission) leave(client string) {
	a.mu.Lock()
	if a.clients[client] <= 1 {
		delete(a.clients, client)
	} else {
		a.clients[client]--
	}
	a.mu.Unlock()
}

// errBusy answers work refused by admission control.
var errBusy = &Error{Status: http.StatusServiceUnavailable, Code: "busy",
	Message: "the server is busy; try again in a second"}

// admit runs h as admitted work: it waits for a worker, or answers 503
// busy with Retry-After: 1.
func (s *Server) admit(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		client, ctx := c.RealIP(), c.Request().Context()
		if why := s.work.acquire(ctx, client); why != admitted {
			if why == overShare {
				s.work.hold(ctx)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.metrics.busy.Inc()
			c.Response().Header().Set("Retry-After", "1")
			return errBusy
		}
		defer s.work.release(client)
		return h(c)
	}
}
