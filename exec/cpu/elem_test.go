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
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// TestNormLoop normalizes random bytes, apart and in place, at every
// length of vecLengths.
func TestNormLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	eachVector(func(vec bool) {
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
	})
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
	const n = 16
	eachVector(func(vec bool) {
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
	})
}

// TestIntDivEdges runs FloorDiv and Mod over every pair of integer edge
// values and random ones (zero divisors and MinInt / -1 included),
// against the definitions, in units the vector loops take, and runs of
// random operands below 2^53 and at that bound.
func TestIntDivEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	vals := []int64{0, 1, -1, 2, -2, 3, -3, 7, -7, 1 << 20, -1 << 20, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1,
		math.MinInt32 + 1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for range 30 {
		vals = append(vals, int64(r.Uint64()), int64(int32(r.Uint32())), int64(r.IntN(201)-100))
	}
	var as, bs []int64
	for _, a := range vals {
		for _, b := range vals {
			as, bs = append(as, a), append(bs, b)
		}
	}
	// Runs of operands below 2^53 in magnitude (the int64 vector loops
	// take those), up to its edges.
	const p53 = 1 << 53
	small := []int64{0, 1, -1, 2, -2, 3, -3, 7, p53 - 1, -(p53 - 1), p53 - 2, p53, -p53, p53 + 1, 2*p53 - 1, -(2*p53 - 1), 1 << 40, -1 << 40}
	for range 4000 {
		x, y := r.Int64N(1<<(1+r.IntN(53))), r.Int64N(1<<(1+r.IntN(30)))
		if r.IntN(2) == 0 {
			x = -x
		}
		if r.IntN(2) == 0 {
			y = -y
		}
		if r.IntN(8) == 0 {
			x, y = small[r.IntN(len(small))], small[r.IntN(len(small))]
		}
		as, bs = append(as, x), append(bs, y)
	}
	eachVector(func(vec bool) {
		for _, d := range []graph.DType{graph.Int32, graph.Int64} {
			for _, op := range []graph.Op{graph.OpFloorDiv, graph.OpMod} {
				n := len(as)
				a, b, got := make([]int64, n), make([]int64, n), make([]int64, n)
				copy(a, as)
				copy(b, bs)
				if d == graph.Int32 {
					a32, b32 := view[int32](unsafe.Pointer(&a[0]), n), view[int32](unsafe.Pointer(&b[0]), n)
					for i := range n {
						a32[i], b32[i] = int32(as[i]), int32(bs[i])
					}
				}
				binaryTab[d][op](unsafe.Pointer(&got[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
				for i := range n {
					var g, w int64
					if d == graph.Int32 {
						x, y := int32(as[i]), int32(bs[i])
						g, w = int64(view[int32](unsafe.Pointer(&got[0]), n)[i]), int64(fmath.FloorDiv(x, y))
						if op == graph.OpMod {
							w = int64(fmath.Mod(x, y))
						}
					} else {
						g, w = got[i], fmath.FloorDiv(as[i], bs[i])
						if op == graph.OpMod {
							w = fmath.Mod(as[i], bs[i])
						}
					}
					if g != w {
						x, y := as[i], bs[i]
						if d == graph.Int32 {
							x, y = int64(int32(x)), int64(int32(y))
						}
						t.Errorf("vector %v %v %v(%d, %d) got:%d want:%d", vec, d, op, x, y, g, w)
						break
					}
				}
			}
		}
	})
}
