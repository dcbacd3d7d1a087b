// This file holds the ULP bounds the tests assert, per function and type,
// within the ranges of ULP.md (measured maxima, rounded up).

package mathlib

import "github.com/fuseflow/fuseflow/codegen/ir"

// ulpBounds[fn] is {f32 bound, f64 bound}.
var ulpBounds = [ir.NumMathFns][2]float64{
	ir.MathExp:       {1, 1},
	ir.MathExp2:      {1, 1},
	ir.MathLog:       {1, 1},
	ir.MathLog2:      {1, 1},
	ir.MathLog1p:     {1, 1},
	ir.MathExpm1:     {2, 2},
	ir.MathSin:       {1, 1},
	ir.MathCos:       {1, 1},
	ir.MathTan:       {2, 2},
	ir.MathTanh:      {2, 2},
	ir.MathSigmoid:   {2, 2},
	ir.MathErf:       {1, 1},
	ir.MathPow:       {1, 2},
	ir.MathSqrt:      {0, 0},
	ir.MathRsqrt:     {1, 0},
	ir.MathAtan2:     {2, 2},
	ir.MathFloor:     {0, 0},
	ir.MathCeil:      {0, 0},
	ir.MathRoundEven: {0, 0},
	ir.MathTrunc:     {0, 0},
}

// ulpBound returns the bound of fn on t.
func ulpBound(fn ir.MathFn, t ir.Type) float64 {
	if t == ir.F32 {
		return ulpBounds[fn][0]
	}
	return ulpBounds[fn][1]
}
