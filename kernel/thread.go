// This file implements Thread, the first parameter of every kernel, and
// its index intrinsics: the thread's and block's indices and dimensions,
// the absolute positions and sizes of the grid (Numba's cuda.grid and
// cuda.gridsize), the lane and the warp size.

package kernel

import "fmt"

// WarpSize is the number of threads of a warp.
const WarpSize = 32

// Dim3 is a 3-D index or extent, as CUDA's dim3. In a Config a zero
// component means 1.
type Dim3 struct{ X, Y, Z int }

// String returns "(x,y,z)".
func (d Dim3) String() string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }

// D1 returns the extent (x, 1, 1).
func D1(x int) Dim3 { return Dim3{x, 1, 1} }

// D2 returns the extent (x, y, 1).
func D2(x, y int) Dim3 { return Dim3{x, y, 1} }

// D3 returns the extent (x, y, z).
func D3(x, y, z int) Dim3 { return Dim3{x, y, z} }

// norm returns d with zero components set to 1.
func (d Dim3) norm() Dim3 {
	if d.X == 0 {
		d.X = 1
	}
	if d.Y == 0 {
		d.Y = 1
	}
	if d.Z == 0 {
		d.Z = 1
	}
	return d
}

// count returns x*y*z.
func (d Dim3) count() int { return d.X * d.Y * d.Z }

// Thread is the first parameter of every kernel: which thread of which
// block of the grid runs this call, and the handle through which the
// thread reaches block-level operations (barriers, shared memory, warp
// operations). A kernel receives it; it never creates one. Its methods
// and the package's intrinsics that take it are valid only during the
// kernel call that received it.
type Thread struct{ s *thread }

// thread is the state of one running thread.
type thread struct {
	tid, bid   Dim3
	bdim, gdim Dim3
	linear     int // tid.X + tid.Y*bdim.X + tid.Z*bdim.X*bdim.Y
	blk        *block
}

// ThreadIdx returns the thread's index within its block (CUDA's
// threadIdx).
func (t Thread) ThreadIdx() Dim3 { return t.s.tid }

// BlockIdx returns the block's index within the grid (blockIdx).
func (t Thread) BlockIdx() Dim3 { return t.s.bid }

// BlockDim returns the block's dimensions in threads (blockDim).
func (t Thread) BlockDim() Dim3 { return t.s.bdim }

// GridDim returns the grid's dimensions in blocks (gridDim).
func (t Thread) GridDim() Dim3 { return t.s.gdim }

// Grid1 returns the thread's absolute index along x,
// BlockIdx.X*BlockDim.X + ThreadIdx.X (Numba's cuda.grid(1)).
func (t Thread) Grid1() int { s := t.s; return s.bid.X*s.bdim.X + s.tid.X }

// Grid2 returns the absolute indices along x and y (cuda.grid(2)).
func (t Thread) Grid2() (x, y int) {
	s := t.s
	return s.bid.X*s.bdim.X + s.tid.X, s.bid.Y*s.bdim.Y + s.tid.Y
}

// Grid3 returns the absolute indices along x, y and z (cuda.grid(3)).
func (t Thread) Grid3() (x, y, z int) {
	s := t.s
	return s.bid.X*s.bdim.X + s.tid.X, s.bid.Y*s.bdim.Y + s.tid.Y, s.bid.Z*s.bdim.Z + s.tid.Z
}

// GridSize1 returns the number of threads of the grid along x,
// BlockDim.X*GridDim.X (cuda.gridsize(1)), the stride of a grid-stride
// loop.
func (t Thread) GridSize1() int { return t.s.bdim.X * t.s.gdim.X }

// GridSize2 returns the numbers of threads of the grid along x and y
// (cuda.gridsize(2)).
func (t Thread) GridSize2() (x, y int) {
	s := t.s
	return s.bdim.X * s.gdim.X, s.bdim.Y * s.gdim.Y
}

// GridSize3 returns the numbers of threads of the grid along x, y and z
// (cuda.gridsize(3)).
func (t Thread) GridSize3() (x, y, z int) {
	s := t.s
	return s.bdim.X * s.gdim.X, s.bdim.Y * s.gdim.Y, s.bdim.Z * s.gdim.Z
}

// LaneID returns the thread's lane within its warp, 0 to 31. Warps are
// 32 consecutive threads of the block in linear order (x fastest).
func (t Thread) LaneID() int { return t.s.linear % WarpSize }

// WarpSize returns the number of threads of a warp, 32.
func (t Thread) WarpSize() int { return WarpSize }
