// Reductions: Sum, Prod, Max, Min, ArgMax, ArgMin, Any and All over
// Attr.Axes of a contiguous input.

package ref

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// reduce computes reduction node n from x, its input in row-major order.
// Each output element combines the input elements that share its kept
// coordinates, in row-major order of the input:
//
//   - Sum and Prod of floats accumulate in float64 and round once; of
//     integers in int64 with wraparound. Empty: 0 and 1. A float Sum
//     starts from -0, so the sum of -0 values is -0 as in NumPy.
//   - Max and Min propagate NaN (maximum and minimum of scalar.go).
//   - ArgMax and ArgMin give the coordinate along the single reduced axis
//     of the first extreme element, or of the first NaN if there is one.
//   - Any and All test x != 0 (NaN is true). Empty: false and true.
func reduce(n *graph.Node, x vec) (vec, error) {
	in := n.Input(0).Shape()
	a := n.Attr()
	red := make([]bool, len(in))
	for _, ax := range a.Axes {
		red[ax] = true
	}
	// Output strides indexed by input axis: 0 on reduced axes, row-major
	// over the kept extents otherwise.
	ost := make([]int, len(in))
	acc := 1
	for ax := len(in) - 1; ax >= 0; ax-- {
		if !red[ax] {
			ost[ax] = acc
			acc *= in[ax]
		}
	}
	out := n.Size()
	it := newIter(in, graph.Layout{Shape: in, Strides: ost})
	m := in.Size()
	switch n.Op() {
	case graph.OpArgMax, graph.OpArgMin:
		return argReduce(n.Op() == graph.OpArgMax, x, it, m, out, a.Axes[0]), nil
	case graph.OpAny, graph.OpAll:
		all := n.Op() == graph.OpAll
		r := make([]int64, out)
		for k := range r {
			r[k] = b2i(all)
		}
		for k := range m {
			nz := (x.isFloat() && x.f[k] != 0) || (!x.isFloat() && x.i[k] != 0)
			if nz != all {
				r[it.off[0]] = b2i(nz)
			}
			it.next()
		}
		return vec{i: r}, nil
	}
	if x.isFloat() {
		f, init := combineFloat[n.Op()], initFloat[n.Op()]
		if f == nil {
			return vec{}, fmt.Errorf("unsupported operand dtype %v", n.Input(0).DType())
		}
		if n.Op() == graph.OpSum && m > 0 {
			init = math.Copysign(0, -1) // -0 + x is x for every x, -0 included
		}
		return vec{f: fold(x.f[:m], it, out, init, f)}, nil
	}
	f, init := combineInt[n.Op()], initInt[n.Op()]
	if x.u {
		if g, ok := combineUint[n.Op()]; ok {
			f, init = g, initUint[n.Op()]
		}
	}
	if f == nil {
		return vec{}, fmt.Errorf("unsupported operand dtype %v", n.Input(0).DType())
	}
	return vec{i: fold(x.i[:m], it, out, init, f)}, nil
}

// fold returns out accumulators starting at init, each combining with f
// the elements of x that the iterator maps to it, in order.
func fold[L float64 | int64](x []L, it *iter, out int, init L, f func(acc, x L) L) []L {
	r := make([]L, out)
	for k := range r {
		r[k] = init
	}
	for _, v := range x {
		r[it.off[0]] = f(r[it.off[0]], v)
		it.next()
	}
	return r
}

// combineFloat and initFloat give each float reduction's step and
// starting value (Max and Min of an empty selection are rejected by the
// graph, so their starting values never show).
var (
	combineFloat = map[graph.Op]func(acc, x float64) float64{
		graph.OpSum:       func(acc, x float64) float64 { return acc + x },
		graph.OpProd:      func(acc, x float64) float64 { return acc * x },
		graph.OpReduceMax: maxFloat,
		graph.OpReduceMin: minFloat,
	}
	initFloat = map[graph.Op]float64{
		graph.OpSum: 0, graph.OpProd: 1, graph.OpReduceMax: math.Inf(-1), graph.OpReduceMin: math.Inf(1),
	}
	combineInt = map[graph.Op]func(acc, x int64) int64{
		graph.OpSum:       func(acc, x int64) int64 { return acc + x },
		graph.OpProd:      func(acc, x int64) int64 { return acc * x },
		graph.OpReduceMax: func(acc, x int64) int64 { return max(acc, x) },
		graph.OpReduceMin: func(acc, x int64) int64 { return min(acc, x) },
	}
	initInt = map[graph.Op]int64{
		graph.OpSum: 0, graph.OpProd: 1, graph.OpReduceMax: math.MinInt64, graph.OpReduceMin: math.MaxInt64,
	}
	// combineUint and initUint replace Max and Min for uint64 bits.
	combineUint = map[graph.Op]func(acc, x int64) int64{
		graph.OpReduceMax: binaryUint[graph.OpMax],
		graph.OpReduceMin: binaryUint[graph.OpMin],
	}
	initUint = map[graph.Op]int64{graph.OpReduceMax: 0, graph.OpReduceMin: -1}
)

// argReduce finds, for each of out outputs, the coordinate along axis of
// the first maximum (isMax) or minimum, a NaN winning over any number.
func argReduce(isMax bool, x vec, it *iter, m, out, axis int) vec {
	idx := make([]int64, out)
	for k := range idx {
		idx[k] = -1
	}
	bestF := make([]float64, out)
	bestI := make([]int64, out)
	for k := range m {
		o, c := it.off[0], int64(it.idx[axis])
		var take bool
		if x.isFloat() {
			v, b := x.f[k], bestF[o]
			switch {
			case idx[o] < 0:
				take = true
			case b != b:
			case v != v:
				take = true
			case isMax:
				take = v > b
			default:
				take = v < b
			}
			if take {
				bestF[o] = v
			}
		} else {
			v, b := x.i[k], bestI[o]
			if x.u { // uint64 bits: flip the sign bit to compare as signed
				v, b = v^math.MinInt64, b^math.MinInt64
			}
			take = idx[o] < 0 || (isMax && v > b) || (!isMax && v < b)
			if take {
				bestI[o] = x.i[k]
			}
		}
		if take {
			idx[o] = c
		}
		it.next()
	}
	return vec{i: idx}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
