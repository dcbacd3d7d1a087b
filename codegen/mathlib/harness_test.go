// This file implements the test harness: the kernel that applies one math
// function to a buffer (internal/mathtest's), expanded and run on the IR
// interpreter, the Go reference of each function, and the ULP distance.

package mathlib

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/mathtest"
	"github.com/stretchr/testify/require"
)

// compileExpanded builds, expands and compiles the kernel of fn on t.
func compileExpanded(t testing.TB, fn ir.MathFn, typ ir.Type) *ir.Program {
	t.Helper()
	f := mathtest.Kernel(fn, typ)
	require.NoError(t, Expand(f))
	p, err := ir.Compile(f)
	require.NoError(t, err, "%s.%s does not verify after Expand", fn, typ)
	return p
}

// runKernel runs p over xs (and ys for two-operand functions), rounded to
// typ, and returns the results.
func runKernel(t testing.TB, p *ir.Program, typ ir.Type, xs, ys []float64) []float64 {
	t.Helper()
	var yb []uint64
	if ys != nil {
		yb = mathtest.Bits(typ, ys)
	}
	out, err := mathtest.Run(p, typ, mathtest.Bits(typ, xs), yb)
	require.NoError(t, err)
	return mathtest.Values(typ, out)
}

// goRef is each function in float64 with Go's math package.
var goRef = [ir.NumMathFns]func(x, y float64) float64{
	ir.MathExp:       refExp,
	ir.MathExp2:      func(x, _ float64) float64 { return math.Exp2(x) },
	ir.MathLog:       refLog,
	ir.MathLog2:      func(x, _ float64) float64 { return math.Log2(x) },
	ir.MathLog1p:     func(x, _ float64) float64 { return math.Log1p(x) },
	ir.MathExpm1:     func(x, _ float64) float64 { return math.Expm1(x) },
	ir.MathSin:       func(x, _ float64) float64 { return math.Sin(x) },
	ir.MathCos:       func(x, _ float64) float64 { return math.Cos(x) },
	ir.MathTan:       func(x, _ float64) float64 { return math.Tan(x) },
	ir.MathTanh:      func(x, _ float64) float64 { return math.Tanh(x) },
	ir.MathSigmoid:   refSigmoid,
	ir.MathErf:       func(x, _ float64) float64 { return math.Erf(x) },
	ir.MathPow:       math.Pow,
	ir.MathSqrt:      func(x, _ float64) float64 { return math.Sqrt(x) },
	ir.MathRsqrt:     func(x, _ float64) float64 { return 1 / math.Sqrt(x) },
	ir.MathAtan2:     refAtan2,
	ir.MathFloor:     func(x, _ float64) float64 { return math.Floor(x) },
	ir.MathCeil:      func(x, _ float64) float64 { return math.Ceil(x) },
	ir.MathRoundEven: func(x, _ float64) float64 { return math.RoundToEven(x) },
	ir.MathTrunc:     func(x, _ float64) float64 { return math.Trunc(x) },
}

// refExp is math.Exp, except above 709 where the amd64 assembly of
// math.Exp returns +Inf early (from about 709.4, while exp overflows
// only past 709.78): there math.Expm1, which rounds the same there.
func refExp(x, _ float64) float64 {
	if x > 709 {
		return math.Expm1(x)
	}
	return math.Exp(x)
}

// refLog is math.Log, except for subnormal x, which the amd64 assembly of
// math.Log does not normalize (log(5e-324) comes out as -709.09 instead
// of -744.44): there log(frac) + exp*ln2 from math.Frexp, with ln 2 in two
// parts and one fused rounding.
func refLog(x, _ float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		fr, ex := math.Frexp(x)
		c := consts[ir.F64].ln2
		return math.FMA(float64(ex), c[0], math.Log(fr)+float64(ex)*c[1])
	}
	return math.Log(x)
}

// refSigmoid is 1/(1+e^-x), written e^x/(1+e^x) for x < 0 so that it does
// not overflow to 0 where the value is a subnormal.
func refSigmoid(x, _ float64) float64 {
	if x < 0 {
		t := refExp(x, 0)
		return t / (1 + t)
	}
	return 1 / (1 + refExp(-x, 0))
}

// refAtan2 is math.Atan2, except where y/x underflows to +0 for a
// negative y and negative x: math.Atan2 then returns +Pi, on the wrong
// side of the branch cut (Atan2(y<0, -Inf) is -Pi by its own rules).
func refAtan2(y, x float64) float64 {
	r := math.Atan2(y, x)
	if y < 0 && r > 0 {
		return -r
	}
	return r
}

// reference returns Go's value of fn at (x, y) rounded to type t.
func reference(fn ir.MathFn, t ir.Type, x, y float64) float64 {
	r := goRef[fn](x, y)
	if t == ir.F32 {
		return float64(float32(r))
	}
	return r
}

// ulpDist returns the distance of got from want in ulps of type t: 0 when
// both are NaN, +Inf when exactly one is.
func ulpDist(t ir.Type, got, want float64) float64 {
	gn, wn := math.IsNaN(got), math.IsNaN(want)
	switch {
	case gn && wn:
		return 0
	case gn || wn:
		return math.Inf(1)
	}
	return float64(mathtest.ULPs(t, got, want))
}
