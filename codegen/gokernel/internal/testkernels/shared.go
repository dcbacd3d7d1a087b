package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// tile is the side of the tiles of TiledMatMul.
const tile = 8

// TiledMatMul computes c = a·b for n×n row-major matrices with tiles of
// a and b staged in shared memory between barriers.
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

// BlockVotes counts and votes over the block with the barrier
// reductions, and sums through dynamic shared memory.
//
//fuseflow:kernel
func BlockVotes(t kernel.Thread, x []int32, out []int32) {
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := int32(0)
	if i < len(x) {
		v = x[i]
	}
	cnt := t.SyncThreadsCount(v > 0)
	all := t.SyncThreadsAnd(v > -5)
	any := t.SyncThreadsOr(v > 90)
	dyn := kernel.DynShared[int32](t)
	dyn[tid] = v
	t.SyncThreads()
	if tid == 0 {
		s := int32(0)
		for k := range t.BlockDim().X {
			s += dyn[k]
		}
		o := 4 * t.BlockIdx().X
		out[o] = int32(cnt)
		out[o+1] = int32(b2f(all))
		out[o+2] = int32(b2f(any))
		out[o+3] = s + int32(len(dyn))
	}
}
