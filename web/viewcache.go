package web

import (
	"container/list"
	"sync"

	"github.com/errkb/errkb/templates"
)

// maxCachedViews bounds the record views kept in memory. A view holds the
// rendered Markdown and highlighted code of one record, typically 10-40 KB;
// without a bound, a crawler walking the sitemap of a large dataset would
// keep every record's page in memory.
const maxCachedViews = 2048

// viewCache keeps the most recently used record views. Building a view
// costs a few milliseconds (chroma's tokenisers dominate), so the pages
// people actually read are built once.
type viewCache struct {
	mu    sync.Mutex
	max   int
	order *list.List               // front: most recently used
	byID  map[string]*list.Element // record id -> element holding *cachedView
}

type cachedView struct {
	id   string
	view *templates.RecordView
}

func newViewCache(max int) *viewCache {
	return &viewCache{max: max, order: list.New(), byID: make(map[string]*list.Element)}
}

// get returns the cached view of a record, marking it recently used.
func (c *viewCache) get(id string) (*templates.RecordView, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*cachedView).view, true
}

// add stores v unless another request stored one first, and returns the
// view to use; the least recently used view goes when the cache is full.
func (c *viewCache) add(id string, v *templates.RecordView) *templates.RecordView {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byID[id]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*cachedView).view
	}
	c.byID[id] = c.order.PushFront(&cachedView{id, v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*cachedView).id)
	}
	return v
}

// len is the number of cached views.
func (c *viewCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
