// Casts to and from the dtypes beyond the first five (int8, int16,
// uint8, uint16, uint32, uint64, float16, bfloat16), built from generic
// conversions: integer to integer wraps, to float rounds to nearest once
// (through float64 for float16 and bfloat16, which is exact for integers
// below 2^53), float to integer is graph.CastFloatToInt, float to float
// rounds to nearest once (float16 and bfloat16 convert to float32
// exactly), anything to bool is x != 0 (NaN is true), bool to a number
// is 0 or 1. float16 and bfloat16 values are half.Float16 and
// half.BFloat16 bit patterns.

package opdef

import (
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
	"github.com/fuseflow/fuseflow/internal/half"
)

func init() {
	castRow[bool](graph.Bool)
	castRow[int8](graph.Int8)
	castRow[int16](graph.Int16)
	castRow[int32](graph.Int32)
	castRow[int64](graph.Int64)
	castRow[uint8](graph.Uint8)
	castRow[uint16](graph.Uint16)
	castRow[uint32](graph.Uint32)
	castRow[uint64](graph.Uint64)
	castRow[float32](graph.Float32)
	castRow[float64](graph.Float64)
	castRow[half.Float16](graph.Float16)
	castRow[half.BFloat16](graph.BFloat16)
}

// castRow fills the casts from dtype from (Go type T) that the table in
// cast.go does not have.
func castRow[T any](from graph.DType) {
	castCell[T, bool](from, graph.Bool)
	castCell[T, int8](from, graph.Int8)
	castCell[T, int16](from, graph.Int16)
	castCell[T, int32](from, graph.Int32)
	castCell[T, int64](from, graph.Int64)
	castCell[T, uint8](from, graph.Uint8)
	castCell[T, uint16](from, graph.Uint16)
	castCell[T, uint32](from, graph.Uint32)
	castCell[T, uint64](from, graph.Uint64)
	castCell[T, float32](from, graph.Float32)
	castCell[T, float64](from, graph.Float64)
	castCell[T, half.Float16](from, graph.Float16)
	castCell[T, half.BFloat16](from, graph.BFloat16)
}

func castCell[T, R any](from, to graph.DType) {
	if casts[from] == nil {
		casts[from] = map[graph.DType]any{}
	}
	if casts[from][to] == nil {
		casts[from][to] = build[T, R](from, to)
	}
}

// build returns the conversion from dtype from (Go type T) to dtype to
// (Go type R). The float32 row is built before the float16 and bfloat16
// rows, which go through it.
func build[T, R any](from, to graph.DType) any {
	var t T
	var r R
	switch {
	case from == to:
		return ident[T]
	case from == graph.Float16:
		g := casts[graph.Float32][to].(func(float32) R)
		return func(x half.Float16) R { return g(x.Float32()) }
	case from == graph.BFloat16:
		g := casts[graph.Float32][to].(func(float32) R)
		return func(x half.BFloat16) R { return g(x.Float32()) }
	case to == graph.Float16 && from == graph.Float32:
		return half.FromFloat32
	case to == graph.BFloat16 && from == graph.Float32:
		return half.BFromFloat32
	case to == graph.Float16:
		g := casts[from][graph.Float64].(func(T) float64)
		return func(x T) half.Float16 { return half.FromFloat64(g(x)) }
	case to == graph.BFloat16:
		g := casts[from][graph.Float64].(func(T) float64)
		return func(x T) half.BFloat16 { return half.BFromFloat64(g(x)) }
	case from == graph.Bool:
		return fromBoolTo(r)
	case to == graph.Bool:
		return toBoolFrom(t)
	case from.IsFloat() && to.IsInt():
		switch t := any(t).(type) {
		case float32:
			return floatToIntFn[float32](t, r, to)
		case float64:
			return floatToIntFn[float64](t, r, to)
		}
	}
	if f, ok := fastCast(t, r); ok {
		return f
	}
	panic("opdef: no cast from " + from.String() + " to " + to.String())
}

func fromBoolTo(r any) any {
	switch r.(type) {
	case int8:
		return fmath.FromBool[int8]
	case int16:
		return fmath.FromBool[int16]
	case int32:
		return fmath.FromBool[int32]
	case int64:
		return fmath.FromBool[int64]
	case uint8:
		return fmath.FromBool[uint8]
	case uint16:
		return fmath.FromBool[uint16]
	case uint32:
		return fmath.FromBool[uint32]
	case uint64:
		return fmath.FromBool[uint64]
	case float32:
		return fmath.FromBool[float32]
	case float64:
		return fmath.FromBool[float64]
	}
	return nil
}

func toBoolFrom(t any) any {
	switch t.(type) {
	case int8:
		return fmath.ToBool[int8]
	case int16:
		return fmath.ToBool[int16]
	case int32:
		return fmath.ToBool[int32]
	case int64:
		return fmath.ToBool[int64]
	case uint8:
		return fmath.ToBool[uint8]
	case uint16:
		return fmath.ToBool[uint16]
	case uint32:
		return fmath.ToBool[uint32]
	case uint64:
		return fmath.ToBool[uint64]
	case half.Float16:
		return func(x half.Float16) bool { return x&0x7fff != 0 }
	case half.BFloat16:
		return func(x half.BFloat16) bool { return x&0x7fff != 0 }
	case float32:
		return fmath.ToBool[float32]
	case float64:
		return fmath.ToBool[float64]
	}
	return nil
}

// floatToIntFn returns graph.CastFloatToInt to dtype to as a func(T) R.
func floatToIntFn[T fmath.Float](_ T, r any, to graph.DType) any {
	switch r.(type) {
	case int8:
		return func(x T) int8 { return int8(graph.CastFloatToInt(to, float64(x))) }
	case int16:
		return func(x T) int16 { return int16(graph.CastFloatToInt(to, float64(x))) }
	case int32:
		return func(x T) int32 { return int32(graph.CastFloatToInt(to, float64(x))) }
	case int64:
		return func(x T) int64 { return graph.CastFloatToInt(to, float64(x)) }
	case uint8:
		return func(x T) uint8 { return uint8(graph.CastFloatToInt(to, float64(x))) }
	case uint16:
		return func(x T) uint16 { return uint16(graph.CastFloatToInt(to, float64(x))) }
	case uint32:
		return func(x T) uint32 { return uint32(graph.CastFloatToInt(to, float64(x))) }
	case uint64:
		return func(x T) uint64 { return graph.CastFloatToUint64(float64(x)) }
	}
	return nil
}

// fastCast returns Go's conversion between two Go number types (the
// cast for every pair but float to integer and the 16-bit floats).
func fastCast(t, r any) (any, bool) {
	switch t.(type) {
	case int8:
		return convertTo[int8](r)
	case int16:
		return convertTo[int16](r)
	case int32:
		return convertTo[int32](r)
	case int64:
		return convertTo[int64](r)
	case uint8:
		return convertTo[uint8](r)
	case uint16:
		return convertTo[uint16](r)
	case uint32:
		return convertTo[uint32](r)
	case uint64:
		return convertTo[uint64](r)
	case float32:
		return convertTo[float32](r)
	case float64:
		return convertTo[float64](r)
	}
	return nil, false
}

func convertTo[T fmath.Number](r any) (any, bool) {
	switch r.(type) {
	case int8:
		return fmath.Convert[T, int8], true
	case int16:
		return fmath.Convert[T, int16], true
	case int32:
		return fmath.Convert[T, int32], true
	case int64:
		return fmath.Convert[T, int64], true
	case uint8:
		return fmath.Convert[T, uint8], true
	case uint16:
		return fmath.Convert[T, uint16], true
	case uint32:
		return fmath.Convert[T, uint32], true
	case uint64:
		return fmath.Convert[T, uint64], true
	case float32:
		return fmath.Convert[T, float32], true
	case float64:
		return fmath.Convert[T, float64], true
	}
	return nil, false
}
