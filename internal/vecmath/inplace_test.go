// This file tests lengths, partial vectors, the vectors left to the
// portable code at any position, operands written in place, and the
// panics on bad slices.

package vecmath

import (
	"math"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// TestLengthsInPlace runs every kernel on each path over every length
// up to 70 (and a few larger ones), in place and not, with a huge trig
// argument or NaN planted at varying positions, and compares with the
// portable path, which TestBitExact compares with the interpreter.
func TestLengthsInPlace(t *testing.T) {
	lengths := []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 70, 129, 1000}
	for _, e := range kernels {
		typ := e.typ()
		xs0, ys0 := inputs(t, e, 2, 1200)
		for _, n := range lengths {
			for plant := -1; plant < n && plant < 40; plant += 7 {
				xs := append([]uint64(nil), xs0[len(xs0)-n:]...)
				var ys []uint64
				if ys0 != nil {
					ys = append([]uint64(nil), ys0[len(ys0)-n:]...)
				}
				if plant >= 0 {
					if typ == ir.F32 {
						xs[plant] = uint64(math.Float32bits(1e30))
					} else {
						xs[plant] = math.Float64bits(1e300)
					}
				}
				want := e.runBits(pathPORTABLE, xs, ys, false)
				for _, p := range paths() {
					for _, inPlace := range []bool{false, true} {
						got := e.runBits(p, xs, ys, inPlace)
						if bad := mismatches(typ, xs, ys, got, want); len(bad) > 0 {
							t.Fatalf("%s on %s, n=%d, in place %v, planted at %d: %d differ: %s",
								e.name(), p, n, inPlace, plant, len(bad), bad[0])
						}
					}
				}
			}
		}
	}
}

// TestInPlaceSecondOperand writes pow and atan2 over their second
// operand.
func TestInPlaceSecondOperand(t *testing.T) {
	x := []float64{2, 3, -1, 0.5, 10, 1e300, 7, 8, 9, -2, 0.25}
	y := []float64{3, 0.5, 2, -1, 1e-3, 1e10, 2, 3, 0.5, 1.5, 4}
	want := make([]float64, len(x))
	powF64K.runOn(pathPORTABLE, want, x, y)
	for _, p := range paths() {
		yy := append([]float64(nil), y...)
		powF64K.runOn(p, yy, x, yy)
		for i := range want {
			if math.Float64bits(yy[i]) != math.Float64bits(want[i]) {
				t.Errorf("%s: pow(%v, %v) in place of y got:%v want:%v", p, x[i], y[i], yy[i], want[i])
			}
		}
	}
}

// TestPanics checks the messages of the panics on bad slices.
func TestPanics(t *testing.T) {
	x := make([]float32, 8)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"short dst", func() { ExpF32(make([]float32, 3), x) }, "vecmath.ExpF32: len(dst) = 3 is less than len(x) = 8"},
		{"overlap", func() { ExpF32(x[1:], x[:7]) }, "vecmath.ExpF32: dst overlaps x"},
		{"operand lengths", func() { PowF32(x, x, x[:4]) }, "vecmath.PowF32: operands of lengths 8 and 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				s, _ := r.(string)
				if !strings.Contains(s, c.want) {
					t.Errorf("got:%v want:%v", r, c.want)
				}
			}()
			c.f()
		})
	}
}
