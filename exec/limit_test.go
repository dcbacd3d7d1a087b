// Tests of LimitedAllocator: the limit on one allocation, the memory
// limit on the bytes live at once, their errors, the count under
// concurrent use, and allocators that fail.

package exec_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func TestLimitedAllocatorMemoryLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := exec.NewLimitedAllocator(mem, exec.Limits{MemoryLimit: 4096})
	require.Equal(t, exec.DefaultMemoryLimit(), a.AllocLimit(), "no allocation limit given: the default")
	limit, inUse := a.MemoryBudget()
	require.EqualValues(t, 4096, limit)
	require.Zero(t, inUse)

	x, err := exec.NewTensor(a, graph.Float64, graph.Shape{300}) // 2400 bytes, 2432 allocated
	require.NoError(t, err)
	require.EqualValues(t, 2432, a.InUse())

	// 1664 bytes are left: 200 float64 (1600) fit, 208 (1664) fit, 209 do not.
	require.NoError(t, exec.CheckAlloc(a, graph.Float64, graph.Shape{208}))
	err = exec.CheckAlloc(a, graph.Float64, graph.Shape{209})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.True(t, me.Total)
	require.EqualValues(t, 2432, me.InUse)
	require.EqualError(t, err, "Unable to allocate 1.63 KiB for an array with shape (209,) and data type float64 (2.38 KiB of the memory limit of 4.00 KiB is in use)")
	_, err = exec.NewTensor(a, graph.Float64, graph.Shape{300})
	require.ErrorAs(t, err, &me)
	require.EqualValues(t, 2432, a.InUse(), "a refused tensor takes nothing")

	// Direct allocations beyond the limit panic with the error and take
	// nothing either.
	require.PanicsWithError(t, "Unable to allocate 2.00 KiB (2.38 KiB of the memory limit of 4.00 KiB is in use)", func() { a.Allocate(2048) })
	require.EqualValues(t, 2432, a.InUse())

	// Growing needs room for both buffers while the bytes move; then only
	// the new size counts. Shrinking always works.
	b := a.Allocate(600)
	require.EqualValues(t, 3032, a.InUse())
	require.Panics(t, func() { a.Reallocate(1100, b) }, "3032 + 1100 is over 4096")
	require.EqualValues(t, 3032, a.InUse())
	b = a.Reallocate(1000, b)
	require.EqualValues(t, 3432, a.InUse())
	b = a.Reallocate(100, b)
	require.EqualValues(t, 2532, a.InUse())
	a.Free(b)
	x.Release()
	require.Zero(t, a.InUse())

	// A single allocation above the whole limit.
	_, err = exec.NewTensor(a, graph.Int32, graph.Shape{2000})
	require.EqualError(t, err, "Unable to allocate 7.81 KiB for an array with shape (2000,) and data type int32 (larger than the memory limit of 4.00 KiB)")
}

func TestLimitedAllocatorBothLimits(t *testing.T) {
	a := exec.NewLimitedAllocator(memory.NewGoAllocator(), exec.Limits{MaxAllocation: 1000, MemoryLimit: 1 << 20})
	require.EqualValues(t, 1000, exec.AllocLimit(a))
	_, err := exec.NewTensor(a, graph.Float64, graph.Shape{126})
	require.EqualError(t, err, "Unable to allocate 1008 bytes for an array with shape (126,) and data type float64 (larger than the allocation limit of 1000 bytes)")

	// LimitAllocator replaces an allocation limit but keeps a memory
	// limit below it.
	plain := exec.LimitAllocator(memory.NewGoAllocator(), 100)
	require.EqualValues(t, 5000, exec.AllocLimit(exec.LimitAllocator(plain, 5000)))
	inner := exec.NewLimitedAllocator(memory.NewGoAllocator(), exec.Limits{MemoryLimit: 8000})
	outer := exec.LimitAllocator(inner, 5000)
	require.EqualValues(t, 5000, exec.AllocLimit(outer))
	b := outer.Allocate(4000)
	limit, inUse := outer.(exec.Budget).MemoryBudget()
	require.EqualValues(t, 8000, limit)
	require.EqualValues(t, 4000, inUse, "counted by the inner allocator")
	require.Panics(t, func() { outer.Allocate(4096) }, "within the allocation limit, beyond the inner memory limit's rest")
	outer.Free(b)
	require.Zero(t, inner.InUse())
}

func TestLimitedAllocatorInnerPanics(t *testing.T) {
	a := exec.NewLimitedAllocator(failingAllocator{memory.NewGoAllocator()}, exec.Limits{MemoryLimit: 1 << 20})
	require.Panics(t, func() { a.Allocate(100) })
	require.Panics(t, func() { a.Reallocate(100, nil) })
	require.Zero(t, a.InUse(), "a failed allocation is not counted")
}

// Concurrent allocations never take more than the memory limit together.
func TestLimitedAllocatorConcurrent(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	const limit = 8 << 10
	a := exec.NewLimitedAllocator(mem, exec.Limits{MemoryLimit: limit})
	var refused, peak atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 300 {
				func() {
					defer func() {
						if r := recover(); r != nil {
							require.IsType(t, &exec.MemoryError{}, r)
							refused.Add(1)
						}
					}()
					b := a.Allocate(3000)
					for {
						p := peak.Load()
						if n := mem.CurrentAlloc(); int64(n) <= p || peak.CompareAndSwap(p, int64(n)) {
							break
						}
					}
					a.Free(b)
				}()
			}
		})
	}
	wg.Wait()
	require.Zero(t, a.InUse())
	require.Zero(t, mem.CurrentAlloc())
	require.LessOrEqual(t, peak.Load(), int64(limit), "the base allocator never held more than the limit")

	// Three at once, each held until all have tried: exactly one of them
	// does not fit.
	refused.Store(0)
	var tried sync.WaitGroup
	tried.Add(3)
	for range 3 {
		wg.Go(func() {
			var b []byte
			func() {
				defer func() {
					if recover() != nil {
						refused.Add(1)
					}
				}()
				b = a.Allocate(3000)
			}()
			tried.Done()
			tried.Wait()
			if b != nil {
				a.Free(b)
			}
		})
	}
	wg.Wait()
	require.EqualValues(t, 1, refused.Load())
	require.Zero(t, a.InUse())
}

// TestAllocFits: AllocFits says yes exactly where CheckAlloc of an array
// of as many bytes passes, for both limits and an unlimited allocator.
func TestAllocFits(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	a := exec.NewLimitedAllocator(mem, exec.Limits{MaxAllocation: 3000, MemoryLimit: 4096})
	held := a.Allocate(2432) // 1664 bytes left
	defer a.Free(held)
	for _, tc := range []struct {
		alloc memory.Allocator
		n     int64
		want  bool
	}{
		{a, 0, true},
		{a, 1664, true},
		{a, 1600, true},
		{a, 1665, false}, // rounded up to 1728: beyond what is left
		{a, 3001, false}, // beyond the allocation limit
		{a, -1, false},
		{memory.NewGoAllocator(), 1 << 20, true},
		{memory.NewGoAllocator(), exec.DefaultMemoryLimit() + 1, false},
	} {
		if got := exec.AllocFits(tc.alloc, tc.n); got != tc.want {
			t.Errorf("AllocFits(%d) got:%v want:%v", tc.n, got, tc.want)
		}
		if tc.n < 0 {
			continue
		}
		if got := exec.CheckAlloc(tc.alloc, graph.Uint8, graph.Shape{int(tc.n)}) == nil; got != tc.want {
			t.Errorf("CheckAlloc of %d bytes passes got:%v want:%v", tc.n, got, tc.want)
		}
	}
}
