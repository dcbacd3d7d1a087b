// Scalar semantics of the test interpreter and the naive evaluator: every
// elementwise op, cast, generated leaf and reduction combiner over float64
// values that hold the element of any dtype. Both evaluators share these,
// so a disagreement between them is a planning error, not an op error.

package fuse

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
	"github.com/fuseflow/fuseflow/internal/philox"
)

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// castTo converts v to dtype d as AsType does (saturating, NaN to 0 for
// integers; x != 0 for bool).
func castTo(d graph.DType, v float64) float64 {
	switch {
	case d == graph.Bool:
		return b2f(v != 0)
	case d == graph.Uint64:
		return float64(graph.CastFloatToUint64(v))
	case d.IsInt():
		return float64(graph.CastFloatToInt(d, v))
	}
	return graph.RoundFloat(d, v)
}

var unaryF = map[graph.Op]func(float64) float64{
	graph.OpNeg: func(x float64) float64 { return -x }, graph.OpAbs: math.Abs,
	graph.OpSign: func(x float64) float64 {
		if x != x {
			return x
		}
		return b2f(x > 0) - b2f(x < 0)
	},
	graph.OpSqrt: math.Sqrt, graph.OpRsqrt: func(x float64) float64 { return 1 / math.Sqrt(x) },
	graph.OpExp: math.Exp, graph.OpExp2: math.Exp2, graph.OpLog: math.Log, graph.OpLog2: math.Log2,
	graph.OpLog1p: math.Log1p, graph.OpExpm1: math.Expm1, graph.OpSin: math.Sin, graph.OpCos: math.Cos,
	graph.OpTan: math.Tan, graph.OpTanh: math.Tanh, graph.OpErf: math.Erf,
	graph.OpSigmoid: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	graph.OpFloor:   math.Floor, graph.OpCeil: math.Ceil, graph.OpRound: math.RoundToEven, graph.OpTrunc: math.Trunc,
	graph.OpRecip:  func(x float64) float64 { return 1 / x },
	graph.OpSquare: func(x float64) float64 { return x * x },
	graph.OpIsNaN:  func(x float64) float64 { return b2f(x != x) },
	graph.OpIsInf:  func(x float64) float64 { return b2f(math.IsInf(x, 0)) },
}

// intOp applies an integer operation to the int64 values of a and b.
func intOp(f func(a, b int64) int64) func(a, b float64) float64 {
	return func(a, b float64) float64 { return float64(f(int64(a), int64(b))) }
}

// binaryF holds the binary ops by the dtype class they compute in:
// binaryF[op][true] for integers and bool, [false] for floats.
var binaryF = map[graph.Op]map[bool]func(a, b float64) float64{
	graph.OpAdd: both(func(a, b float64) float64 { return a + b }),
	graph.OpSub: both(func(a, b float64) float64 { return a - b }),
	graph.OpMul: both(func(a, b float64) float64 { return a * b }),
	graph.OpDiv: both(func(a, b float64) float64 { return a / b }),
	graph.OpFloorDiv: {false: func(a, b float64) float64 { return math.Floor(a / b) },
		true: intOp(fmath.FloorDiv[int64])},
	graph.OpMod: {false: func(a, b float64) float64 {
		r := math.Mod(a, b)
		if r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		return r
	}, true: intOp(fmath.Mod[int64])},
	graph.OpPow: both(math.Pow), graph.OpMax: both(math.Max), graph.OpMin: both(math.Min),
	graph.OpAtan2: both(math.Atan2),
	graph.OpEq:    both(func(a, b float64) float64 { return b2f(a == b) }),
	graph.OpNe:    both(func(a, b float64) float64 { return b2f(a != b) }),
	graph.OpLt:    both(func(a, b float64) float64 { return b2f(a < b) }),
	graph.OpLe:    both(func(a, b float64) float64 { return b2f(a <= b) }),
	graph.OpGt:    both(func(a, b float64) float64 { return b2f(a > b) }),
	graph.OpGe:    both(func(a, b float64) float64 { return b2f(a >= b) }),
	graph.OpAnd:   {true: intOp(fmath.And[int64])},
	graph.OpOr:    {true: intOp(fmath.Or[int64])},
	graph.OpXor:   {true: intOp(fmath.Xor[int64])},
}

func both(f func(a, b float64) float64) map[bool]func(a, b float64) float64 {
	return map[bool]func(a, b float64) float64{false: f, true: f}
}

// applyOp evaluates the elementwise op with result dtype d on args, which
// already have the op's compute dtype cd.
func applyOp(op graph.Op, d, cd graph.DType, args []float64) (float64, error) {
	switch {
	case op == graph.OpCast:
		return castTo(d, args[0]), nil
	case op == graph.OpWhere:
		if args[0] != 0 {
			return args[1], nil
		}
		return args[2], nil
	case op == graph.OpNot:
		if d == graph.Bool {
			return b2f(args[0] == 0), nil
		}
		return castTo(d, float64(^int64(args[0]))), nil
	case unaryF[op] != nil:
		return castTo(d, unaryF[op](args[0])), nil
	case binaryF[op] != nil:
		f := binaryF[op][!cd.IsFloat()]
		if f == nil {
			return 0, fmt.Errorf("test interpreter: %v of %v", op, cd)
		}
		return castTo(d, f(args[0], args[1])), nil
	}
	return 0, fmt.Errorf("test interpreter: no op %v", op)
}

// genValue is element i of a generated leaf of dtype d.
func genValue(op graph.Op, d graph.DType, g *GenAttr, i int) (float64, error) {
	switch op {
	case graph.OpIota:
		if g.HasStop && i == g.Len-1 {
			return castTo(d, g.Stop), nil
		}
		return castTo(d, g.Start+float64(i)*g.Step), nil
	case graph.OpEye:
		return castTo(d, b2f(i%g.Cols-i/g.Cols == g.K)), nil
	case graph.OpRandU:
		if d == graph.Float32 {
			return float64(philox.Float32(g.Seed, uint64(i))), nil
		}
		return philox.Float64(g.Seed, uint64(i)), nil
	case graph.OpRandN:
		if d == graph.Float32 {
			return float64(philox.Normal32(g.Seed, uint64(i))), nil
		}
		return philox.Normal64(g.Seed, uint64(i)), nil
	}
	return 0, fmt.Errorf("test interpreter: no generator %v", op)
}

// reducer combines the values of one output point one at a time, in the
// row-major order of the reduced sub-space, as a Reduce kernel does.
type reducer struct {
	op    graph.Op
	acc   float64 // the running value; for ArgMax/ArgMin the best value
	index int     // ArgMax/ArgMin: the index of acc
	n     int
}

func newReducer(op graph.Op) *reducer {
	r := &reducer{op: op}
	switch op {
	case graph.OpProd, graph.OpAll:
		r.acc = 1
	}
	return r
}

// add combines x: NaN propagates through Max and Min, which keep the
// first of equal values (-0 and +0 compare equal); ArgMax and ArgMin keep
// the first of equal values and stop at the first NaN.
func (r *reducer) add(x float64) {
	i := r.n
	r.n++
	switch r.op {
	case graph.OpSum:
		r.acc += x
	case graph.OpProd:
		r.acc *= x
	case graph.OpReduceMax, graph.OpReduceMin:
		switch {
		case i == 0 || x != x:
			r.acc = x
		case r.acc != r.acc:
		case r.op == graph.OpReduceMax && x > r.acc, r.op == graph.OpReduceMin && x < r.acc:
			r.acc = x // the first of equal values (-0 and +0) stays
		}
	case graph.OpArgMax, graph.OpArgMin:
		better := x > r.acc
		if r.op == graph.OpArgMin {
			better = x < r.acc
		}
		if i == 0 || r.acc == r.acc && (x != x || better) {
			r.acc, r.index = x, i
		}
	case graph.OpAny:
		r.acc = b2f(r.acc != 0 || x != 0)
	case graph.OpAll:
		r.acc = b2f(r.acc != 0 && x != 0)
	}
}

// result returns the reduction, converted to d.
func (r *reducer) result(d graph.DType) float64 {
	if r.op == graph.OpArgMax || r.op == graph.OpArgMin {
		return float64(r.index)
	}
	return castTo(d, r.acc)
}
