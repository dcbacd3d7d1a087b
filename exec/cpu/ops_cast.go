// Cast inner loops: castTab[from][to] converts a chunk between dtypes with
// fuseflow's conversion rules (float to int truncates toward zero,
// saturating, NaN to 0; anything to bool is x != 0, NaN included; int to
// narrower int wraps).

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

var castTab [numDTypes][numDTypes]unaryFn

func init() {
	B, I32, I64, F32, F64 := graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64
	castTab[B][B] = unary(copyL[uint8])
	castTab[B][I32] = unary(fromBool[int32])
	castTab[B][I64] = unary(fromBool[int64])
	castTab[B][F32] = unary(fromBool[float32])
	castTab[B][F64] = unary(fromBool[float64])
	castTab[I32][B] = unary(toBool[int32])
	castTab[I64][B] = unary(toBool[int64])
	castTab[F32][B] = unary(toBool[float32])
	castTab[F64][B] = unary(toBool[float64])
	castTab[I32][I32] = unary(copyL[int32])
	castTab[I32][I64] = unary(convert[int32, int64])
	castTab[I32][F32] = unary(convert[int32, float32])
	castTab[I32][F64] = unary(convert[int32, float64])
	castTab[I64][I32] = unary(convert[int64, int32])
	castTab[I64][I64] = unary(copyL[int64])
	castTab[I64][F32] = unary(convert[int64, float32])
	castTab[I64][F64] = unary(convert[int64, float64])
	castTab[F32][F32] = unary(copyL[float32])
	castTab[F32][F64] = unary(convert[float32, float64])
	castTab[F64][F32] = unary(convert[float64, float32])
	castTab[F64][F64] = unary(copyL[float64])
	castTab[F32][I32] = unary(floatToInt32[float32])
	castTab[F64][I32] = unary(floatToInt32[float64])
	castTab[F32][I64] = unary(floatToInt64[float32])
	castTab[F64][I64] = unary(floatToInt64[float64])
}

// fromBool widens, so it runs backward (see the file comment).
func fromBool[R nums](d []R, a []uint8) {
	d = d[:len(a)]
	for i := len(a) - 1; i >= 0; i-- {
		var v R
		if a[i] != 0 {
			v = 1
		}
		d[i] = v
	}
}

func toBool[T nums](d []uint8, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		d[i] = b2u(x != 0)
	}
}

// convert runs backward when R is wider than T (see the file comment).
func convert[T, R nums](d []R, a []T) {
	d = d[:len(a)]
	if unsafe.Sizeof(R(0)) > unsafe.Sizeof(T(0)) {
		for i := len(a) - 1; i >= 0; i-- {
			d[i] = R(a[i])
		}
		return
	}
	for i, x := range a {
		d[i] = R(x)
	}
}

func floatToInt32[T floats](d []int32, a []T) {
	d = d[:len(a)]
	for i, x := range a {
		v := float64(x)
		var r int32
		switch {
		case v != v:
		case v >= math.MaxInt32:
			r = math.MaxInt32
		case v <= math.MinInt32:
			r = math.MinInt32
		default:
			r = int32(v)
		}
		d[i] = r
	}
}

// floatToInt64 runs backward: from float32 it widens (see the file
// comment).
func floatToInt64[T floats](d []int64, a []T) {
	d = d[:len(a)]
	for i := len(a) - 1; i >= 0; i-- {
		v := float64(a[i])
		var r int64
		switch {
		case v != v:
		case v >= 9.223372036854775807e18:
			r = math.MaxInt64
		case v <= -9.223372036854775808e18:
			r = math.MinInt64
		default:
			r = int64(v)
		}
		d[i] = r
	}
}
