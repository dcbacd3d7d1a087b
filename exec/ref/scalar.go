// Scalar semantics: what every elementwise op does to one element, in the
// float64 lane (float dtypes) and the int64 lane (integer and bool
// dtypes). These tables are the definition other backends must match.

package ref

import (
	"math"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// unaryFloat defines the unary ops on floats. Float32 operands are
// widened exactly, the op runs in float64 and the result is rounded to
// float32 once.
var unaryFloat = map[graph.Op]func(float64) float64{
	graph.OpNeg:     func(x float64) float64 { return -x },
	graph.OpAbs:     math.Abs,
	graph.OpSign:    signFloat,
	graph.OpSqrt:    math.Sqrt,
	graph.OpRsqrt:   func(x float64) float64 { return 1 / math.Sqrt(x) },
	graph.OpExp:     math.Exp,
	graph.OpExp2:    math.Exp2,
	graph.OpLog:     fmath.Log,
	graph.OpLog2:    math.Log2,
	graph.OpLog1p:   math.Log1p,
	graph.OpExpm1:   math.Expm1,
	graph.OpSin:     math.Sin,
	graph.OpCos:     math.Cos,
	graph.OpTan:     math.Tan,
	graph.OpTanh:    math.Tanh,
	graph.OpSigmoid: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) },
	graph.OpErf:     math.Erf,
	graph.OpFloor:   math.Floor,
	graph.OpCeil:    math.Ceil,
	graph.OpRound:   math.RoundToEven,
	graph.OpTrunc:   math.Trunc,
	graph.OpRecip:   func(x float64) float64 { return 1 / x },
	graph.OpSquare:  func(x float64) float64 { return x * x },
}

// unaryInt defines the unary ops on integers, computed in int64 and
// wrapped to the dtype (so Abs and Neg of the minimum value give it
// back). Rounding ops leave integers unchanged.
var unaryInt = map[graph.Op]func(int64) int64{
	graph.OpNeg:    func(x int64) int64 { return -x },
	graph.OpAbs:    func(x int64) int64 { return max(x, -x) },
	graph.OpSign:   func(x int64) int64 { return int64(cmpInt(x, 0)) },
	graph.OpSquare: func(x int64) int64 { return x * x },
	graph.OpFloor:  func(x int64) int64 { return x },
	graph.OpCeil:   func(x int64) int64 { return x },
	graph.OpRound:  func(x int64) int64 { return x },
	graph.OpTrunc:  func(x int64) int64 { return x },
	graph.OpNot:    func(x int64) int64 { return ^x },
}

// unaryBool defines the unary ops on bool (0 or 1 in the int lane).
var unaryBool = map[graph.Op]func(int64) int64{
	graph.OpAbs: func(x int64) int64 { return x },
	graph.OpNot: func(x int64) int64 { return x ^ 1 },
}

// binaryFloat defines the binary ops on floats (float32 as for
// unaryFloat).
var binaryFloat = map[graph.Op]func(a, b float64) float64{
	graph.OpAdd:      func(a, b float64) float64 { return a + b },
	graph.OpSub:      func(a, b float64) float64 { return a - b },
	graph.OpMul:      func(a, b float64) float64 { return a * b },
	graph.OpDiv:      func(a, b float64) float64 { return a / b },
	graph.OpFloorDiv: floorDivFloat,
	graph.OpMod:      modFloat,
	graph.OpPow:      math.Pow,
	graph.OpMax:      maxFloat,
	graph.OpMin:      minFloat,
	graph.OpAtan2:    math.Atan2,
}

// binaryInt defines the binary ops on integers and bool, in int64 and
// wrapped to the dtype. And, Or and Xor are bitwise, which on bool's 0
// and 1 is logical.
var binaryInt = map[graph.Op]func(a, b int64) int64{
	graph.OpAdd:      func(a, b int64) int64 { return a + b },
	graph.OpSub:      func(a, b int64) int64 { return a - b },
	graph.OpMul:      func(a, b int64) int64 { return a * b },
	graph.OpFloorDiv: floorDivInt,
	graph.OpMod:      modInt,
	graph.OpPow:      powInt,
	graph.OpMax:      func(a, b int64) int64 { return max(a, b) },
	graph.OpMin:      func(a, b int64) int64 { return min(a, b) },
	graph.OpAnd:      func(a, b int64) int64 { return a & b },
	graph.OpOr:       func(a, b int64) int64 { return a | b },
	graph.OpXor:      func(a, b int64) int64 { return a ^ b },
}

// IntOp returns the reference's definition of the binary op on the int64
// lane (integer and bool dtypes, before the result wraps to the dtype),
// nil when there is none; test oracles use it where they mean the same
// rule. The function is safe for concurrent use.
func IntOp(op graph.Op) func(a, b int64) int64 { return binaryInt[op] }

// compareFloat defines the comparisons of floats: IEEE, so every
// comparison with NaN is false except Ne.
var compareFloat = comparisons[float64]()

// compareInt defines the comparisons of integers and bool.
var compareInt = comparisons[int64]()

// comparisons returns Go's comparison operators on lane L by op.
func comparisons[L float64 | int64]() map[graph.Op]func(a, b L) bool {
	return map[graph.Op]func(a, b L) bool{
		graph.OpEq: func(a, b L) bool { return a == b },
		graph.OpNe: func(a, b L) bool { return a != b },
		graph.OpLt: func(a, b L) bool { return a < b },
		graph.OpLe: func(a, b L) bool { return a <= b },
		graph.OpGt: func(a, b L) bool { return a > b },
		graph.OpGe: func(a, b L) bool { return a >= b },
	}
}

// signFloat is -1, 0 or 1 by the sign of x; NaN stays NaN and both zeros
// give +0 (NumPy).
func signFloat(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case x == 0:
		return 0
	}
	return x
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// maxFloat is NumPy's maximum: a when a >= b or a is NaN, else b, so NaN
// in either operand gives NaN (and maximum(-0, +0) is -0).
func maxFloat(a, b float64) float64 {
	if a >= b || a != a {
		return a
	}
	return b
}

// minFloat is NumPy's minimum: a when a <= b or a is NaN, else b.
func minFloat(a, b float64) float64 {
	if a <= b || a != a {
		return a
	}
	return b
}

// divmodFloat is NumPy's divmod of floats for b != 0: mod = fmod(a, b)
// moved into b's sign by adding b, and div = (a - mod) / b rounded to the
// nearest integer (with the zero results signed as NumPy signs them).
func divmodFloat(a, b float64) (div, mod float64) {
	mod = math.Mod(a, b)
	div = (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			div -= 1
		}
	} else {
		mod = math.Copysign(0, b)
	}
	if div != 0 {
		fl := math.Floor(div)
		if div-fl > 0.5 {
			fl++
		}
		div = fl
	} else {
		div = math.Copysign(0, a/b)
	}
	return div, mod
}

// floorDivFloat is a // b as NumPy computes it; by zero it is a / b (±Inf,
// or NaN for 0 // 0 and NaN // 0).
func floorDivFloat(a, b float64) float64 {
	if b == 0 {
		return a / b
	}
	d, _ := divmodFloat(a, b)
	return d
}

// modFloat is a % b as NumPy computes it (the sign of b); by zero it is
// NaN (fmod's result).
func modFloat(a, b float64) float64 {
	if b == 0 {
		return math.Mod(a, b)
	}
	_, m := divmodFloat(a, b)
	return m
}

// floorDivInt is a // b rounded toward negative infinity; by zero it is
// 0, and MinInt // -1 wraps to MinInt.
func floorDivInt(a, b int64) int64 {
	if b == 0 {
		return 0
	}
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// modInt is a % b with the sign of b (Python); by zero it is 0.
func modInt(a, b int64) int64 {
	if b == 0 {
		return 0
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// powInt is a ** b by repeated squaring with wraparound. A negative
// exponent gives 0, except that 1 ** b is 1 and (-1) ** b is ±1 by the
// parity of b.
func powInt(a, b int64) int64 {
	if b < 0 {
		switch a {
		case 1:
			return 1
		case -1:
			if b&1 != 0 {
				return -1
			}
			return 1
		}
		return 0
	}
	r := int64(1)
	for b > 0 {
		if b&1 != 0 {
			r *= a
		}
		a *= a
		b >>= 1
	}
	return r
}

// castFloat converts one float to the int lane for a cast to dtype d:
// graph.CastFloatToInt for integers (truncation toward zero, NaN to 0,
// saturating or wrapping as it defines per dtype), and x != 0 for bool
// (so NaN is true).
func castFloat(x float64, d graph.DType) int64 {
	if d.IsInt() {
		return graph.CastFloatToInt(d, x)
	}
	if x != 0 {
		return 1
	}
	return 0
}
