//go:build goexperiment.simd

// Tests of the vector loops against the scalar ones: the same bits for
// the IEEE operations, Sum, Max and Min; Exp and Sigmoid within 2 ulp of
// the float64 functions rounded once.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

func simdInputs(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		switch r.IntN(5) {
		case 0:
			v[i] = math.Float32frombits(r.Uint32())
		case 1:
			v[i] = []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-40, 88.5, -87.5}[r.IntN(8)]
		default:
			v[i] = float32(r.NormFloat64() * 20)
		}
	}
	return v
}

func sameBits(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

func TestSIMDLoops(t *testing.T) {
	if !simdEnabled {
		t.Skip("no AVX2 and FMA")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 7, 8, 9, 63, 1000, 4099} {
		a, b := simdInputs(r, n), simdInputs(r, n)
		got, want := make([]float32, n), make([]float32, n)
		bins := []struct {
			name      string
			vec, scal func(d, a, b []float32)
		}{{"add", addV32, addL[float32]}, {"sub", subV32, subL[float32]}, {"mul", mulV32, mulL[float32]}, {"div", divV32, divL[float32]}}
		for _, tc := range bins {
			tc.vec(got, a, b)
			tc.scal(want, a, b)
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%s(%g, %g) got:%g want:%g", tc.name, a[i], b[i], got[i], want[i])
				}
			}
		}
		uns := []struct {
			name      string
			vec, scal func(d, a []float32)
		}{{"sqrt", sqrtV32, sqrt32L}, {"neg", negV32, negL[float32]}}
		for _, tc := range uns {
			tc.vec(got, a)
			tc.scal(want, a)
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("%s(%g) got:%g want:%g", tc.name, a[i], got[i], want[i])
				}
			}
		}
		approx := []struct {
			name string
			vec  func(d, a []float32)
			ref  func(float64) float64
		}{{"exp", expV32, math.Exp}, {"sigmoid", sigmoidV32, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }}}
		for _, tc := range approx {
			tc.vec(got, a)
			for i, x := range a {
				w := float32(tc.ref(float64(x)))
				if math.IsNaN(float64(w)) != math.IsNaN(float64(got[i])) || (w == w && ulps(got[i], w) > 2) {
					t.Fatalf("%s(%g) got:%g want:%g", tc.name, x, got[i], w)
				}
			}
		}
		if sg, sw := sumBlocksV32(0.5, a), sumBlocks32Go(0.5, a); math.Float64bits(sg) != math.Float64bits(sw) && !(sg != sg && sw != sw) {
			t.Fatalf("sum of %d got:%v want:%v", n, sg, sw)
		}
		for _, isMax := range []bool{true, false} {
			clean := append([]float32(nil), a...)
			for i := range clean {
				if clean[i] != clean[i] && r.IntN(4) != 0 {
					clean[i] = 1 // most rows without NaN
				}
			}
			for _, row := range [][]float32{a, clean, make([]float32, n)} {
				if n == 0 {
					continue
				}
				p := unsafePtr(row)
				gs, ws := initAccum(opOf(isMax), 0), initAccum(opOf(isMax), 0)
				extremeRowV32(isMax)(&gs, p, n, 0)
				if isMax {
					maxRowF[float32](&ws, p, n, 0)
				} else {
					minRowF[float32](&ws, p, n, 0)
				}
				if math.Float64bits(gs.f) != math.Float64bits(ws.f) && !(gs.f != gs.f && ws.f != ws.f) {
					t.Fatalf("max %v of %d got:%v want:%v", isMax, n, gs.f, ws.f)
				}
			}
		}
	}
}

func unsafePtr(v []float32) unsafe.Pointer { return unsafe.Pointer(&v[0]) }

func opOf(isMax bool) graph.Op {
	if isMax {
		return graph.OpReduceMax
	}
	return graph.OpReduceMin
}
