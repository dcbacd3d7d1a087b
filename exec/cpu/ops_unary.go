// Unary inner loops: one typed loop per op and dtype, collected in a table
// indexed by dtype and graph.Op.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

type (
	ints   interface{ ~int32 | ~int64 }
	floats interface{ ~float32 | ~float64 }
	nums   interface{ ints | floats }
	elems  interface{ nums | ~uint8 }
)

// unaryTab[d][op] computes op over operands of dtype d. IsNaN and IsInf
// write bool; every other entry writes d.
var unaryTab [numDTypes][256]unaryFn

// initUnaryTab fills unaryTab with the scalar loops (see tables.go).
func initUnaryTab() {
	for _, d := range []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64} {
		unaryTab[d][graph.OpIsNaN] = isFalse
		unaryTab[d][graph.OpIsInf] = isFalse
	}
	unaryTab[graph.Bool][graph.OpAbs] = unary(copyL[uint8])
	unaryTab[graph.Bool][graph.OpNot] = unary(notB)
	intUnary[int32](graph.Int32)
	intUnary[int64](graph.Int64)
	floatUnary[float32](graph.Float32)
	floatUnary[float64](graph.Float64)
	t32, t64 := &unaryTab[graph.Float32], &unaryTab[graph.Float64]
	for op, f := range math64 {
		t64[op] = unary(apply64(f))
		t32[op] = unary(apply32(f))
	}
	t32[graph.OpExp] = unary(exp32L)
	t32[graph.OpSigmoid] = unary(sigmoid32L)
	t32[graph.OpSqrt] = unary(sqrt32L)
	t64[graph.OpSqrt] = unary(sqrt64L)
}

func intUnary[T ints](d graph.DType) {
	t := &unaryTab[d]
	t[graph.OpNeg] = unary(negL[T])
	t[graph.OpAbs] = unary(absI[T])
	t[graph.OpSign] = unary(signI[T])
	t[graph.OpSquare] = unary(squareL[T])
	t[graph.OpNot] = unary(notI[T])
	for _, op := range []graph.Op{graph.OpFloor, graph.OpCeil, graph.OpRound, graph.OpTrunc} {
		t[op] = unary(copyL[T])
	}
}

func floatUnary[T floats](d graph.DType) {
	t := &unaryTab[d]
	t[graph.OpNeg] = unary(negL[T])
	t[graph.OpAbs] = unary(absF[T])
	t[graph.OpSign] = unary(signF[T])
	t[graph.OpSquare] = unary(squareL[T])
	t[graph.OpRecip] = unary(recipL[T])
	t[graph.OpIsNaN] = unary(isNaNL[T])
	t[graph.OpIsInf] = unary(isInfL[T])
}

// math64 lists the float math computed in float64 (float32 operands are
// widened and the result rounded once).
var math64 = map[graph.Op]func(float64) float64{
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
}

func apply64(f func(float64) float64) func(d, a []float64) {
	return func(d, a []float64) {
		d = d[:len(a)]
		for i, x := range a {
			d[i] = f(x)
		}
	}
}

func apply32(f func(float64) float64) func(d, a []float32) {
	return func(d, a []float32) {
		d = d[:len(a)]
		for i, x := range a {
			d[i] = float32(f(float64(x)))
		}
	}
}

func copyL[T any](d, a []T) { copy(d, a) }

func isFalse(d, _ unsafe.Pointer, n int) { clear(view[uint8](d, n)) }

func notB(d, a []uint8) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = b2u(x == 0)
	}
}

func notI[T ints](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = ^x
	}
}

func negL[T nums](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = -x
	}
}

func squareL[T nums](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = x * x
	}
}

func absI[T ints](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		if x < 0 {
			x = -x
		}
		d[i] = x
	}
}

func absF[T floats](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = T(math.Abs(float64(x)))
	}
}

func signI[T ints](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		var s T
		if x > 0 {
			s = 1
		} else if x < 0 {
			s = -1
		}
		d[i] = s
	}
}

func signF[T floats](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		switch {
		case x > 0:
			x = 1
		case x < 0:
			x = -1
		case x == 0:
			x = 0
		}
		d[i] = x
	}
}

func recipL[T floats](d, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = 1 / x
	}
}

func isNaNL[T floats](d []uint8, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = b2u(x != x)
	}
}

func isInfL[T floats](d []uint8, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = b2u(math.IsInf(float64(x), 0))
	}
}

func sqrt32L(d, a []float32) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = float32(math.Sqrt(float64(x)))
	}
}

func sqrt64L(d, a []float64) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = math.Sqrt(x)
	}
}

// b2u converts a Go bool to the byte fuseflow stores for it.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
