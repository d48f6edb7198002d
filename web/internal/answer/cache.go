package answer

import "sync"

// Cache holds rendered responses by the router's cache key (web/cache.go).
// A server serves one dataset with one binary for its whole life, so an
// entry never goes stale; and the ETag is a hash of the bytes, so a
// client's copy from an earlier dataset or release never matches a new
// page.
type Cache struct {
	mu      sync.RWMutex
	entries map[string]*Response
	bytes   int
	max     int
}

// NewCache makes a cache of at most maxBytes (Response.Size).
func NewCache(maxBytes int) *Cache {
	return &Cache{entries: make(map[string]*Response), max: maxBytes}
}

// Get is the response kept under key, or nil.
func (c *Cache) Get(key string) *Response {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.entries[key]
}

// Len is how many responses are kept.
func (c *Cache) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}

// Put keeps r, evicting random entries to stay within the byte budget; a
// response over an eighth of the budget is not kept. Random eviction keeps
// hot pages with high probability at no bookkeeping cost per hit, which
// matters more here than an exact LRU.
func (c *Cache) Put(key string, r *Response) {
	if r.Size() > c.max/8 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[key]; ok {
		c.bytes -= old.Size()
	}
	for k, old := range c.entries {
		if c.bytes+r.Size() <= c.max {
			break
		}
		delete(c.entries, k)
		c.bytes -= old.Size()
	}
	c.entries[key] = r
	c.bytes += r.Size()
}
