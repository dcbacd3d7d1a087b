package main

import "github.com/fuseflow/fuseflow/kernel"

//go:generate go run github.com/fuseflow/fuseflow/cmd/kernelgen

// VecAdd writes x + y into out, one element per thread (the vector add
// of the material: cuda.grid(1), then the bounds check that a launch
// rounded up to whole blocks needs).
//
//fuseflow:kernel
func VecAdd(t kernel.Thread, x, y, out []float32) {
	i := t.Grid1()
	if i < len(out) {
		out[i] = x[i] + y[i]
	}
}

// GridSum adds the elements of x into total[0]: each thread sums a
// grid-stride slice (cuda.grid(1) to len(x) by cuda.gridsize(1)) and
// adds its partial sum atomically (cuda.atomic.add). The material's
// version sits the loop inside if idx < len(arr); the loop's own test is
// enough.
//
//fuseflow:kernel
func GridSum(t kernel.Thread, x, total []float32) {
	s := float32(0)
	for i := t.Grid1(); i < len(x); i += t.GridSize1() {
		s += x[i]
	}
	kernel.AtomicAdd(total, 0, s)
}

// MatMul computes c = a·b for row-major matrices a (m×k), b (k×n) and c
// (m×n), one element of c per thread of a 2-D grid. The index comes from
// t.Grid2(), Numba's cuda.grid(2): one of the material's snippets calls
// cuda.grid(0) and cuda.grid(1) for the row and column, which is not
// valid (cuda.grid takes the number of dimensions). x runs along the
// columns, so neighbouring threads read neighbouring elements of b.
//
//fuseflow:kernel
func MatMul(t kernel.Thread, a, b, c []float32, m, k, n int) {
	col, row := t.Grid2()
	if row < m && col < n {
		s := float32(0)
		for p := range k {
			s += a[row*k+p] * b[p*n+col]
		}
		c[row*n+col] = s
	}
}

// Threshold keeps the elements of x above th and zeroes the others.
//
//fuseflow:kernel
func Threshold(t kernel.Thread, x []float32, th float32, out []float32) {
	if i := t.Grid1(); i < len(out) {
		if x[i] > th {
			out[i] = x[i]
		} else {
			out[i] = 0
		}
	}
}

// tile is the side of the square tiles of TiledMatMul: a block is
// tile×tile threads.
const tile = 16

// TiledMatMul is MatMul with the tiles of a and b a block needs staged in
// shared memory (cuda.shared.array), each loaded once by the block's
// threads between two barriers (cuda.syncthreads).
//
//fuseflow:kernel
func TiledMatMul(t kernel.Thread, a, b, c []float32, m, k, n int) {
	sa := kernel.Shared[float32](t, tile*tile)
	sb := kernel.Shared[float32](t, tile*tile)
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	col, row := t.Grid2()
	s := float32(0)
	for p0 := 0; p0 < k; p0 += tile {
		sa[ty*tile+tx] = 0
		if row < m && p0+tx < k {
			sa[ty*tile+tx] = a[row*k+p0+tx]
		}
		sb[ty*tile+tx] = 0
		if p0+ty < k && col < n {
			sb[ty*tile+tx] = b[(p0+ty)*n+col]
		}
		t.SyncThreads()
		for q := range tile {
			s += sa[ty*tile+q] * sb[q*tile+tx]
		}
		t.SyncThreads()
	}
	if row < m && col < n {
		c[row*n+col] = s
	}
}

// window is the width of WindowMax's window.
const window = 4

// WindowMax writes the largest of x[i..i+window-1] into out[i], holding
// the window in a per-thread local array (cuda.local.array).
//
//fuseflow:kernel
func WindowMax(t kernel.Thread, x, out []float32) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	var w [window]float32
	for j := range w {
		w[j] = x[i+j]
	}
	m := w[0]
	for _, v := range w[1:] {
		m = max(m, v)
	}
	out[i] = m
}

// poly are the coefficients of Poly's polynomial, lowest degree first: a
// package-level array of constants is the kernel's constant memory
// (cuda.const.array_like).
var poly = [4]float64{1, -0.5, 0.25, 2}

// Poly evaluates the polynomial with coefficients poly at each element
// of x (Horner's rule).
//
//fuseflow:kernel
func Poly(t kernel.Thread, x, out []float64) {
	if i := t.Grid1(); i < len(out) {
		v := x[i]
		s := 0.0
		for j := len(poly) - 1; j >= 0; j-- {
			s = s*v + poly[j]
		}
		out[i] = s
	}
}

// warpSum adds v over the lanes of the warp with down shuffles; lane 0
// ends with the sum.
func warpSum(t kernel.Thread, v float32) float32 {
	for off := kernel.WarpSize / 2; off > 0; off /= 2 {
		v += kernel.ShflDownSync(t, 0xffffffff, v, off)
	}
	return v
}

// SumSquares adds the squares of x into total[0]: grid-stride partial
// sums, reduced within each warp by shuffles, the warps' sums through
// shared memory and a barrier, one atomic add per block. The block size
// must be a multiple of 32, at most 1024.
//
//fuseflow:kernel
func SumSquares(t kernel.Thread, x, total []float32) {
	warps := kernel.Shared[float32](t, 32)
	s := float32(0)
	for i := t.Grid1(); i < len(x); i += t.GridSize1() {
		s += x[i] * x[i]
	}
	s = warpSum(t, s)
	tid, lane := t.ThreadIdx().X, t.LaneID()
	if lane == 0 {
		warps[tid/kernel.WarpSize] = s
	}
	t.SyncThreads()
	if tid < kernel.WarpSize {
		v := float32(0)
		if tid < t.BlockDim().X/kernel.WarpSize {
			v = warps[tid]
		}
		v = warpSum(t, v)
		if tid == 0 {
			kernel.AtomicAdd(total, 0, v)
		}
	}
}
