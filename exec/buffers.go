// Buffer headers reused: the arrow Buffer objects (not the memory they
// manage) a caller that evaluates small expressions often hands its
// backend for new results, taken back once their memory is freed, so
// that a warm evaluation allocates no header.

package exec

import (
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BufferList hands out the headers of new resizable arrow buffers of one
// allocator (what memory.NewResizableBuffer returns), reusing headers
// whose memory was freed. A header is reusable only when the release
// that freed it happened before the reuse: arrow's Buffer.Release writes
// to the header after it has freed the memory, so a header whose last
// reference some other goroutine dropped can never be taken back (see
// ReleaseSole). A BufferList is not safe for concurrent use.
type BufferList struct {
	mem   memory.Allocator
	free  []*memory.Buffer // headers of mem, released: no reference, no memory
	given []*memory.Buffer // handed out by New since Reset
}

// maxFreeHeaders bounds the headers a BufferList keeps for reuse.
const maxFreeHeaders = 64

// Reset makes l hand out buffers of mem and forgets the headers it
// handed out; headers kept for reuse stay when mem is l's allocator
// already.
func (l *BufferList) Reset(mem memory.Allocator) {
	if l.mem != mem {
		l.free = clearHeaders(l.free)
		l.mem = mem
	}
	l.given = clearHeaders(l.given)
}

// Allocator returns the allocator of the buffers l hands out.
func (l *BufferList) Allocator() memory.Allocator { return l.mem }

// New returns a new resizable buffer of l's allocator, holding one
// reference and no memory, as memory.NewResizableBuffer does: a reused
// header when l has one. The caller owns the reference.
func (l *BufferList) New() *memory.Buffer {
	var b *memory.Buffer
	if n := len(l.free); n > 0 {
		b = l.free[n-1]
		l.free[n-1] = nil
		l.free = l.free[:n-1]
		b.Retain() // mem is set: from no reference to one
	} else {
		b = memory.NewResizableBuffer(l.mem)
	}
	l.given = append(l.given, b)
	return b
}

// Given returns the buffers New handed out since Reset (the caller must
// not change the slice).
func (l *BufferList) Given() []*memory.Buffer { return l.given }

// Put keeps b, a header New handed out whose last reference was released
// in the caller's goroutine (or in one whose work the caller waited
// for), for reuse. A header with references left, or with memory, is
// ignored, as are all when reference counts cannot be read (see
// ReleaseSole).
func (l *BufferList) Put(b *memory.Buffer) {
	if !refsReadable || len(l.free) >= maxFreeHeaders || bufferRefs(b) != 0 || b.Buf() != nil {
		return
	}
	l.free = append(l.free, b)
}

// Take moves the headers l keeps for reuse to dst (up to its bound) and
// returns it; l keeps none.
func (l *BufferList) Take(dst []*memory.Buffer) []*memory.Buffer {
	if len(dst) == 0 {
		dst, l.free = l.free, dst[:0]
		return dst
	}
	for i, b := range l.free {
		if len(dst) < maxFreeHeaders {
			dst = append(dst, b)
		}
		l.free[i] = nil
	}
	l.free = l.free[:0]
	return dst
}

// Give moves the headers of src (taken from a BufferList of the same
// allocator, or released by ReleaseSole) to l, up to its bound, and
// returns src emptied.
func (l *BufferList) Give(src []*memory.Buffer) []*memory.Buffer {
	if len(l.free) == 0 {
		l.free, src = src, l.free[:0]
		return src
	}
	for i, b := range src {
		if len(l.free) < maxFreeHeaders {
			l.free = append(l.free, b)
		}
		src[i] = nil
	}
	return src[:0]
}

// clearHeaders sets the pointers of s to nil one by one (cheaper for
// the few a list holds than clear while the collector marks) and
// returns s[:0].
func clearHeaders(s []*memory.Buffer) []*memory.Buffer {
	for i := range s {
		if s[i] != nil {
			s[i] = nil
		}
	}
	return s[:0]
}

// ReleaseSole releases the caller's reference to b and reports whether
// that freed b's memory here, in the caller's goroutine: true when the
// caller held b's only reference, and then b's header may be given to a
// BufferList of its allocator. The caller must make sure that no other
// reference can be taken while ReleaseSole runs (none exists but its
// own: another can only come from a holder, or from whatever the caller
// guards). When reference counts cannot be read it releases b and
// reports false.
func ReleaseSole(b *memory.Buffer) bool {
	sole := refsReadable && bufferRefs(b) == 1
	b.Release()
	return sole
}

// bufferRefs reads b's reference count. arrow does not export it: it is
// the atomic counter that opens memory.Buffer, which refsReadable checks
// at start-up against what Retain and Release do.
func bufferRefs(b *memory.Buffer) int64 {
	return (*atomic.Int64)(unsafe.Pointer(b)).Load()
}

// refsReadable says whether bufferRefs reads arrow's reference count
// (probed once: a later arrow that moved it turns reuse off).
var refsReadable = probeRefs()

// probeRefs checks that bufferRefs follows Retain and Release on a
// buffer of its own.
func probeRefs() bool {
	b := memory.NewResizableBuffer(memory.DefaultAllocator)
	if unsafe.Sizeof(*b) < unsafe.Sizeof(atomic.Int64{}) || bufferRefs(b) != 1 {
		return false
	}
	b.Retain()
	ok := bufferRefs(b) == 2
	b.Release()
	ok = ok && bufferRefs(b) == 1
	b.Release()
	return ok && bufferRefs(b) == 0
}
