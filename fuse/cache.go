// Cache: a bounded, concurrency-safe LRU of plans keyed by Key.

package fuse

import (
	"container/list"
	"sync"

	"github.com/fuseflow/fuseflow/graph"
)

// Cache keeps the most recently used plans so that evaluating the same
// expression on new data plans nothing. It is safe for concurrent use.
type Cache struct {
	mu       sync.Mutex
	capacity int
	order    *list.List // front: most recent; values are *cacheEntry
	entries  map[string]*list.Element
	hits     int64
	misses   int64
}

type cacheEntry struct {
	key  string
	plan *Plan
}

// CacheStats counts lookups.
type CacheStats struct {
	Hits, Misses int64
	Len          int
}

// NewCache returns a cache holding at most capacity plans (at least 1).
func NewCache(capacity int) *Cache {
	return &Cache{capacity: max(capacity, 1), order: list.New(), entries: map[string]*list.Element{}}
}

// Get returns the plan for outputs with the bound layouts, building it on
// a miss, and the bound nodes in slot order (bind slots[i]
// to Plan.Inputs[i]). The plan is shared: callers must not modify it.
// Errors are those of Key and Build; failed builds are not cached.
func (c *Cache) Get(outputs []*graph.Node, bound map[*graph.Node]graph.Layout) (*Plan, []*graph.Node, error) {
	w, err := walkGraph(outputs, bound)
	if err != nil {
		return nil, nil, err
	}
	key := w.key(bound)
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		c.hits++
		p := e.Value.(*cacheEntry).plan
		c.mu.Unlock()
		return p, w.slots, nil
	}
	c.misses++
	c.mu.Unlock()
	p, err := build(w, bound)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok { // built concurrently by another caller
		c.order.MoveToFront(e)
		return e.Value.(*cacheEntry).plan, w.slots, nil
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key: key, plan: p})
	for c.order.Len() > c.capacity {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.entries, old.Value.(*cacheEntry).key)
	}
	return p, w.slots, nil
}

// Stats returns the hit and miss counts and the number of cached plans.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Hits: c.hits, Misses: c.misses, Len: c.order.Len()}
}
