// Memory guard: allocations that cannot possibly succeed become a
// *MemoryError (NumPy's MemoryError) instead of killing the process, by a
// per-allocation limit that travels with the allocator of a Request.

package exec

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/graph"
)

// MemoryError reports an allocation refused because it exceeds the limit
// (see AllocLimit) or because the allocator failed. Its message follows
// NumPy's MemoryError: "Unable to allocate 8.00 TiB for an array with
// shape (1099511627776,) and data type float64".
type MemoryError struct {
	Bytes int64       // the size asked for
	Limit int64       // the limit in force; 0 when the allocator itself failed
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

// DefaultMemoryLimit returns the default limit on one allocation: the
// machine's physical memory plus swap (MemTotal + SwapTotal of
// /proc/meminfo) on Linux, 128 TiB where that cannot be read. No single
// buffer larger than that can be allocated. It is read once; safe for
// concurrent use.
func DefaultMemoryLimit() int64 { return defaultLimit() }

var defaultLimit = sync.OnceValue(func() int64 {
	n, err := readMeminfo("/proc/meminfo")
	if err != nil || n <= 0 {
		return unknownLimit
	}
	return n
})

// readMeminfo returns MemTotal + SwapTotal of a /proc/meminfo file in
// bytes.
func readMeminfo(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var total int64
	found := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "MemTotal" && key != "SwapTotal") {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb < 0 || kb > math.MaxInt64/1024-total/1024 {
			return 0, fmt.Errorf("exec: %s: bad %s line %q", path, key, sc.Text())
		}
		total += kb * 1024
		found = found || key == "MemTotal"
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	if !found {
		return 0, fmt.Errorf("exec: %s has no MemTotal", path)
	}
	return total, nil
}

// Limiter is implemented by allocators that bound the size of a single
// allocation (LimitAllocator's result).
type Limiter interface {
	// AllocLimit returns the largest allocation in bytes.
	AllocLimit() int64
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
// is larger than AllocLimit(alloc), or the shape's error when s is
// invalid (see graph.CheckShape). Backends call it before allocating
// results and scratch space from the Go heap, which cannot fail
// gracefully; NewTensor calls it for every tensor.
func CheckAlloc(alloc memory.Allocator, d graph.DType, s graph.Shape) error {
	if err := graph.CheckShape(s, d); err != nil {
		return err
	}
	n := int64(s.Size()) * int64(d.Size())
	if limit := AllocLimit(alloc); n > limit {
		return &MemoryError{Bytes: n, Limit: limit, Shape: s.Clone(), DType: d}
	}
	return nil
}

// LimitAllocator returns an allocator that forwards to alloc but refuses
// allocations of more than limit bytes (limit <= 0: DefaultMemoryLimit;
// arrow rounds capacities up to 64 bytes, and so does the limit here),
// and that reports its limit to AllocLimit, so that NewTensor and
// CheckAlloc return a *MemoryError for them. An allocation asked of it
// directly (memory.Allocator has no error result) panics with the
// *MemoryError instead; RecoverMemoryError turns that back into an error
// at a backend's boundary. Safe for concurrent use when alloc is.
func LimitAllocator(alloc memory.Allocator, limit int64) memory.Allocator {
	if limit <= 0 {
		limit = DefaultMemoryLimit()
	}
	if l, ok := alloc.(*limitAllocator); ok {
		alloc = l.inner
	}
	return &limitAllocator{inner: alloc, limit: limit}
}

type limitAllocator struct {
	inner memory.Allocator
	limit int64
}

func (a *limitAllocator) AllocLimit() int64 { return a.limit }

// check panics for an allocation of more than the limit, rounded up to the
// 64 bytes arrow's buffers round their capacity to.
func (a *limitAllocator) check(size int) {
	if int64(size) > a.limit && int64(size)-a.limit >= 64 {
		panic(&MemoryError{Bytes: int64(size), Limit: a.limit})
	}
}

func (a *limitAllocator) Allocate(size int) []byte {
	a.check(size)
	return a.inner.Allocate(size)
}

func (a *limitAllocator) Reallocate(size int, b []byte) []byte {
	a.check(size)
	return a.inner.Reallocate(size, b)
}

func (a *limitAllocator) Free(b []byte) { a.inner.Free(b) }

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
			me.Limit = x.Limit
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
