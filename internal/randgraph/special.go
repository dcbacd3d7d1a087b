// Hand-built cases for the differential tests of the generated kernels
// (the emulated CUDA device and the PTX simulator): inputs filled with
// ties, NaN and infinities, and GEMMs over transposed views.

package randgraph

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// FillSpecial fills host tensor x from r with few distinct values, so
// that reductions meet ties, and for floats with NaN (one element in
// nan, when nan > 0) and infinities now and then. Bool elements are
// true but one in 50; dtypes other than float32, float64, int32, int64
// and bool are left as they are.
func FillSpecial(x *exec.Tensor, r *rand.Rand, nan int) {
	for i := range x.Size() {
		v := float64(r.IntN(7) - 3)
		special := nan > 0 && r.IntN(nan) == 0
		switch x.DType {
		case graph.Float32, graph.Float64:
			if special {
				v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[r.IntN(3)]
			} else {
				v = v/2 + 1 // near 1: products stay finite
			}
			if x.DType == graph.Float32 {
				exec.Elems[float32](x)[i] = float32(v)
			} else {
				exec.Elems[float64](x)[i] = v
			}
		case graph.Int32:
			exec.Elems[int32](x)[i] = int32(v)
		case graph.Int64:
			exec.Elems[int64](x)[i] = int64(v)
		case graph.Bool:
			exec.Elems[uint8](x)[i] = uint8(min(1, r.IntN(50)))
		}
	}
}

// SpecialInputs returns a host tensor for each of the inputs xs,
// allocated from alloc in the input's dtype and shape and filled by
// FillSpecial. The caller releases the tensors; on an allocation error
// the ones already made are released.
func SpecialInputs(alloc memory.Allocator, r *rand.Rand, nan int, xs ...*graph.Node) (map[*graph.Node]*exec.Tensor, error) {
	bound := make(map[*graph.Node]*exec.Tensor, len(xs))
	for _, x := range xs {
		hx, err := exec.NewTensor(alloc, x.DType(), x.Shape())
		if err != nil {
			for _, t := range bound {
				t.Release()
			}
			return nil, fmt.Errorf("randgraph: input %v %v: %w", x.DType(), x.Shape(), err)
		}
		FillSpecial(hx, r, nan)
		bound[x] = hx
	}
	return bound, nil
}

// MatMulCase is a GEMM of the differential tests: the shapes of the
// inputs a and b, and whether the product reads each through the view
// that swaps its last two axes.
type MatMulCase struct {
	A, B           graph.Shape
	TransA, TransB bool
}

// Product returns inputs "a" and "b" of dtype d in the case's shapes
// and the product of the views the case names.
func (c MatMulCase) Product(d graph.DType) (a, b, p *graph.Node) {
	a, b = graph.Input(d, c.A, "a"), graph.Input(d, c.B, "b")
	va, vb := a, b
	if c.TransA {
		va = graph.Permute(a, SwapLast(len(c.A)))
	}
	if c.TransB {
		vb = graph.Permute(b, SwapLast(len(c.B)))
	}
	return a, b, graph.MatMul(va, vb)
}

// SwapLast returns the permutation of rank axes (rank >= 2) that swaps
// the last two.
func SwapLast(rank int) []int {
	p := make([]int, rank)
	for i := range p {
		p[i] = i
	}
	p[rank-1], p[rank-2] = p[rank-2], p[rank-1]
	return p
}
