package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// Histogram counts values into bins: per block in shared memory with
// atomics, then into the global histogram.
//
//fuseflow:kernel
func Histogram(t kernel.Thread, x []int32, bins []uint32) {
	local := kernel.Shared[uint32](t, 16)
	tid := t.ThreadIdx().X
	if tid < 16 {
		local[tid] = 0
	}
	t.SyncThreads()
	for i := t.Grid1(); i < len(x); i += t.GridSize1() {
		kernel.AtomicAdd(local, int(x[i])&15, 1)
	}
	t.SyncThreads()
	if tid < 16 {
		kernel.AtomicAdd(bins, tid, local[tid])
	}
}

// Atomics applies every atomic to every type it takes; the final values
// do not depend on the order of the threads.
//
//fuseflow:kernel
func Atomics(t kernel.Thread, i32 []int32, u32 []uint32, i64 []int64, u64 []uint64, n []int, f32 []float32, f64 []float64) {
	i := t.Grid1()
	kernel.AtomicAdd(i32, 0, int32(i))
	kernel.AtomicSub(i32, 1, 3)
	kernel.AtomicMax(i32, 2, int32(i%37))
	kernel.AtomicMin(i32, 3, int32(-i))
	kernel.AtomicAnd(i32, 4, ^int32(1<<(i%31)))
	kernel.AtomicOr(i32, 5, int32(1)<<(i%31))
	kernel.AtomicXor(i32, 6, int32(i))
	kernel.AtomicAdd(u32, 0, uint32(i))
	kernel.AtomicMax(u32, 1, uint32(i*7))
	kernel.AtomicMin(u32, 2, uint32(i+3))
	kernel.AtomicInc(u32, 3, 9)
	kernel.AtomicDec(u32, 4, 9)
	kernel.AtomicOr(u32, 5, uint32(1)<<(i%32))
	kernel.AtomicAdd(i64, 0, int64(i)<<33)
	kernel.AtomicMax(i64, 1, int64(i)*-5)
	kernel.AtomicXor(i64, 2, int64(i)<<20)
	kernel.AtomicAdd(u64, 0, uint64(i))
	kernel.AtomicMin(u64, 1, uint64(1000-i))
	kernel.AtomicAnd(u64, 2, ^(uint64(1) << (i % 64)))
	kernel.AtomicAdd(n, 0, i)
	kernel.AtomicSub(n, 1, i)
	kernel.AtomicAdd(f32, 0, 0.5)
	kernel.AtomicSub(f32, 1, 0.25)
	kernel.AtomicAdd(f64, 0, 0.125)
	if i == 3 {
		kernel.AtomicExch(f32, 2, 9.5)
		kernel.AtomicExch(i64, 3, 77)
		kernel.AtomicCAS(u32, 6, 0, 55)
		kernel.AtomicCAS(n, 2, 1, 99) // fails: n[2] stays 0
	}
	// A counter taken by a compare-and-swap loop.
	old := kernel.AtomicCAS(i32, 7, 0, 0)
	for {
		got := kernel.AtomicCAS(i32, 7, old, old+1)
		if got == old {
			break
		}
		old = got
	}
}
