// Narrow dtypes in kernel bodies: an elementwise op, generated leaf or
// reduction on int8, int16, uint8, uint16, uint32, float16 or bfloat16 is
// emitted in its lane (graph.DType.Lane: int32, int64 or float32) between
// casts, so that backends compute only in bool, int32, int64, uint64,
// float32 and float64 and need, for the narrow dtypes, loads, stores,
// constants, Where and casts. Narrowing after every op (wrapping at the
// width, rounding to nearest even) gives NumPy's result of the op in the
// narrow dtype. Reductions of uint64 run in int64: Sum and Prod on the
// same bits, Max, Min, ArgMax and ArgMin on the bits with the sign bit
// flipped (which orders them as unsigned).

package fuse

import (
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// cast pushes a conversion of value v (of dtype from) to dtype to, or
// returns v when they are the same.
func (kb *kbuild) cast(epi bool, v int, from, to graph.DType) int {
	if from == to {
		return v
	}
	return kb.push(epi, Instr{Kind: InstrOp, Op: graph.OpCast, DType: to, Args: []int{v}})
}

// pushOp pushes elementwise node n applied to args, in the lane of its
// compute dtype when that dtype is narrow.
func (kb *kbuild) pushOp(epi bool, n *graph.Node, args []int) int {
	c := graph.ComputeDType(n)
	if n.Op() == graph.OpCast || n.Op() == graph.OpWhere || !c.Narrow() {
		return kb.push(epi, Instr{Kind: InstrOp, Op: n.Op(), DType: n.DType(), Args: args})
	}
	lane := c.Lane()
	wide := make([]int, len(args))
	for i, a := range args {
		wide[i] = kb.cast(epi, a, c, lane)
	}
	out := n.DType()
	if out == c {
		out = lane
	}
	v := kb.push(epi, Instr{Kind: InstrOp, Op: n.Op(), DType: out, Args: wide})
	return kb.cast(epi, v, out, n.DType())
}

// pushGen pushes a generated leaf of dtype d: Iota and Eye of a dtype
// that backends do not generate are generated as float64 (Iota, which
// AsType's conversion then gives exactly as Iota defines it) or bool
// (Eye) and cast.
func (kb *kbuild) pushGen(epi bool, in Instr) int {
	d := in.DType
	in.DType = genDType(in.Op, d)
	return kb.cast(epi, kb.push(epi, in), in.DType, d)
}

// genDType returns the dtype a generated leaf op of dtype d is generated
// in.
func genDType(op graph.Op, d graph.DType) graph.DType {
	switch {
	case !d.Narrow() && d != graph.Uint64:
		return d
	case op == graph.OpEye:
		return graph.Bool
	}
	return graph.Float64
}

// reduceLane returns the dtype a reduction of values of dtype d runs in.
func reduceLane(d graph.DType) graph.DType {
	if d == graph.Uint64 {
		return graph.Int64
	}
	return d.Lane()
}

// flipsSign reports whether a reduction op of uint64 values in int64
// compares them (and so needs the sign bit flipped).
func flipsSign(d graph.DType, op graph.Op) bool {
	return d == graph.Uint64 && op != graph.OpSum && op != graph.OpProd && op != graph.OpAny && op != graph.OpAll
}

// reduceValue returns the body value and the accumulator dtype of
// reduction op over value v of dtype d.
func (kb *kbuild) reduceValue(op graph.Op, v int, d graph.DType) (int, graph.DType) {
	lane := reduceLane(d)
	if lane == d {
		return v, graph.ReduceDType(op, d)
	}
	v = kb.cast(false, v, d, lane)
	if flipsSign(d, op) {
		v = kb.flip(false, v)
	}
	return v, graph.ReduceDType(op, lane)
}

// flip pushes v xor MinInt64 (an int64 value).
func (kb *kbuild) flip(epi bool, v int) int {
	c := kb.push(epi, Instr{Kind: InstrConst, DType: graph.Int64, Value: graph.Scalar{DType: graph.Int64, I: math.MinInt64, F: -0x1p63}})
	return kb.push(epi, Instr{Kind: InstrOp, Op: graph.OpXor, DType: graph.Int64, Args: []int{v, c}})
}

// pushAcc pushes the result of reduction acc as a value of dtype d, the
// reduction node's dtype: the accumulator narrowed (and unflipped) when
// the reduction ran in a lane.
func (kb *kbuild) pushAcc(acc int, d graph.DType) int {
	if kb.kind != KindReduce {
		return kb.push(true, Instr{Kind: InstrAcc, DType: d, Acc: acc})
	}
	r := kb.reds[acc]
	v := kb.push(true, Instr{Kind: InstrAcc, DType: r.DType, Acc: acc})
	if r.DType == d {
		return v
	}
	if flipsSign(kb.redIn[acc], r.Op) {
		v = kb.flip(true, v)
	}
	return kb.cast(true, v, r.DType, d)
}
