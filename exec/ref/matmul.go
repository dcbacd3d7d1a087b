// MatMul: batched matrix products with NumPy's broadcast batch axes.

package ref

import (
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// matmul computes out[..., i, j] = sum over k of a[..., i, k] * b[..., k,
// j], the batch axes broadcast. Floats accumulate in float64 (products of
// float32 values are exact there) and round once; integers accumulate in
// int64 with wraparound. The sum runs over k in increasing order.
func matmul(n *graph.Node, a, b *exec.Tensor) vec {
	s := n.Shape()
	r := len(s)
	m, nn := s[r-2], s[r-1]
	k := a.Shape[len(a.Shape)-1]
	batch := s[:r-2]
	av := load(a, append(batch.Clone(), m, k))
	bv := load(b, append(batch.Clone(), k, nn))
	nb := batch.Size()
	if av.isFloat() {
		return vec{f: products(av.f, bv.f, nb, m, k, nn)}
	}
	return vec{i: products(av.i, bv.i, nb, m, k, nn)}
}

// products returns the nb products of the m-by-k matrices of a and the
// k-by-n matrices of b, row-major and one after the other.
func products[L float64 | int64](a, b []L, nb, m, k, n int) []L {
	out := make([]L, nb*m*n)
	for p := range nb {
		x, y, z := a[p*m*k:], b[p*k*n:], out[p*m*n:]
		for i := range m {
			for j := range n {
				var acc L
				for q := range k {
					acc += x[i*k+q] * y[q*n+j]
				}
				z[i*n+j] = acc
			}
		}
	}
	return out
}
