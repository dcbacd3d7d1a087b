// Casts (AsType) between every pair of dtypes: the scalar conversion the
// fast paths share and its IR lowering. Float to integer truncates toward
// zero, saturates at the target's range and maps NaN to 0
// (graph.CastFloatToInt32 and graph.CastFloatToInt64); integer to
// integer wraps; integer to float and float to float round to nearest
// once; anything to bool is x != 0 (NaN is true); bool to a number is 0
// or 1.

package opdef

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// casts[from][to] is the conversion as a func(T) R (Fns' types).
var casts = map[graph.DType]map[graph.DType]any{
	graph.Bool: {
		graph.Bool: ident[bool], graph.Int32: fmath.FromBool[int32], graph.Int64: fmath.FromBool[int64],
		graph.Float32: fmath.FromBool[float32], graph.Float64: fmath.FromBool[float64],
	},
	graph.Int32: {
		graph.Bool: fmath.ToBool[int32], graph.Int32: ident[int32], graph.Int64: fmath.Convert[int32, int64],
		graph.Float32: fmath.Convert[int32, float32], graph.Float64: fmath.Convert[int32, float64],
	},
	graph.Int64: {
		graph.Bool: fmath.ToBool[int64], graph.Int32: fmath.Convert[int64, int32], graph.Int64: ident[int64],
		graph.Float32: fmath.Convert[int64, float32], graph.Float64: fmath.Convert[int64, float64],
	},
	graph.Float32: {
		graph.Bool: fmath.ToBool[float32], graph.Int32: FloatToInt32[float32], graph.Int64: FloatToInt64[float32],
		graph.Float32: ident[float32], graph.Float64: fmath.Convert[float32, float64],
	},
	graph.Float64: {
		graph.Bool: fmath.ToBool[float64], graph.Int32: FloatToInt32[float64], graph.Int64: FloatToInt64[float64],
		graph.Float32: fmath.Convert[float64, float32], graph.Float64: ident[float64],
	},
}

// FloatToInt32 converts a float as graph.CastFloatToInt32 defines it.
func FloatToInt32[T fmath.Float](x T) int32 { return graph.CastFloatToInt32(float64(x)) }

// FloatToInt64 converts a float as graph.CastFloatToInt64 defines it.
func FloatToInt64[T fmath.Float](x T) int64 { return graph.CastFloatToInt64(float64(x)) }

// Cast returns the conversion from dtype from to dtype to as a func(T) R
// with the Go types of Fns, or nil where either dtype is unsupported.
func Cast(from, to graph.DType) any { return casts[from][to] }

// regTypes maps a dtype to its register type in IR: its lane's (see
// lower_narrow.go).
var regTypes = map[graph.DType]ir.Type{
	graph.Bool: ir.Pred, graph.Int32: ir.S32, graph.Int64: ir.S64,
	graph.Float32: ir.F32, graph.Float64: ir.F64,
	graph.Int8: ir.S32, graph.Int16: ir.S32, graph.Uint8: ir.S32, graph.Uint16: ir.S32,
	graph.Uint32: ir.S64, graph.Uint64: ir.U64, graph.Float16: ir.F32, graph.BFloat16: ir.F32,
}

// LowerCast converts x, a register value of dtype from, to dtype to. It
// fails when either dtype is unsupported.
func LowerCast(bb *ir.Builder, x *ir.Value, from, to graph.DType) (*ir.Value, error) {
	ft, tt := regTypes[from], regTypes[to]
	if ft == ir.Invalid || tt == ir.Invalid {
		return nil, fmt.Errorf("cast from %v to %v is not supported", from, to)
	}
	if from == to {
		return x, nil
	}
	if from.Narrow() || to.Narrow() || from == graph.Uint64 || to == graph.Uint64 {
		return lowerCastLanes(bb, x, from, to), nil
	}
	switch {
	case from == to:
		return x, nil
	case from == graph.Bool:
		return bb.Select(x, bb.One(tt), bb.Zero(tt)), nil
	case to == graph.Bool && from.IsFloat():
		return bb.Cmp(ir.CmpNEU, x, bb.Zero(ft)), nil
	case to == graph.Bool:
		return bb.Ne(x, bb.Zero(ft)), nil
	case from.IsFloat() && to.IsInt():
		return floatToInt(bb, x, tt), nil
	}
	// int <-> int wraps (cvt truncates or extends); int -> float and
	// float <-> float round to nearest (cvt.rn).
	return bb.Cvt(x, tt), nil
}

// lowerCastLanes converts between dtypes where either is narrow or
// uint64: through the lanes, then narrowing to the target.
func lowerCastLanes(bb *ir.Builder, x *ir.Value, from, to graph.DType) *ir.Value {
	tt := regTypes[to]
	switch {
	case to == graph.Bool && from.IsFloat():
		return bb.Cmp(ir.CmpNEU, x, bb.Zero(x.Type))
	case to == graph.Bool:
		return bb.Ne(x, bb.Zero(x.Type))
	case from == graph.Bool:
		return bb.Select(x, bb.One(tt), bb.Zero(tt))
	case to.IsFloat() && to.Narrow():
		if from.IsInt() { // exact in f64 below 2^53; F64ToHalf rounds once
			x = bb.Cvt(x, ir.F64)
		}
		return roundToHalf(bb, x, to)
	case to.IsFloat(): // from an integer lane (u64 included) or f32
		return bb.Cvt(x, tt)
	case to == graph.Uint64 && from.IsFloat():
		s := floatToInt(bb, x, ir.S64)
		u := bb.CvtRnd(x, ir.U64, ir.RndRZ) // saturates at 2^64 - 1
		hi := bb.Ge(x, bb.Float(x.Type, 0x1p63))
		return bb.Select(hi, u, bb.Bitcast(s, ir.U64))
	case to == graph.Uint64: // integers: sign-extend to 64 bits, the bits
		return bb.Bitcast(bb.Cvt(x, ir.S64), ir.U64)
	case from.IsFloat(): // to a narrow integer: saturate into its lane, wrap
		return WrapInt(bb, floatToInt(bb, x, tt), to)
	case from == graph.Uint64:
		x = bb.Bitcast(x, ir.S64)
	}
	// Integer to integer: into the target's lane (extending or
	// truncating), then wrap to the target's width.
	return WrapInt(bb, bb.Cvt(x, tt), to)
}

// floatToInt truncates x toward zero into s32 or s64, saturating at the
// range with NaN giving 0. PTX's cvt.rzi saturates and maps NaN to 0; the
// NaN case is still made explicit so that the result never depends on it.
func floatToInt(bb *ir.Builder, x *ir.Value, t ir.Type) *ir.Value {
	hi := math.Ldexp(1, t.Bits()-1) // exclusive
	r := bb.CvtRnd(x, t, ir.RndRZ)
	r = bb.Select(bb.Ge(x, bb.Float(x.Type, hi)), bb.Int(t, 1<<uint(t.Bits()-1)-1), r)
	r = bb.Select(bb.Le(x, bb.Float(x.Type, -hi)), bb.Int(t, -1<<uint(t.Bits()-1)), r)
	return bb.Select(bb.Cmp(ir.CmpNAN, x, x), bb.Zero(t), r)
}
