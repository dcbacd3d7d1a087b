// Package kerneltest holds explicit kernels that the CUDA executor's
// tests launch through Backend.KernelDevice, on the emulated device (the
// PTX simulator behind the fake driver) and on a GPU, against the same
// kernels run natively on the CPU device: one of each thing a launch
// packs or moves (scalars of every parameter type, a 3-D geometry, static and dynamic shared memory with
// barriers, atomics, warp shuffles, constant memory, and a failing
// bounds check). Host slices and device arrays are launched through
// package calltest's Saxpy, which the tests of lazy calls share.
package kerneltest

import "github.com/fuseflow/fuseflow/kernel"

//go:generate go run github.com/fuseflow/fuseflow/cmd/kernelgen

// Scalars writes each scalar parameter into out, so that their packing
// (a bool as a u32, int as 64 bits) is seen whole.
//
//fuseflow:kernel
func Scalars(t kernel.Thread, b bool, i int, i32 int32, i64 int64, u32 uint32, u64 uint64, f32 float32, f64 float64, out []float64, bits []uint64) {
	if t.Grid1() != 0 {
		return
	}
	if b {
		out[0] = 1
	}
	out[1] = float64(i)
	out[2] = float64(i32)
	out[3] = float64(i64)
	out[4] = float64(u32)
	out[5] = float64(f32)
	out[6] = f64
	bits[0] = u64
	bits[1] = uint64(i)
}

// Volume writes the linear index of every thread of a 3-D grid into
// out, from its 3-D global index.
//
//fuseflow:kernel
func Volume(t kernel.Thread, out []int32, nx, ny, nz int) {
	x, y, z := t.Grid3()
	if x < nx && y < ny && z < nz {
		out[(z*ny+y)*nx+x] = int32(x + 1000*y + 1000000*z)
	}
}

// block is the block size of BlockSum.
const block = 128

// BlockSum adds each block's elements of x through static shared memory
// in a tree between barriers and writes the block's sum to sums; a warp
// shuffle finishes the last 32.
//
//fuseflow:kernel
func BlockSum(t kernel.Thread, x, sums []float32) {
	s := kernel.Shared[float32](t, block)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := float32(0)
	if i < len(x) {
		v = x[i]
	}
	s[tid] = v
	t.SyncThreads()
	for w := block / 2; w >= 32; w /= 2 {
		if tid < w {
			s[tid] += s[tid+w]
		}
		t.SyncThreads()
	}
	if tid < 32 {
		v = s[tid]
		for d := 16; d > 0; d /= 2 {
			v += kernel.ShflDownSync(t, 0xffffffff, v, d)
		}
		if tid == 0 {
			sums[t.BlockIdx().X] = v
		}
	}
}

// Reverse reverses each block's slice of x in place through dynamic
// shared memory (one element a thread).
//
//fuseflow:kernel
func Reverse(t kernel.Thread, x []int64) {
	s := kernel.DynShared[int64](t)
	tid, n := t.ThreadIdx().X, t.BlockDim().X
	i := t.Grid1()
	if i < len(x) {
		s[tid] = x[i]
	}
	t.SyncThreads()
	j := t.BlockIdx().X*n + n - 1 - tid
	if i < len(x) && j < len(x) {
		x[i] = s[n-1-tid]
	}
}

// Histogram counts the values of x (clamped to [0, len(bins))) into bins
// with atomic adds.
//
//fuseflow:kernel
func Histogram(t kernel.Thread, x []int32, bins []uint32) {
	for i := t.Grid1(); i < len(x); i += t.GridSize1() {
		b := int(x[i])
		if b < 0 {
			b = 0
		}
		if b >= len(bins) {
			b = len(bins) - 1
		}
		kernel.AtomicAdd(bins, b, 1)
	}
}

// weights is a constant array (constant memory on the GPU).
var weights = [4]float64{0.5, -1, 2.25, 8}

// Weigh multiplies x by the constant weights, cyclically.
//
//fuseflow:kernel
func Weigh(t kernel.Thread, x []float64) {
	i := t.Grid1()
	if i < len(x) {
		x[i] *= weights[i%len(weights)]
	}
}

// Gather writes x[idx[i]] into out: an index out of range fails the
// launch at this line.
//
//fuseflow:kernel
func Gather(t kernel.Thread, x []float32, idx []int32, out []float32) {
	i := t.Grid1()
	if i < len(out) {
		out[i] = x[idx[i]]
	}
}

// tile is the side of TiledMatMul's tiles.
const tile = 16

// TiledMatMul computes c = a·b for n×n row-major matrices, tiles of a and
// b staged in shared memory between barriers (Numba's shared-memory
// matrix product), one element of c per thread of a 2-D grid of
// tile×tile blocks.
//
//fuseflow:kernel
func TiledMatMul(t kernel.Thread, a, b, c []float32, n int) {
	sa := kernel.Shared[float32](t, tile*tile)
	sb := kernel.Shared[float32](t, tile*tile)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	col, row := t.Grid2()
	acc := float32(0)
	for m := 0; m < (n+tile-1)/tile; m++ {
		ac, br := m*tile+tx, m*tile+ty
		sa[ty*tile+tx] = 0
		if row < n && ac < n {
			sa[ty*tile+tx] = a[row*n+ac]
		}
		sb[ty*tile+tx] = 0
		if br < n && col < n {
			sb[ty*tile+tx] = b[br*n+col]
		}
		t.SyncThreads()
		for k := range tile {
			acc += sa[ty*tile+k] * sb[k*tile+tx]
		}
		t.SyncThreads()
	}
	if row < n && col < n {
		c[row*n+col] = acc
	}
}
