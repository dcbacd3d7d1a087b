// Memory guard: allocations that cannot possibly succeed become a
// *MemoryError (NumPy's MemoryError) instead of killing the process, by
// limits that travel with the allocator of a Request (see limit.go): one
// on a single allocation, one on the bytes live at once.

package exec

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
)

// MemoryError reports an allocation refused because it exceeds the
// limit on one allocation (see AllocLimit), because it does not fit in
// what is left of a memory limit on the bytes live at once (see Budget),
// or because the allocator failed. Its message follows NumPy's
// MemoryError: "Unable to allocate 8.00 TiB for an array with shape
// (1099511627776,) and data type float64".
type MemoryError struct {
	Bytes int64       // the size asked for
	Limit int64       // the limit in force; 0 when the allocator itself failed
	Total bool        // Limit bounds the bytes live at once, not one allocation
	InUse int64       // with Total: the bytes live when the allocation was refused
	Shape graph.Shape // nil when the allocation was not for an array
	DType graph.DType
	Cause error // the allocator's failure, when it failed
}

// Error formats the error as NumPy does, followed by the limit or the
// allocator's failure.
func (e *MemoryError) Error() string {
	var b strings.Builder
	b.WriteString("Unable to allocate ")
	b.WriteString(FormatBytes(e.Bytes))
	if e.Shape != nil {
		fmt.Fprintf(&b, " for an array with shape %v and data type %v", e.Shape, e.DType)
	}
	switch {
	case e.Cause != nil:
		fmt.Fprintf(&b, ": %v", e.Cause)
	case e.Total && e.InUse > 0:
		fmt.Fprintf(&b, " (%s of the memory limit of %s is in use)", FormatBytes(e.InUse), FormatBytes(e.Limit))
	case e.Total:
		fmt.Fprintf(&b, " (larger than the memory limit of %s)", FormatBytes(e.Limit))
	case e.Limit > 0:
		fmt.Fprintf(&b, " (larger than the allocation limit of %s)", FormatBytes(e.Limit))
	}
	return b.String()
}

// Unwrap returns the allocator's failure, if any.
func (e *MemoryError) Unwrap() error { return e.Cause }

// FormatBytes formats n bytes with three significant digits and a binary
// unit, as NumPy's MemoryError does ("512 bytes", "1.50 KiB", "8.00 TiB").
func FormatBytes(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	v := float64(n)
	u := 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, units[u])
	case v >= 10:
		return fmt.Sprintf("%.1f %s", v, units[u])
	}
	return fmt.Sprintf("%.2f %s", v, units[u])
}

// unknownLimit is the limit where the machine's memory cannot be read:
// 128 TiB, about the user address space of 64-bit Linux, macOS and
// Windows.
const unknownLimit = int64(1) << 47

// DefaultMemoryLimit returns the memory the process may use, the default
// limit on one allocation and on a Context's live memory: the least of
// MemoryBounds (physical memory plus swap, the cgroup's memory limit,
// RLIMIT_AS), or 128 TiB where none can be read. Go's own soft limit
// (GOMEMLIMIT, debug.SetMemoryLimit) is not among them: it asks the
// garbage collector to work harder, it does not make allocations fail,
// and programs often set it below what they may use. It is read once;
// safe for concurrent use.
func DefaultMemoryLimit() int64 { return defaultLimit() }

var defaultLimit = sync.OnceValue(func() int64 {
	if b, ok := leastBound(MemoryBounds()); ok && b.Bytes > 0 {
		return b.Bytes
	}
	return unknownLimit
})

// MemoryBounds returns each limit on the memory of the process that can
// be read, for diagnostics: "/proc/meminfo MemTotal+SwapTotal"; the
// memory limit of the process's cgroup and its ancestors (v2:
// memory.max plus memory.swap.max, the swap part at most SwapTotal; v1:
// memory.memsw.limit_in_bytes, or memory.limit_in_bytes where swap is not
// accounted), found through /proc/self/cgroup and /proc/self/mountinfo;
// and RLIMIT_AS, less the address space mapped when it is read (VmSize of
// /proc/self/status: the limit is on address space, and the Go runtime
// reserves some at start). Unlimited and unreadable ones are left out (on
// systems other than Linux only RLIMIT_AS remains, whole). Safe for
// concurrent use.
func MemoryBounds() []MemoryBound { return memoryBounds(os.DirFS("/"), rlimitAS) }

// Limiter is implemented by allocators that bound the size of a single
// allocation (LimitAllocator's and NewLimitedAllocator's results).
type Limiter interface {
	// AllocLimit returns the largest allocation in bytes.
	AllocLimit() int64
}

// Budget is implemented by allocators that bound the bytes live at once
// (NewLimitedAllocator's result with a MemoryLimit).
type Budget interface {
	// MemoryBudget returns the most bytes that may be live at once (0: no
	// bound) and the bytes live now.
	MemoryBudget() (limit, inUse int64)
}

// AllocLimit returns the largest single allocation, in bytes, that may be
// asked of alloc: its own limit when it is a Limiter, DefaultMemoryLimit
// otherwise.
func AllocLimit(alloc memory.Allocator) int64 {
	if l, ok := alloc.(Limiter); ok {
		return l.AllocLimit()
	}
	return DefaultMemoryLimit()
}

// CheckAlloc returns a *MemoryError when an array of dtype d and shape s
// is larger than AllocLimit(alloc), or, when alloc is a Budget, when it
// does not fit in what is left of the memory limit (counting the 64-byte
// rounding arrow applies to buffers); or the shape's error when s is
// invalid (see graph.CheckShape). Backends call it before allocating
// results and scratch space, also from the Go heap, which cannot fail
// gracefully; NewTensor calls it for every tensor.
func CheckAlloc(alloc memory.Allocator, d graph.DType, s graph.Shape) error {
	if err := graph.CheckShape(s, d); err != nil {
		return err
	}
	n := int64(s.Size()) * int64(d.Size())
	if limit := AllocLimit(alloc); n > limit {
		return &MemoryError{Bytes: n, Limit: limit, Shape: s.Clone(), DType: d}
	}
	if b, ok := alloc.(Budget); ok {
		if limit, inUse := b.MemoryBudget(); limit > 0 && roundUp64(n) > limit-inUse {
			return &MemoryError{Bytes: n, Limit: limit, Total: true, InUse: inUse, Shape: s.Clone(), DType: d}
		}
	}
	return nil
}

// AllocFits reports whether n bytes pass the bounds CheckAlloc applies
// for alloc: at most AllocLimit(alloc) and, when alloc is a Budget,
// within what is left of its memory limit. A backend that knows a
// buffer's size asks it first, and builds CheckAlloc's error (which names
// the array) only when it fails.
func AllocFits(alloc memory.Allocator, n int64) bool {
	if l, ok := alloc.(*LimitedAllocator); ok {
		// The usual allocator, without the interface assertions.
		if n < 0 || n > l.maxAlloc {
			return false
		}
		limit, inUse := l.limit, l.live.Load()
		if limit == 0 {
			if _, ok := l.inner.(Budget); !ok {
				return true
			}
			limit, inUse = l.MemoryBudget()
		}
		return limit <= 0 || roundUp64(n) <= limit-inUse
	}
	if n < 0 || n > AllocLimit(alloc) {
		return false
	}
	if b, ok := alloc.(Budget); ok {
		if limit, inUse := b.MemoryBudget(); limit > 0 && roundUp64(n) > limit-inUse {
			return false
		}
	}
	return true
}

// roundUp64 rounds n up to a multiple of 64, as arrow rounds buffer
// capacities (n is at most MaxInt64-63: CheckShape bounds byte sizes).
func roundUp64(n int64) int64 {
	if n > math.MaxInt64-63 {
		return math.MaxInt64
	}
	return (n + 63) &^ 63
}

// RecoverMemoryError, deferred by a function that returns an error
// through err, turns a panic carrying a *MemoryError (from a
// LimitAllocator, or from NewTensor's allocator) into that error; any
// other panic goes on. Backends defer it in Eval so that an allocator
// that panics on failure never takes the process down. Deferred calls
// still run while the panic unwinds, so buffers released by defers are
// released.
func RecoverMemoryError(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(error); ok {
		var me *MemoryError
		if errors.As(e, &me) {
			*err = e
			return
		}
	}
	panic(r)
}

// allocate resizes buf to n bytes, turning a panic of the allocator into
// a *MemoryError for an array of dtype d and shape s.
func allocate(buf *memory.Buffer, n int, d graph.DType, s graph.Shape) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		me := &MemoryError{Bytes: int64(n), Shape: s.Clone(), DType: d}
		switch x := r.(type) {
		case *MemoryError:
			me.Limit, me.Total, me.InUse = x.Limit, x.Total, x.InUse
		case error:
			me.Cause = x
		default:
			me.Cause = fmt.Errorf("%v", x)
		}
		err = me
	}()
	buf.Resize(n)
	return nil
}
