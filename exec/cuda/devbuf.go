// Buffer: a reference-counted block of device memory from a Pool, the
// exec.DeviceBuffer of this backend.

package cuda

import (
	"fmt"
	"sync/atomic"

	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

// Buffer is device memory handed out by a Pool. It implements
// exec.DeviceBuffer: Retain and Release count references, and the last
// Release returns the memory to the pool. Retain and Release are safe for
// concurrent use.
type Buffer struct {
	refs atomic.Int64
	pool *Pool
	blk  block
	n    int64
	// stream is the stream that may still be using the buffer when its
	// last reference goes (0 when none is).
	stream atomic.Uintptr
}

func newBuffer(p *Pool, b block, n int64) *Buffer {
	buf := &Buffer{pool: p, blk: b, n: n}
	buf.refs.Store(1)
	return buf
}

// Retain adds a reference.
func (b *Buffer) Retain() {
	if b.refs.Add(1) <= 1 {
		panic("cuda: Retain of a released device buffer")
	}
}

// Release drops a reference; the last returns the memory to the pool.
// Releasing more often than retaining panics.
func (b *Buffer) Release() {
	switch n := b.refs.Add(-1); {
	case n == 0:
		b.pool.put(b.blk, drv.Stream(b.stream.Load()))
	case n < 0:
		panic("cuda: device buffer released too often")
	}
}

// Len returns the size in bytes that was asked for.
func (b *Buffer) Len() int { return int(b.n) }

// Ptr returns the device address of the first byte.
func (b *Buffer) Ptr() drv.DevicePtr { return b.blk.ptr }

// Device names the device holding the buffer ("cuda:0"; "cuda" for a
// pool created outside a backend).
func (b *Buffer) Device() string {
	if b.pool.device == "" {
		return "cuda"
	}
	return b.pool.device
}

// Pool returns the pool the buffer came from.
func (b *Buffer) Pool() *Pool { return b.pool }

// String describes the buffer ("device buffer 4096 bytes at 0x7f...").
func (b *Buffer) String() string {
	return fmt.Sprintf("device buffer %d bytes at %#x", b.n, uint64(b.blk.ptr))
}
