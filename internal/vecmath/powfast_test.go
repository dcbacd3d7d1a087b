// This file tests pow's ordinary-input fast path in the assembly: vectors
// of ordinary operands with one lane that is not (a special value, or an
// operand just across one of the path's bounds) at each position, so
// that the fast path and the full program it falls back to both run, and
// every path must give the interpreter's bits.

package vecmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// powEdgePairs returns the (x, y) pairs of one lane put among ordinary
// lanes: pow's special values, and operands on either side of the bounds
// of the ordinary path (|y*log x| near its limit, y next to 0, 1 and
// ±1/2, x next to 1).
func powEdgePairs(typ ir.Type) [][2]float64 {
	inf, nan := math.Inf(1), math.NaN()
	pairs := [][2]float64{
		{0, 2}, {math.Copysign(0, -1), 3}, {math.Copysign(0, -1), -3}, {0, -2}, {-2, 3}, {-2, 2}, {-2, 0.5}, {-2, 2.5},
		{inf, 2}, {-inf, 3}, {-inf, -2}, {nan, 2}, {2, nan}, {2, inf}, {0.5, inf}, {2, -inf}, {1, inf}, {-1, inf},
		{1, 3}, {1, nan}, {nan, 0}, {2, 0}, {2, math.Copysign(0, -1)}, {3, 1}, {3, 0.5}, {3, -0.5}, {-3, 1},
		{10, 1e5}, {0.1, 1e5}, {10, -1e5}, {0x1p-1074, 0.5}, {0x1p-149, 2}, {math.MaxFloat64, 2},
	}
	if typ == ir.F32 {
		pairs = append(pairs, [][2]float64{
			{2, 999.5}, {2, 1000.5}, {2, -999.5}, {2, -1000.5}, {2, 127.9}, {2, 128.1}, {2, -149.5}, {2, -150.5},
			{1 + 0x1p-23, 0x1p30}, {1 - 0x1p-24, 0x1p31}, {3, 1 + 0x1p-23}, {3, 1 - 0x1p-24},
			{3, 0.5 + 0x1p-24}, {3, 0.5 - 0x1p-25}, {3, 0x1p-149}, {0x1p-149, 0.25},
		}...)
	} else {
		pairs = append(pairs, [][2]float64{
			{math.E, 707.9}, {math.E, 708.1}, {math.E, -707.9}, {math.E, -708.1}, {math.E, 709.7}, {math.E, -745},
			{1 + 0x1p-52, 0x1p60}, {1 - 0x1p-53, 0x1p61}, {3, 1 + 0x1p-52}, {3, 1 - 0x1p-53},
			{3, 0.5 + 0x1p-53}, {3, -0.5 - 0x1p-53}, {3, 0x1p-1074}, {0x1p-1074, 0.25},
		}...)
	}
	return pairs
}

func bitsOf(typ ir.Type, v float64) uint64 {
	if typ == ir.F32 {
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(v)
}

func TestPowFastPathEdges(t *testing.T) {
	const n = 37 // whole vectors of 8 and 16 lanes and a partial one
	for _, e := range kernels {
		if e.fn != "pow" {
			continue
		}
		typ := e.typ()
		t.Run(e.name(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 9))
			var xs, ys []uint64
			for _, pr := range powEdgePairs(typ) {
				for _, at := range []int{0, 3, 7, 8, 15, 16, 31, 36} {
					for i := range n {
						x, y := 0.1+9.9*rng.Float64(), -5+10*rng.Float64()
						if i == at {
							x, y = pr[0], pr[1]
						}
						xs, ys = append(xs, bitsOf(typ, x)), append(ys, bitsOf(typ, y))
					}
				}
			}
			want := runOracle(t, ir.MathPow, typ, xs, ys)
			for _, p := range paths() {
				// Vector by vector as exec/cpu calls it, so that the
				// partial vector's lanes sit at the end of a call.
				for s := 0; s < len(xs); s += n {
					got := e.runBits(p, xs[s:s+n], ys[s:s+n], false)
					if bad := mismatches(typ, xs[s:s+n], ys[s:s+n], got, want[s:s+n]); len(bad) > 0 {
						t.Errorf("%s on %s: %d of %d differ from the interpreter:", e.name(), p, len(bad), n)
						for _, m := range bad[:min(4, len(bad))] {
							t.Log("  ", m)
						}
					}
				}
			}
		})
	}
}

// TestPowF32OrdinarySpecialExponents runs float32 vectors whose every lane
// is on the fast path although pow has a special rule for it (y = 0, y =
// 1, x = 1) beside ordinary lanes, over x of every positive normal
// exponent and ragged lengths: the fast path must give the rule's result,
// which the interpreter's full expansion selects.
func TestPowF32OrdinarySpecialExponents(t *testing.T) {
	var e kernelEntry
	for _, k := range kernels {
		if k.fn == "pow" && k.typ() == ir.F32 {
			e = k
		}
	}
	rng := rand.New(rand.NewPCG(5, 11))
	var xs, ys []uint64
	for range 1 << 14 {
		x := math.Float32frombits(0x00800000 + rng.Uint32N(0x7f7fffff-0x00800000))
		y := float32(-3 + 6*rng.Float64())
		switch rng.IntN(4) {
		case 0:
			y = 1
		case 1:
			y = 0
		case 2:
			x = 1
		}
		if math.Abs(float64(y)*math.Log2(float64(x))) >= 900 {
			y = 1
		}
		xs, ys = append(xs, uint64(math.Float32bits(x))), append(ys, uint64(math.Float32bits(y)))
	}
	want := runOracle(t, ir.MathPow, ir.F32, xs, ys)
	for _, p := range paths() {
		for _, n := range []int{len(xs), 37, 5} {
			for s := 0; s+n <= len(xs); s += 7 * n {
				got := e.runBits(p, xs[s:s+n], ys[s:s+n], false)
				if bad := mismatches(ir.F32, xs[s:s+n], ys[s:s+n], got, want[s:s+n]); len(bad) > 0 {
					t.Fatalf("pow f32 on %s, %d lanes at %d: %d differ from the interpreter: %v", p, n, s, len(bad), bad[:min(4, len(bad))])
				}
			}
		}
	}
}
