// Cast loops between every pair of dtypes that loops.go's fastCast does
// not list, built from internal/opdef's conversions: each loop converts a
// chunk with the conversion's typed function (no per-element dispatch on
// the dtype). Conversions between Go number types inline Go's conversion;
// float to integer and the 16-bit floats call the typed function. Bool
// is a byte here and a Go bool in opdef.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

// castLoops[from][to] is the loop converting a chunk.
var castLoops = func() (t [numDTypes][numDTypes]unaryFn) {
	castRow[uint8](&t, graph.Bool)
	castRow[int8](&t, graph.Int8)
	castRow[int16](&t, graph.Int16)
	castRow[int32](&t, graph.Int32)
	castRow[int64](&t, graph.Int64)
	castRow[uint8](&t, graph.Uint8)
	castRow[uint16](&t, graph.Uint16)
	castRow[uint32](&t, graph.Uint32)
	castRow[uint64](&t, graph.Uint64)
	castRow[half.Float16](&t, graph.Float16)
	castRow[half.BFloat16](&t, graph.BFloat16)
	castRow[float32](&t, graph.Float32)
	castRow[float64](&t, graph.Float64)
	return t
}()

func castRow[T any](t *[numDTypes][numDTypes]unaryFn, from graph.DType) {
	castCell[T, uint8](t, from, graph.Bool)
	castCell[T, int8](t, from, graph.Int8)
	castCell[T, int16](t, from, graph.Int16)
	castCell[T, int32](t, from, graph.Int32)
	castCell[T, int64](t, from, graph.Int64)
	castCell[T, uint8](t, from, graph.Uint8)
	castCell[T, uint16](t, from, graph.Uint16)
	castCell[T, uint32](t, from, graph.Uint32)
	castCell[T, uint64](t, from, graph.Uint64)
	castCell[T, half.Float16](t, from, graph.Float16)
	castCell[T, half.BFloat16](t, from, graph.BFloat16)
	castCell[T, float32](t, from, graph.Float32)
	castCell[T, float64](t, from, graph.Float64)
}

// castCell sets the loop from dtype from (element type T) to dtype to
// (element type R), bool as a byte on either side.
func castCell[T, R any](t *[numDTypes][numDTypes]unaryFn, from, to graph.DType) {
	fn := opdef.Cast(from, to)
	var l unaryFn
	switch f := fn.(type) {
	case func(T) R:
		l = castLoop(f)
	case func(bool) R:
		l = castLoop(func(x uint8) R { return f(x != 0) })
	case func(T) bool:
		l = castLoop(func(x T) uint8 { return b2u(f(x)) })
	case func(bool) bool:
		l = unary(copyL[uint8])
	}
	t[from][to] = l
}

// castLoop runs f over a chunk: front to back when the result is at most
// as wide as the operand, back to front otherwise (the destination may be
// the operand's register; see the loop types).
func castLoop[T, R any](f func(T) R) unaryFn {
	var t T
	var r R
	if unsafe.Sizeof(r) > unsafe.Sizeof(t) {
		return unary(func(d []R, a []T) { map1Back(d, a, f) })
	}
	return unary(func(d []R, a []T) { map1(d, a, f) })
}
