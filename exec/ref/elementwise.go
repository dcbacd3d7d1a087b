// Elementwise evaluation: unary ops, casts, binary ops, comparisons and
// Where, each operand read stretched to the node's shape and combined
// element by element with the tables of scalar.go.

package ref

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// unary applies n's op to x. Operands already have the dtype the op
// computes in (the graph inserts casts), except IsNaN and IsInf, which
// are false for integer and bool operands.
func unary(n *graph.Node, x vec) (vec, error) {
	op := n.Op()
	in := n.Input(0).DType()
	switch {
	case op == graph.OpCast:
		return castLane(x, n.DType()), nil
	case op == graph.OpIsNaN || op == graph.OpIsInf:
		out := make([]int64, len(x.f)+len(x.i))
		for k, v := range x.f {
			if (op == graph.OpIsNaN && v != v) || (op == graph.OpIsInf && math.IsInf(v, 0)) {
				out[k] = 1
			}
		}
		return vec{i: out}, nil
	case in.IsFloat():
		if f := unaryFloat[op]; f != nil {
			return vec{f: mapLane(x.f, f)}, nil
		}
	default:
		tab := unaryInt
		switch {
		case in == graph.Bool:
			tab = unaryBool
		case in.Unsigned():
			tab = unaryUint
		}
		if f := tab[op]; f != nil {
			return vec{i: mapLane(x.i, f)}, nil
		}
	}
	return vec{}, fmt.Errorf("unsupported operand dtype %v", in)
}

// castLane converts x to the lane of dtype d by the cast rules: floats to
// integers and bool through castFloat; everything else keeps its lane and
// is converted when stored (see store).
func castLane(x vec, d graph.DType) vec {
	if !x.isFloat() || d.IsFloat() {
		return x
	}
	out := make([]int64, len(x.f))
	for k, v := range x.f {
		out[k] = castFloat(v, d)
	}
	return vec{i: out}
}

// binary applies n's op (arithmetic or comparison) to a and b, both
// already stretched to n's shape and of the same dtype.
func binary(n *graph.Node, a, b vec) (vec, error) {
	op := n.Op()
	if a.isFloat() {
		if f := binaryFloat[op]; f != nil {
			return vec{f: zipLane(a.f, b.f, f)}, nil
		}
		if f := compareFloat[op]; f != nil {
			return vec{i: zipLane(a.f, b.f, asInt(f))}, nil
		}
	} else if a.u {
		if f := binaryUint[op]; f != nil {
			return vec{i: zipLane(a.i, b.i, f)}, nil
		}
		if f := compareUint[op]; f != nil {
			return vec{i: zipLane(a.i, b.i, asInt(f))}, nil
		}
	} else {
		if f := binaryInt[op]; f != nil {
			return vec{i: zipLane(a.i, b.i, f)}, nil
		}
		if f := compareInt[op]; f != nil {
			return vec{i: zipLane(a.i, b.i, asInt(f))}, nil
		}
	}
	return vec{}, fmt.Errorf("unsupported operand dtype %v", n.Input(0).DType())
}

// where picks a's element where cond is true and b's elsewhere.
func where(cond, a, b vec) vec {
	if a.isFloat() {
		return vec{f: pickLane(cond.i, a.f, b.f)}
	}
	return vec{i: pickLane(cond.i, a.i, b.i), u: a.u}
}

// pickLane returns a[k] where cond[k] is nonzero and b[k] elsewhere.
func pickLane[L float64 | int64](cond []int64, a, b []L) []L {
	out := make([]L, len(cond))
	for k, c := range cond {
		out[k] = b[k]
		if c != 0 {
			out[k] = a[k]
		}
	}
	return out
}

// mapLane returns f of each element of x.
func mapLane[L float64 | int64](x []L, f func(L) L) []L {
	out := make([]L, len(x))
	for k, v := range x {
		out[k] = f(v)
	}
	return out
}

// zipLane returns f of each pair of elements of a and b.
func zipLane[L float64 | int64, R any](a, b []L, f func(x, y L) R) []R {
	out := make([]R, len(a))
	for k := range out {
		out[k] = f(a[k], b[k])
	}
	return out
}

// asInt turns a comparison into a function to the int lane (1 or 0).
func asInt[L float64 | int64](f func(x, y L) bool) func(x, y L) int64 {
	return func(x, y L) int64 { return b2i(f(x, y)) }
}
