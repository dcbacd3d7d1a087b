// Scans: CumSum, CumProd, CumMax and CumMin along Attr.Axis of a
// contiguous input.

package ref

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// scanStep names the reduction whose step each scan applies (acc first:
// CumMax and CumMin keep the accumulator on ties, as NumPy's maximum does).
var scanStep = map[graph.Op]graph.Op{
	graph.OpCumSum: graph.OpSum, graph.OpCumProd: graph.OpProd,
	graph.OpCumMax: graph.OpReduceMax, graph.OpCumMin: graph.OpReduceMin,
}

// scan computes scan node n from x, its input (already of n's dtype) in
// row-major order. Each lane along the axis is combined front to back,
// one element at a time, in the result's dtype: a float32 running sum is
// rounded to float32 after every addition, as NumPy's cumsum of float32
// is, so the reference gives NumPy's values exactly (not a float64
// running sum rounded once, which differs from NumPy's in the last bits
// of long float32 lanes). Integers wrap in int64.
func scan(n *graph.Node, x vec) (vec, error) {
	s := n.Shape()
	ax := n.Attr().Axis
	if ax < 0 || ax >= len(s) {
		return vec{}, fmt.Errorf("axis %d out of range", ax)
	}
	length, inner := s[ax], 1
	for _, e := range s[ax+1:] {
		inner *= e
	}
	outer := 1
	for _, e := range s[:ax] {
		outer *= e
	}
	if x.isFloat() {
		f := combineFloat[scanStep[n.Op()]]
		if f == nil {
			return vec{}, fmt.Errorf("unsupported operand dtype %v", n.Input(0).DType())
		}
		round := func(v float64) float64 { return v }
		if n.DType() == graph.Float32 {
			round = func(v float64) float64 { return float64(float32(v)) }
		}
		out := make([]float64, len(x.f))
		lanes(outer, length, inner, func(idx []int) {
			acc := x.f[idx[0]]
			out[idx[0]] = acc
			for _, k := range idx[1:] {
				acc = round(f(acc, x.f[k]))
				out[k] = acc
			}
		})
		return vec{f: out}, nil
	}
	f := combineInt[scanStep[n.Op()]]
	if f == nil {
		return vec{}, fmt.Errorf("unsupported operand dtype %v", n.Input(0).DType())
	}
	out := make([]int64, len(x.i))
	lanes(outer, length, inner, func(idx []int) {
		acc := x.i[idx[0]]
		out[idx[0]] = acc
		for _, k := range idx[1:] {
			acc = f(acc, x.i[k])
			out[k] = acc
		}
	})
	return vec{i: out}, nil
}

// lanes calls fn with the row-major indices of each lane of length
// elements along the scanned axis (outer lanes before it, inner after).
func lanes(outer, length, inner int, fn func(idx []int)) {
	if length == 0 {
		return
	}
	idx := make([]int, length)
	for o := range outer {
		for j := range inner {
			for i := range idx {
				idx[i] = (o*length+i)*inner + j
			}
			fn(idx)
		}
	}
}
