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
		out := make([]float64, nb*m*nn)
		for p := range nb {
			x, y, z := av.f[p*m*k:], bv.f[p*k*nn:], out[p*m*nn:]
			for i := range m {
				for j := range nn {
					acc := 0.0
					for q := range k {
						acc += x[i*k+q] * y[q*nn+j]
					}
					z[i*nn+j] = acc
				}
			}
		}
		return vec{f: out}
	}
	out := make([]int64, nb*m*nn)
	for p := range nb {
		x, y, z := av.i[p*m*k:], bv.i[p*k*nn:], out[p*m*nn:]
		for i := range m {
			for j := range nn {
				var acc int64
				for q := range k {
					acc += x[i*k+q] * y[q*nn+j]
				}
				z[i*nn+j] = acc
			}
		}
	}
	return vec{i: out}
}
