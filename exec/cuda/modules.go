// The module cache: PTX text loaded once per device through the driver's
// JIT, keyed by the hash of the text, with its kernels looked up once.

package cuda

import (
	"crypto/sha256"
	"sync"
	"sync/atomic"
	"time"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// loadedModule is one module in the cache. ready is closed when mod (or
// err) is set.
type loadedModule struct {
	ready chan struct{}
	mod   drv.Module
	jit   drv.JITInfo
	err   error
	// load is the host time the load took (JIT included).
	load time.Duration
}

// moduleCache maps PTX hashes to loaded modules on one context. Loads of
// the same text from many goroutines happen once. Failed loads are not
// kept.
type moduleCache struct {
	ctx *drv.Context
	jit drv.JITOptions

	mu   sync.Mutex
	mods map[[32]byte]*loadedModule

	loads, hits atomic.Int64
}

func newModuleCache(ctx *drv.Context, jit drv.JITOptions) *moduleCache {
	return &moduleCache{ctx: ctx, jit: jit, mods: map[[32]byte]*loadedModule{}}
}

// get returns the module of ptx, loading it on first use; loaded says
// whether this call loaded it.
func (c *moduleCache) get(ptx string) (m *loadedModule, loaded bool, err error) {
	key := sha256.Sum256([]byte(ptx))
	c.mu.Lock()
	if m, ok := c.mods[key]; ok {
		c.mu.Unlock()
		<-m.ready
		if m.err != nil {
			return nil, false, m.err
		}
		c.hits.Add(1)
		return m, false, nil
	}
	m = &loadedModule{ready: make(chan struct{})}
	c.mods[key] = m
	c.mu.Unlock()

	start := time.Now()
	m.mod, m.jit, m.err = c.ctx.LoadModule(ptx, c.jit)
	m.load = time.Since(start)
	c.loads.Add(1)
	if m.err != nil {
		c.mu.Lock()
		delete(c.mods, key)
		c.mu.Unlock()
	}
	close(m.ready)
	if m.err != nil {
		return nil, false, m.err
	}
	return m, true, nil
}

// close unloads every module.
func (c *moduleCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for k, m := range c.mods {
		<-m.ready
		if m.err == nil {
			if err := c.ctx.ModuleUnload(m.mod); err != nil && first == nil {
				first = err
			}
		}
		delete(c.mods, k)
	}
	return first
}
