// Tests of the vector loops that write bools (the float comparisons and
// IsNaN and IsInf) and of the vector column folds against the scalar
// loops and the definitions: every length from 0 to 70 and a few long
// ones (all tails), starts off the vector alignment, values mixed with
// NaNs of several payloads, infinities, signed zeros, subnormals and the
// largest finite values.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// TestVectorBoolLoops compares the loops that write bools, the float
// comparisons and IsNaN and IsInf, with the scalar loops and the
// definitions, operands equal in about a third of the lanes (-0 against
// +0 among them), and checks that nothing is written past the last lane.
func TestVectorBoolLoops(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(41, 42))
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		es := d.Size()
		for _, c := range []struct {
			op  graph.Op
			def func(x, y float64) bool // IsNaN and IsInf read x only
		}{
			{graph.OpEq, func(x, y float64) bool { return x == y }},
			{graph.OpNe, func(x, y float64) bool { return x != y }},
			{graph.OpLt, func(x, y float64) bool { return x < y }},
			{graph.OpLe, func(x, y float64) bool { return x <= y }},
			{graph.OpGt, func(x, y float64) bool { return x > y }},
			{graph.OpGe, func(x, y float64) bool { return x >= y }},
			{graph.OpIsNaN, func(x, _ float64) bool { return math.IsNaN(x) }},
			{graph.OpIsInf, func(x, _ float64) bool { return math.IsInf(x, 0) }},
		} {
			vec, scalar := withVector(func() binaryFn {
				if u := unaryTab[d][c.op]; u != nil {
					return func(dst, a, _ unsafe.Pointer, n int) { u(dst, a, n) }
				}
				return binaryTab[d][c.op]
			})
			for _, n := range vecLengths {
				off := r.IntN(8)
				a, b := vecBuf(r, d, n, off), vecBuf(r, d, n, (off+5)%8)
				for i := range n { // equal lanes, -0 against +0 among them
					if r.IntN(3) == 0 {
						copy(view[byte](unsafe.Add(b, i*es), es), view[byte](unsafe.Add(a, i*es), es))
					}
				}
				got, want := make([]uint8, n+1), make([]uint8, n+1)
				if n > 0 {
					vec(unsafe.Pointer(&got[0]), a, b, n)
					scalar(unsafe.Pointer(&want[0]), a, b, n)
				}
				for i := range n {
					x, y := elemFloat(a, d, i), elemFloat(b, d, i)
					if def := b2u(c.def(x, y)); got[i] != want[i] || got[i] != def {
						t.Fatalf("%v %v n=%d [%d] (%v, %v) got:%d want:%d (scalar %d)", c.op, d, n, i, x, y, got[i], def, want[i])
					}
				}
				if got[n] != 0 {
					t.Fatalf("%v %v n=%d: wrote past the end", c.op, d, n)
				}
			}
		}
	}
}

// TestVectorWiden compares the widening column loops (float32 values
// added to or multiplied into float64 states) with the portable ones:
// the same bits, a NaN for a NaN.
func TestVectorWiden(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(33, 34))
	for _, c := range []struct {
		name string
		fn   *func(a []float64, x []float32)
	}{{"add", &addWiden32}, {"mul", &mulWiden32}} {
		vec, scalar := withVector(func() func(a []float64, x []float32) { return *c.fn })
		for _, n := range vecLengths {
			x := view[float32](vecBuf(r, graph.Float32, n, r.IntN(8)), n)
			a := view[float64](vecBuf(r, graph.Float64, n, r.IntN(4)), n)
			got, want := append([]float64(nil), a...), append([]float64(nil), a...)
			vec(got, x)
			scalar(want, x)
			for i := range n {
				g, w := got[i], want[i]
				if math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
					t.Fatalf("%s n=%d [%d] (%v, %v) got:%v want:%v", c.name, n, i, a[i], x[i], g, w)
				}
			}
		}
	}
}

// TestVectorArgFold compares the vector column ArgMax and ArgMin folds
// with the portable ones over rows of special values folded into states
// that hold special values too (NaN bests stay, ties keep the earlier
// row): the same values and rows.
func TestVectorArgFold(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(35, 36))
	for which, name := range []string{"argmax", "argmin"} {
		v32, s32 := withVector(func() func([]float32, []int64, []float32, int64) { return argFold32[which] })
		v64, s64 := withVector(func() func([]float64, []int64, []float64, int64) { return argFold64[which] })
		for _, n := range vecLengths {
			b32 := view[float32](vecBuf(r, graph.Float32, n, r.IntN(8)), n)
			b64 := view[float64](vecBuf(r, graph.Float64, n, r.IntN(4)), n)
			x32 := view[float32](vecBuf(r, graph.Float32, n, r.IntN(8)), n)
			x64 := view[float64](vecBuf(r, graph.Float64, n, r.IntN(4)), n)
			for i := range n {
				if r.IntN(4) == 0 { // ties
					x32[i], x64[i] = b32[i], b64[i]
				}
			}
			idx := make([]int64, n)
			for i := range idx {
				idx[i] = int64(r.IntN(3)) - 1
			}
			gb32, wb32 := append([]float32(nil), b32...), append([]float32(nil), b32...)
			gb64, wb64 := append([]float64(nil), b64...), append([]float64(nil), b64...)
			gi32, wi32 := append([]int64(nil), idx...), append([]int64(nil), idx...)
			gi64, wi64 := append([]int64(nil), idx...), append([]int64(nil), idx...)
			v32(gb32, gi32, x32, 7)
			s32(wb32, wi32, x32, 7)
			v64(gb64, gi64, x64, 7)
			s64(wb64, wi64, x64, 7)
			for i := range n {
				if math.Float32bits(gb32[i]) != math.Float32bits(wb32[i]) || gi32[i] != wi32[i] {
					t.Fatalf("%s float32 n=%d [%d] (best %v, x %v) got:%v,%d want:%v,%d", name, n, i, b32[i], x32[i], gb32[i], gi32[i], wb32[i], wi32[i])
				}
				if math.Float64bits(gb64[i]) != math.Float64bits(wb64[i]) || gi64[i] != wi64[i] {
					t.Fatalf("%s float64 n=%d [%d] (best %v, x %v) got:%v,%d want:%v,%d", name, n, i, b64[i], x64[i], gb64[i], gi64[i], wb64[i], wi64[i])
				}
			}
		}
	}
}
