// The module cache: PTX text loaded once per device through the driver's
// JIT, keyed by the hash of the text, at most a fixed number kept and the
// least recently used unloaded when that is exceeded and nothing holds it.

package cuda

import (
	"container/list"
	"crypto/sha256"
	"sync"
	"sync/atomic"
	"time"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// loadedModule is one module. ready is closed when mod (or err) is set.
type loadedModule struct {
	key   [32]byte
	ready chan struct{}
	mod   drv.Module
	jit   drv.JITInfo
	err   error
	// load is the host time the load took (JIT included).
	load time.Duration

	// refs counts the cache's own reference while the module is cached
	// and one per holder (a program, a load in progress); the module is
	// unloaded when it drops to zero. elem is its place in the cache's
	// recency list while cached. Both are guarded by moduleCache.mu.
	refs int
	elem *list.Element
}

// moduleCache maps PTX hashes to loaded modules on one context. Loads of
// the same text from many goroutines happen once; failed loads are not
// kept. It keeps at most max modules: loading one more evicts the least
// recently used, which is unloaded as soon as no program holds it.
type moduleCache struct {
	ctx *drv.Context
	jit drv.JITOptions
	max int

	mu   sync.Mutex
	mods map[[32]byte]*loadedModule
	lru  list.List // of *loadedModule, most recently used first

	loads, hits, unloads atomic.Int64
}

func newModuleCache(ctx *drv.Context, jit drv.JITOptions, max int) *moduleCache {
	return &moduleCache{ctx: ctx, jit: jit, max: max, mods: map[[32]byte]*loadedModule{}}
}

// get returns the module of ptx, loading it on first use, with a
// reference the caller gives back with put; loaded says whether this call
// loaded it. On error the caller holds nothing.
func (c *moduleCache) get(ptx string) (m *loadedModule, loaded bool, err error) {
	key := sha256.Sum256([]byte(ptx))
	c.mu.Lock()
	if m, ok := c.mods[key]; ok {
		m.refs++
		c.lru.MoveToFront(m.elem)
		c.mu.Unlock()
		<-m.ready
		if m.err != nil {
			c.put(m)
			return nil, false, m.err
		}
		c.hits.Add(1)
		return m, false, nil
	}
	m = &loadedModule{key: key, ready: make(chan struct{}), refs: 2} // the cache's and the caller's
	m.elem = c.lru.PushFront(m)
	c.mods[key] = m
	var dead []*loadedModule
	for c.lru.Len() > c.max {
		if old := c.lru.Back().Value.(*loadedModule); c.uncache(old) {
			dead = append(dead, old)
		}
	}
	c.mu.Unlock()
	c.unload(dead)

	start := time.Now()
	m.mod, m.jit, m.err = c.ctx.LoadModule(ptx, c.jit)
	m.load = time.Since(start)
	c.loads.Add(1)
	if m.err != nil {
		c.mu.Lock()
		c.uncache(m)
		m.refs-- // the caller's: it gets an error instead
		c.mu.Unlock()
		close(m.ready)
		return nil, false, m.err
	}
	close(m.ready)
	return m, true, nil
}

// uncache removes m from the cache when it is there and drops the cache's
// reference, reporting whether that was the last; c.mu is held.
func (c *moduleCache) uncache(m *loadedModule) bool {
	if m.elem == nil {
		return false
	}
	c.lru.Remove(m.elem)
	m.elem = nil
	delete(c.mods, m.key)
	m.refs--
	return m.refs == 0
}

// put gives back a reference from get, unloading the module when it was
// the last one and the module has left the cache.
func (c *moduleCache) put(m *loadedModule) {
	c.mu.Lock()
	m.refs--
	last := m.refs == 0
	c.mu.Unlock()
	if last {
		c.unload([]*loadedModule{m})
	}
}

// unload unloads modules nothing references any more. A failing unload
// (after a fault the driver fails every call) leaves the module to the
// context's teardown.
func (c *moduleCache) unload(ms []*loadedModule) {
	for _, m := range ms {
		if m.err == nil && m.mod != 0 {
			_ = c.ctx.ModuleUnload(m.mod)
			c.unloads.Add(1)
		}
	}
}

// close unloads every cached module; programs must have given theirs
// back, and no load may be in progress. It returns the first unload
// error.
func (c *moduleCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for c.lru.Len() > 0 {
		m := c.lru.Front().Value.(*loadedModule)
		c.uncache(m)
		if m.err == nil && m.mod != 0 {
			if err := c.ctx.ModuleUnload(m.mod); err != nil && first == nil {
				first = err
			}
			c.unloads.Add(1)
		}
	}
	return first
}
