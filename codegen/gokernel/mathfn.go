// This file implements the math functions kernels call: Go's math
// package for float64 and package kernel/math32 for float32, each mapped
// to an IR math call (expanded by the math library, codegen/mathlib,
// exactly as the lazy arrays' math is) or to plain IR with Go's
// semantics (Abs, FMA, Min, Max, Copysign, Signbit, the NaN and Inf
// tests, the bit conversions).

package gokernel

import (
	"go/types"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
)

var math64Funcs, math32Funcs map[string]handler

func init() {
	common := map[string]handler{
		"Sqrt": mathCall(ir.MathSqrt), "Exp": mathCall(ir.MathExp), "Exp2": mathCall(ir.MathExp2),
		"Expm1": mathCall(ir.MathExpm1), "Log": mathCall(ir.MathLog), "Log2": mathCall(ir.MathLog2),
		"Log1p": mathCall(ir.MathLog1p), "Sin": mathCall(ir.MathSin), "Cos": mathCall(ir.MathCos),
		"Tan": mathCall(ir.MathTan), "Tanh": mathCall(ir.MathTanh), "Erf": mathCall(ir.MathErf),
		"Pow": mathCall(ir.MathPow), "Atan2": mathCall(ir.MathAtan2), "Floor": mathCall(ir.MathFloor),
		"Ceil": mathCall(ir.MathCeil), "Trunc": mathCall(ir.MathTrunc), "RoundToEven": mathCall(ir.MathRoundEven),
		"Abs": func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.b.Abs(a[0][0]))
		},
		"FMA": func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.b.FMA(a[0][0], a[1][0], a[2][0]))
		},
		"IsNaN": func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.b.Cmp(ir.CmpNAN, a[0][0], a[0][0]))
		},
		"IsInf": isInf,
	}
	math64Funcs = map[string]handler{
		"Inf": inf,
		"NaN": func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.f.ConstFloat(ir.F64, math.NaN()))
		},
		"Float32bits":     bitcast(ir.U32),
		"Float32frombits": bitcast(ir.F32),
		"Float64bits":     bitcast(ir.U64),
		"Float64frombits": bitcast(ir.F64),
		"Copysign":        copysign,
		"Signbit":         signbit,
		"Max":             mathMinMax(true),
		"Min":             mathMinMax(false),
	}
	math32Funcs = map[string]handler{
		"Sigmoid": mathCall(ir.MathSigmoid),
		"Rsqrt":   mathCall(ir.MathRsqrt),
	}
	for k, h := range common {
		math64Funcs[k] = h
		math32Funcs[k] = h
	}
}

// mathCall returns the handler of an IR math function.
func mathCall(fn ir.MathFn) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		vs := make([]*ir.Value, len(a))
		for i, x := range a {
			vs[i] = x[0]
		}
		return one(c.b.Math(fn, vs...))
	}
}

// infOf returns +Inf or -Inf of float type t.
func (c *compiler) infOf(t ir.Type, sign int) *ir.Value { return c.f.ConstFloat(t, math.Inf(sign)) }

// isInf is IsInf(x, sign): +Inf for sign > 0, -Inf for sign < 0, either
// for 0.
func isInf(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
	b := c.b
	x, s := a[0][0], a[1][0]
	zero := c.f.Const(s.Type, 0)
	pos := b.And(b.Ge(s, zero), b.Eq(x, c.infOf(x.Type, 1)))
	neg := b.And(b.Le(s, zero), b.Eq(x, c.infOf(x.Type, -1)))
	return one(b.Or(pos, neg))
}

// inf is math.Inf(sign).
func inf(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
	s := a[0][0]
	return one(c.b.Select(c.b.Ge(s, c.f.Const(s.Type, 0)), c.infOf(ir.F64, 1), c.infOf(ir.F64, -1)))
}

// bitcast returns the handler of a bit conversion to type t.
func bitcast(t ir.Type) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		return one(c.b.Bitcast(a[0][0], t))
	}
}

// copysign is math.Copysign(f, sign) on float64 bits.
func copysign(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
	b := c.b
	sb := b.U64(1 << 63)
	f := b.Bitcast(a[0][0], ir.U64)
	s := b.Bitcast(a[1][0], ir.U64)
	return one(b.Bitcast(b.Or(b.And(f, b.Not(sb)), b.And(s, sb)), ir.F64))
}

// signbit is math.Signbit(x).
func signbit(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
	b := c.b
	return one(b.Ne(b.And(b.Bitcast(a[0][0], ir.U64), b.U64(1<<63)), b.U64(0)))
}

// mathMinMax is math.Max and math.Min: the builtin's semantics, except
// that an infinity of the winning sign beats a NaN.
func mathMinMax(isMax bool) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		b := c.b
		x, y := a[0][0], a[1][0]
		r := c.minMax(isMax, x, y)
		sign := -1
		if isMax {
			sign = 1
		}
		in := c.infOf(ir.F64, sign)
		return one(b.Select(b.Or(b.Eq(x, in), b.Eq(y, in)), in, r))
	}
}
