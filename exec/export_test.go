// Internal functions exported to the external tests.

package exec

import (
	"io/fs"

	"github.com/fuseflow/fuseflow/internal/clock"
)

// ReadMeminfo returns MemTotal and SwapTotal of a meminfo file in fsys.
func ReadMeminfo(fsys fs.FS, name string) (total, swap int64, err error) {
	m, err := readMeminfo(fsys, name)
	return m.total, m.swap, err
}

// MemoryBoundsOf is memoryBounds: the bounds fsys and rlimitAS report.
var MemoryBoundsOf = memoryBounds

// LeastBound is leastBound.
var LeastBound = leastBound

// PoolClock makes a Pool schedule its idle checks on c.
var PoolClock = func(c clock.Clock) PoolOption { return poolClock(c) }

// PoolReleased makes a Pool call f with the bytes it gave back to its base
// allocator, instead of its default (returning large releases of Go
// memory to the operating system).
func PoolReleased(f func(bytes int64)) PoolOption { return func(p *Pool) { p.released = f } }

// ReleasesToOS reports whether p returns large releases to the operating
// system.
func ReleasesToOS(p *Pool) bool { return p.released != nil }

// Held returns the number of blocks the pool holds, handed out or cached.
func (p *Pool) Held() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live)
}
