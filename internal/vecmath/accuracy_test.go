// This file checks accuracy against Go's math package, a second check
// beside bit-exactness with the interpreter: every function within the
// bound of codegen/mathlib/ULP.md (plus one ulp for float64, where Go's
// own functions err by up to about one), on the path in use.

package vecmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/mathtest"
)

// ulpBound is the ULP.md bound of each function and type.
func ulpBound(fn ir.MathFn, typ ir.Type) int64 {
	switch fn {
	case ir.MathExpm1, ir.MathTan, ir.MathTanh, ir.MathSigmoid, ir.MathAtan2:
		return 2
	case ir.MathPow:
		if typ == ir.F32 {
			return 1
		}
		return 2
	case ir.MathRsqrt:
		if typ == ir.F32 {
			return 1
		}
		return 0
	case ir.MathSqrt, ir.MathFloor, ir.MathCeil, ir.MathRoundEven, ir.MathTrunc:
		return 0
	}
	return 1
}

// goMath are Go's functions in float64.
var goMath = map[ir.MathFn]func(x, y float64) float64{
	ir.MathExp: func(x, _ float64) float64 { return math.Exp(x) }, ir.MathExp2: func(x, _ float64) float64 { return math.Exp2(x) },
	ir.MathExpm1: func(x, _ float64) float64 { return math.Expm1(x) }, ir.MathLog: func(x, _ float64) float64 { return math.Log(x) },
	ir.MathLog2: func(x, _ float64) float64 { return math.Log2(x) }, ir.MathLog1p: func(x, _ float64) float64 { return math.Log1p(x) },
	ir.MathSin: func(x, _ float64) float64 { return math.Sin(x) }, ir.MathCos: func(x, _ float64) float64 { return math.Cos(x) },
	ir.MathTan: func(x, _ float64) float64 { return math.Tan(x) }, ir.MathTanh: func(x, _ float64) float64 { return math.Tanh(x) },
	ir.MathSigmoid: func(x, _ float64) float64 {
		if x < 0 {
			t := math.Exp(x)
			return t / (1 + t)
		}
		return 1 / (1 + math.Exp(-x))
	},
	ir.MathErf: func(x, _ float64) float64 { return math.Erf(x) }, ir.MathPow: math.Pow,
	ir.MathAtan2: math.Atan2, ir.MathRsqrt: func(x, _ float64) float64 { return 1 / math.Sqrt(x) },
	ir.MathSqrt: func(x, _ float64) float64 { return math.Sqrt(x) }, ir.MathFloor: func(x, _ float64) float64 { return math.Floor(x) },
	ir.MathCeil: func(x, _ float64) float64 { return math.Ceil(x) }, ir.MathRoundEven: func(x, _ float64) float64 { return math.RoundToEven(x) },
	ir.MathTrunc: func(x, _ float64) float64 { return math.Trunc(x) },
}

func TestAccuracy(t *testing.T) {
	for _, e := range kernels {
		fn, typ := mathFnOf(t, e.fn), e.typ()
		rng := rand.New(rand.NewPCG(3, uint64(fn)))
		n := 20000
		xs, ys := make([]uint64, n), []uint64(nil)
		// Moderate ranges, where Go's functions are accurate references.
		draw := func(lo, hi float64) uint64 {
			v := lo + (hi-lo)*rng.Float64()
			if typ == ir.F32 {
				return uint64(math.Float32bits(float32(v)))
			}
			return math.Float64bits(v)
		}
		lo, hi := -20.0, 20.0
		switch fn {
		case ir.MathLog, ir.MathLog2, ir.MathSqrt, ir.MathRsqrt:
			lo = 0
		case ir.MathLog1p:
			lo = -1
		case ir.MathPow:
			lo, hi = 0, 10
		}
		ylo, yhi := -10.0, 10.0
		// math.Log2 cancels just above 1 and math.Pow errs by some ulps
		// for large |y*log x| (mathlib's tests use a 200-bit reference
		// there): ranges where Go's values are within an ulp.
		if typ == ir.F64 && fn == ir.MathLog2 {
			lo, hi = 3, 1000
		}
		if typ == ir.F64 && fn == ir.MathPow {
			lo, hi, ylo, yhi = 0.5, 2, -2, 2
		}
		for i := range xs {
			xs[i] = draw(lo, hi)
		}
		if fn.Arity() == 2 {
			ys = make([]uint64, n)
			for i := range ys {
				ys[i] = draw(ylo, yhi)
			}
		}
		got := e.runBits(active, xs, ys, false)
		bound := ulpBound(fn, typ)
		if typ == ir.F64 && bound > 0 {
			bound++
		}
		worst := int64(0)
		for i := range xs {
			var x, y, g float64
			if typ == ir.F32 {
				x, g = float64(math.Float32frombits(uint32(xs[i]))), float64(math.Float32frombits(uint32(got[i])))
				if ys != nil {
					y = float64(math.Float32frombits(uint32(ys[i])))
				}
			} else {
				x, g = math.Float64frombits(xs[i]), math.Float64frombits(got[i])
				if ys != nil {
					y = math.Float64frombits(ys[i])
				}
			}
			want := goMath[fn](x, y)
			if typ == ir.F32 {
				want = float64(float32(want))
			}
			if math.IsNaN(want) != math.IsNaN(g) {
				t.Errorf("%s(%v, %v) got:%v want:%v", e.name(), x, y, g, want)
				continue
			}
			if math.IsNaN(want) {
				continue
			}
			worst = max(worst, mathtest.ULPs(typ, g, want))
			if d := mathtest.ULPs(typ, g, want); d > bound {
				t.Errorf("%s(%v, %v) got:%v want:%v (%d ulps, bound %d)", e.name(), x, y, g, want, d, bound)
				break
			}
		}
		t.Logf("%s on %s: at most %d ulps from Go's math", e.name(), active, worst)
	}
}
