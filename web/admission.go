package web

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"

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
// find a place in line.
type admission struct {
	workers   chan struct{}
	queued    atomic.Int64
	maxQueued int64
	perClient int

	mu      sync.Mutex
	clients map[string]int // requests running or queued, by client
}

// Admission defaults: workers are the CPUs Go uses; the queue holds eight
// requests per worker, well under a tenth of a second of typical searches.
func defaultWorkers() int { return runtime.GOMAXPROCS(0) }

func newAdmission(workers, queued int) *admission {
	if workers <= 0 {
		workers = defaultWorkers()
	}
	if queued <= 0 {
		queued = 8 * workers
	}
	return &admission{
		workers:   make(chan struct{}, workers),
		maxQueued: int64(queued),
		perClient: workers + max(1, queued/2),
		clients:   map[string]int{},
	}
}

// acquire takes a worker for client, waiting in the queue if there is room.
// It reports false when the server is too busy, or ctx ended while waiting;
// otherwise the caller must call release.
func (a *admission) acquire(ctx context.Context, client string) bool {
	a.mu.Lock()
	if a.clients[client] >= a.perClient {
		a.mu.Unlock()
		return false
	}
	a.clients[client]++
	a.mu.Unlock()
	select {
	case a.workers <- struct{}{}:
		return true
	default:
	}
	if a.queued.Add(1) > a.maxQueued {
		a.queued.Add(-1)
		a.leave(client)
		return false
	}
	defer a.queued.Add(-1)
	select {
	case a.workers <- struct{}{}:
		return true
	case <-ctx.Done():
		a.leave(client)
		return false
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
		client := c.RealIP()
		if !s.work.acquire(c.Request().Context(), client) {
			if c.Request().Context().Err() != nil {
				return c.Request().Context().Err()
			}
			s.metrics.busy.Inc()
			c.Response().Header().Set("Retry-After", "1")
			return errBusy
		}
		defer s.work.release(client)
		return h(c)
	}
}
