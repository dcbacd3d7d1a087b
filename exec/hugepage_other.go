// Transparent huge pages exist on Linux alone: elsewhere large host
// buffers take the system's pages as they come.

//go:build !linux

package exec

// HugePageMin is the smallest block a Pool over a Go allocator asks the
// kernel to back with transparent huge pages, on Linux; elsewhere it is
// not used.
const HugePageMin = 4 << 20

func adviseHuge([]byte) {}
