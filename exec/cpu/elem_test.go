// Tests of the bool load's normalization and of the casts at the edges
// of the integer range, with the vector loops and the scalar ones (the
// table-walking tests of ops_test.go and alias_test.go cover the rest).

package cpu

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// TestNormLoop normalizes random bytes, apart and in place, at every
// length of vecLengths.
func TestNormLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	was := setVector(true)
	defer setVector(was)
	for _, vec := range []bool{true, false} {
		setVector(vec)
		for _, n := range vecLengths {
			src := aliasBuf(n, 1, 1)[:n]
			want := make([]byte, n)
			for i := range src {
				src[i] = []byte{0, 1, 2, 0x80, 0xff, byte(r.Uint32())}[r.IntN(6)]
				want[i] = b2u(src[i] != 0)
			}
			got := aliasBuf(n, 1, 1)[:n]
			normLoop(unsafe.Pointer(unsafe.SliceData(got)), unsafe.Pointer(unsafe.SliceData(src)), n)
			if !bytes.Equal(got, want) {
				t.Errorf("vector %v n=%d got:%v want:%v", vec, n, got, want)
			}
			normLoop(unsafe.Pointer(unsafe.SliceData(src)), unsafe.Pointer(unsafe.SliceData(src)), n)
			if !bytes.Equal(src, want) {
				t.Errorf("vector %v n=%d in place got:%v want:%v", vec, n, src, want)
			}
		}
	}
}

// TestCastEdges casts floats at and beyond the integer range and NaN,
// 16 copies each so that the vector loops take them.
func TestCastEdges(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		x   float64
		i32 int32
		i64 int64
	}{
		{nan, 0, 0},
		{inf, math.MaxInt32, math.MaxInt64},
		{-inf, math.MinInt32, math.MinInt64},
		{0x1p31, math.MaxInt32, 1 << 31},
		{0x1p31 - 1, math.MaxInt32, 1<<31 - 1},
		{-0x1p31, math.MinInt32, -1 << 31},
		{-0x1p31 - 1, math.MinInt32, -1<<31 - 1},
		{0x1p63, math.MaxInt32, math.MaxInt64},
		{-0x1p63, math.MinInt32, math.MinInt64},
		{-2.9, -2, -2},
		{2.9, 2, 2},
		{math.Copysign(0, -1), 0, 0},
	}
	was := setVector(true)
	defer setVector(was)
	const n = 16
	for _, vec := range []bool{true, false} {
		setVector(vec)
		for _, tc := range tests {
			for _, from := range []graph.DType{graph.Float32, graph.Float64} {
				x := tc.x
				if from == graph.Float32 && float64(float32(x)) != x && x == x {
					continue // not a float32 value
				}
				f32, f64 := make([]float32, n), make([]float64, n)
				for i := range n {
					f32[i], f64[i] = float32(x), x
				}
				src := unsafe.Pointer(&f64[0])
				if from == graph.Float32 {
					src = unsafe.Pointer(&f32[0])
				}
				i32, i64, b := make([]int32, n), make([]int64, n), make([]uint8, n)
				castTab[from][graph.Int32](unsafe.Pointer(&i32[0]), src, n)
				castTab[from][graph.Int64](unsafe.Pointer(&i64[0]), src, n)
				castTab[from][graph.Bool](unsafe.Pointer(&b[0]), src, n)
				for i := range n {
					if i32[i] != tc.i32 || i64[i] != tc.i64 || b[i] != b2u(x != 0) {
						t.Errorf("vector %v %v(%v) to int32, int64, bool got:%v, %v, %v want:%v, %v, %v",
							vec, from, x, i32[i], i64[i], b[i], tc.i32, tc.i64, b2u(x != 0))
						break
					}
				}
			}
		}
	}
}
