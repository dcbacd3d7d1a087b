// Internal functions exported to the external tests.

package exec

import "io/fs"

// ReadMeminfo returns MemTotal and SwapTotal of a meminfo file in fsys.
func ReadMeminfo(fsys fs.FS, name string) (total, swap int64, err error) {
	m, err := readMeminfo(fsys, name)
	return m.total, m.swap, err
}

// MemoryBoundsOf is memoryBounds: the bounds fsys and rlimitAS report.
var MemoryBoundsOf = memoryBounds

// LeastBound is leastBound.
var LeastBound = leastBound
