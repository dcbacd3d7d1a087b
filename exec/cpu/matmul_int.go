// Integer MatMul: a cache-blocked loop over rows of A and blocks of k,
// wrapping as the reference does, parallel over blocks of rows of every
// batch point.

package cpu

import (
	"context"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// Blocking of the integer product: rows of A per task and the depth of a
// block of B kept in cache.
const (
	intRowBlock = 32
	intKBlock   = 256
)

// intMatMul computes integer products with wraparound, parallel over
// blocks of rows of every batch point.
func (m *mmKernel) intMatMul(ctx context.Context, ex *runState, acc unsafe.Pointer, workers int) error {
	s := &m.spec
	per := (s.M + intRowBlock - 1) / intRowBlock
	return parallel(ctx, workers, m.batch.size*per, func(_, t int) {
		b, blk := t/per, t%per
		a := m.mat(ex, &s.A, b, s.M, s.K)
		bb := m.mat(ex, &s.B, b, s.K, s.N)
		i0, i1 := blk*intRowBlock, min(s.M, (blk+1)*intRowBlock)
		if m.dt == graph.Int32 {
			imm[int32](a, bb, view[int32](at(acc, b*s.M*s.N, 4), s.M*s.N), i0, i1, s.N, s.K)
		} else {
			imm[int64](a, bb, view[int64](at(acc, b*s.M*s.N, 8), s.M*s.N), i0, i1, s.N, s.K)
		}
	})
}

// imm computes rows [i0, i1) of C = A·B (C dense with N columns).
func imm[T int32 | int64](a, b matrix, c []T, i0, i1, N, K int) {
	es := int(unsafe.Sizeof(T(0)))
	clear(c[i0*N : i1*N])
	for k0 := 0; k0 < K; k0 += intKBlock {
		k1 := min(K, k0+intKBlock)
		for i := i0; i < i1; i++ {
			row := c[i*N : (i+1)*N]
			for k := k0; k < k1; k++ {
				x := *(*T)(at(a.base, a.off+i*a.rs+k*a.cs, es))
				if x == 0 {
					continue
				}
				bo := b.off + k*b.rs
				if b.cs == 1 {
					brow := view[T](at(b.base, bo, es), N)
					for j, y := range brow {
						row[j] += x * y
					}
					continue
				}
				for j := range row {
					row[j] += x * *(*T)(at(b.base, bo+j*b.cs, es))
				}
			}
		}
	}
}
