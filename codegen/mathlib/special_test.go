// This file tests special values: for every expanded function and type,
// zeros, infinities, NaN, subnormals, the ends of the range and the
// boundaries of the special cases, compared with Go's math package.

package mathlib

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// specials returns the special inputs of type t.
func specials(t ir.Type) []float64 {
	inf, nan := math.Inf(1), math.NaN()
	maxv, tiny, minNorm := math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022
	if t == ir.F32 {
		maxv, tiny, minNorm = math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-126
	}
	base := []float64{0, inf, nan, 1, 0.5, 2, 3, 1.5, 2.5, 10, 100, 1000, 1e10,
		maxv, tiny, minNorm, 0x1p-30, 0x1p-60, 88.72, 89, 709.78, 710, 745.2, 104, 150, 1075}
	var out []float64
	for _, v := range base {
		out = append(out, v, -v)
	}
	return out
}

// exactCase reports whether the result at (x, y) must match Go's bit for
// bit: a special input or a special result.
func exactCase(want float64, in ...float64) bool {
	if want == 0 || math.IsInf(want, 0) || math.IsNaN(want) || math.Abs(want) == 1 {
		return true
	}
	for _, v := range in {
		if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			return true
		}
	}
	return false
}

func TestSpecialValues(t *testing.T) {
	for fn := ir.MathFn(0); int(fn) < ir.NumMathFns; fn++ {
		for _, typ := range []ir.Type{ir.F32, ir.F64} {
			sp := specials(typ)
			var xs, ys []float64
			if fn.Arity() == 2 {
				for _, x := range sp {
					for _, y := range sp {
						xs, ys = append(xs, x), append(ys, y)
					}
				}
			} else {
				xs = sp
			}
			if typ == ir.F32 {
				for i := range xs {
					xs[i] = float64(float32(xs[i]))
				}
				for i := range ys {
					ys[i] = float64(float32(ys[i]))
				}
			}
			p := compileExpanded(t, fn, typ)
			got := runKernel(t, p, typ, xs, ys)
			bound := ulpBound(fn, typ)
			for i, x := range xs {
				var y float64
				in := []float64{x}
				if ys != nil {
					y = ys[i]
					in = append(in, y)
				}
				want := expected(fn, typ, x, y)
				d := ulpDist(typ, got[i], want)
				d, _ = arbitrate(fn, typ, x, y, got[i], d, bound)
				exact := exactCase(want, in...)
				if want == 0 && got[i] == 0 && math.Signbit(want) != math.Signbit(got[i]) {
					d = math.Inf(1) // the sign of zero matters
				}
				if (exact && d != 0) || d > bound {
					t.Errorf("%s.%s%v got:%v want:%v (%v ulp)", fn, typ, in, got[i], want, d)
				}
			}
		}
	}
}
