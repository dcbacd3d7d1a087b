// This file tests the atomic operations: their results and old values
// for every type they accept, under contention from blocks running in
// parallel, and CUDA's wrap-around of AtomicInc and AtomicDec.

package kernel_test

import (
	"math"
	"sort"
	"testing"

	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

// contend launches body over 64 blocks of 64 threads (blocks run in
// parallel on the CPU) with one slice.
func contend[T kernel.Elem](t *testing.T, x []T, body func(t kernel.Thread, x []T)) {
	t.Helper()
	k := kernel.New(kernel.Spec{
		Name:   "contend",
		Params: []kernel.Param{{Name: "x", Type: kernel.TypeOf[T](), Slice: true, Written: true}},
		Bind:   kernel.Bind1(body),
	})
	require.NoError(t, k.Launch(kernel.Launch1D(64, 64), x))
}

const nthreads = 64 * 64

func testIntAtomics[T kernel.Integer](t *testing.T) {
	x := make([]T, 8)
	x[3] = ^T(0) // all ones for And
	x[6] = 1 << 20
	contend(t, x, func(th kernel.Thread, x []T) {
		i := T(th.Grid1())
		kernel.AtomicAdd(x, 0, 2)
		kernel.AtomicSub(x, 1, 1)
		kernel.AtomicMax(x, 2, i)
		kernel.AtomicAnd(x, 3, ^(T(1) << (i % 8)))
		kernel.AtomicOr(x, 4, T(1)<<(i%8+8))
		kernel.AtomicXor(x, 5, T(1)<<(i%4))
		kernel.AtomicMin(x, 6, i+5)
		// A counter incremented by a compare-and-swap loop (the first CAS
		// reads the value atomically).
		old := kernel.AtomicCAS(x, 7, 0, 0)
		for {
			got := kernel.AtomicCAS(x, 7, old, old+1)
			if got == old {
				break
			}
			old = got
		}
	})
	require.Equal(t, T(2*nthreads), x[0], "add")
	require.Equal(t, T(0)-T(nthreads), x[1], "sub")
	require.Equal(t, T(nthreads-1), x[2], "max")
	require.Equal(t, ^T(0xff), x[3], "and")
	require.Equal(t, T(0xff00), x[4], "or")
	require.Equal(t, T(0), x[5], "xor: every bit flipped an even number of times")
	require.Equal(t, T(5), x[6], "min")
	require.Equal(t, T(nthreads), x[7], "cas loop")
}

func TestAtomicsIntegers(t *testing.T) {
	t.Run("int", testIntAtomics[int])
	t.Run("int32", testIntAtomics[int32])
	t.Run("int64", testIntAtomics[int64])
	t.Run("uint32", testIntAtomics[uint32])
	t.Run("uint64", testIntAtomics[uint64])
}

func testFloatAtomics[T float32 | float64](t *testing.T) {
	x := make([]T, 3)
	x[1] = 100
	contend(t, x, func(th kernel.Thread, x []T) {
		kernel.AtomicAdd(x, 0, 0.5)
		kernel.AtomicSub(x, 1, 0.25)
		kernel.AtomicExch(x, 2, T(th.Grid1()))
	})
	require.Equal(t, T(nthreads/2), x[0])
	require.Equal(t, T(100-nthreads/4), x[1])
	require.True(t, x[2] >= 0 && x[2] < nthreads && x[2] == T(math.Trunc(float64(x[2]))), "exch got:%v", x[2])
}

func TestAtomicsFloats(t *testing.T) {
	t.Run("float32", testFloatAtomics[float32])
	t.Run("float64", testFloatAtomics[float64])
}

func TestAtomicOldValues(t *testing.T) {
	// Every thread's old value from an add is distinct: they are the
	// tickets 0, 2, 4, ...
	x := make([]int64, 1+nthreads)
	contend(t, x, func(th kernel.Thread, x []int64) {
		x[1+th.Grid1()] = kernel.AtomicAdd(x, 0, 2)
	})
	olds := append([]int64(nil), x[1:]...)
	sort.Slice(olds, func(i, j int) bool { return olds[i] < olds[j] })
	for i, v := range olds {
		require.Equal(t, int64(2*i), v)
	}
	s := []uint32{7}
	require.Equal(t, uint32(7), kernel.AtomicExch(s, 0, 9))
	require.Equal(t, uint32(9), kernel.AtomicCAS(s, 0, 8, 1), "a failed CAS returns the value and stores nothing")
	require.Equal(t, uint32(9), s[0])
	require.Equal(t, uint32(9), kernel.AtomicCAS(s, 0, 9, 1))
	require.Equal(t, uint32(1), s[0])
}

func TestAtomicIncDecWrap(t *testing.T) {
	// In order, inc with limit 3 cycles 0 1 2 3 0 ...; dec from 0 goes to
	// the limit, and a value above the limit is reset to it.
	s := []uint32{0, 0, 9}
	var inc, dec []uint32
	for range 10 {
		inc = append(inc, kernel.AtomicInc(s, 0, 3))
		dec = append(dec, kernel.AtomicDec(s, 1, 3))
	}
	require.Equal(t, []uint32{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}, inc)
	require.Equal(t, []uint32{0, 3, 2, 1, 0, 3, 2, 1, 0, 3}, dec)
	require.Equal(t, uint32(9), kernel.AtomicDec(s, 2, 3))
	require.Equal(t, uint32(3), s[2])
	require.Equal(t, uint32(3), kernel.AtomicInc(s, 2, 2))
	require.Equal(t, uint32(0), s[2])

	// Under contention the counter wraps exactly: nthreads increments of
	// a counter that wraps after 99 leave nthreads mod 100.
	x := make([]uint32, 2)
	contend(t, x, func(th kernel.Thread, x []uint32) {
		kernel.AtomicInc(x, 0, 99)
		kernel.AtomicDec(x, 1, 99)
	})
	require.Equal(t, uint32(nthreads%100), x[0])
	require.Equal(t, uint32((100-nthreads%100)%100), x[1])
}

func TestAtomicOutOfRange(t *testing.T) {
	k := kernel.New(kernel.Spec{
		Name:   "atomic_oob",
		Params: []kernel.Param{{Name: "x", Type: kernel.Float32, Slice: true, Written: true}},
		Bind: func(a []any) func(kernel.Thread) {
			x := a[0].([]float32)
			return func(t kernel.Thread) { kernel.AtomicAdd(x, t.Grid1(), 1) }
		},
	})
	err := k.Launch(kernel.Launch1D(1, 8), make([]float32, 5))
	require.ErrorContains(t, err, "kernel atomic_oob: block (0,0,0) thread (5,0,0) at atomic_test.go:")
	require.ErrorContains(t, err, "index out of range [5] with length 5")
}
