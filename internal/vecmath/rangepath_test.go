// This file tests the ordinary-range fast paths of the assembly (see
// Specialize in vecgen): inputs mostly inside each function's ordinary
// range, so that whole vectors, pairs of them and the partial tail take
// the specialized program, with lanes outside it (the ends of the range
// and beyond, zeros, infinities, NaNs, subnormals) scattered among them,
// so that vectors also leave it for the full program and, from there,
// for the portable code. Every result must be the interpreter's bits.

package vecmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// rangePaths are the functions with an ordinary-range fast path and the
// range, by float type (vecgen's table ordinary).
var rangePaths = map[ir.MathFn][2][2]float64{
	ir.MathLog:   {{0x1p-126, math.MaxFloat32}, {0x1p-1022, math.MaxFloat64}},
	ir.MathLog2:  {{0x1p-126, math.MaxFloat32}, {0x1p-1022, math.MaxFloat64}},
	ir.MathLog1p: {{-1 + 0x1p-24, math.MaxFloat32}, {-1 + 0x1p-53, 0x1p1023}},
	ir.MathSin:   {{-0x1p21, 0x1p21}, {-0x1p50, 0x1p50}},
	ir.MathCos:   {{-0x1p21, 0x1p21}, {-0x1p50, 0x1p50}},
	ir.MathTan:   {{-0x1p21, 0x1p21}, {-0x1p50, 0x1p50}},
}

// rangeInputs returns n inputs of typ: values inside [lo, hi] (spread
// over its magnitudes, and its two ends), with about one in every rare
// replaced by a value outside it or a special.
func rangeInputs(rng *rand.Rand, typ ir.Type, lo, hi float64, n, rare int) []uint64 {
	bits := func(f float64) uint64 {
		if typ == ir.F32 {
			return uint64(math.Float32bits(float32(f)))
		}
		return math.Float64bits(f)
	}
	next := func(f, to float64) float64 {
		if typ == ir.F32 {
			return float64(math.Nextafter32(float32(f), float32(to)))
		}
		return math.Nextafter(f, to)
	}
	outside := []float64{
		next(lo, math.Inf(-1)), next(hi, math.Inf(1)), 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1),
		math.NaN(), -math.NaN(), -1, -hi, 2 * hi, -2 * lo, 0x1p-140, -0x1p-140,
	}
	if typ == ir.F64 {
		outside = append(outside, 0x1p-1060, -0x1p-1060)
	}
	out := make([]uint64, n)
	for i := range out {
		var v float64
		switch r := rng.IntN(rare * 4); {
		case r == 0:
			v = outside[rng.IntN(len(outside))]
		case r == 1:
			v = []float64{lo, hi}[rng.IntN(2)]
		default:
			// A magnitude between the ends' (at least 2^-8 where the range
			// straddles zero), the sign the range allows.
			top := math.Log2(math.Max(math.Abs(lo), math.Abs(hi)))
			bot := -8.0
			if lo > 0 {
				bot = math.Log2(lo)
			}
			v = math.Exp2(bot + (top-bot)*rng.Float64())
			if lo < 0 && rng.IntN(2) == 0 {
				v = -v
			}
			v = math.Max(lo, math.Min(hi, v))
		}
		out[i] = bits(v)
	}
	return out
}

// TestRangePaths checks the functions with an ordinary-range fast path
// on every path, at lengths that leave partial vectors, bit for bit
// against the interpreter: with no lane outside the range (the fast
// program alone), and with one lane in 20 and in 200 outside it.
func TestRangePaths(t *testing.T) {
	for _, e := range kernels {
		fn := mathFnOf(t, e.fn)
		ranges, ok := rangePaths[fn]
		if !ok {
			continue
		}
		t.Run(e.name(), func(t *testing.T) {
			t.Parallel()
			typ := e.typ()
			r := ranges[0]
			if typ == ir.F64 {
				r = ranges[1]
			}
			rng := rand.New(rand.NewPCG(3, uint64(fn)<<8|uint64(typ)))
			for _, rare := range []int{0, 20, 200} {
				n := 1000 + rng.IntN(64)
				xs := rangeInputs(rng, typ, r[0], r[1], n, max(rare, 1))
				if rare == 0 { // only values inside the range
					xs = rangeInputs(rng, typ, r[0], r[1], n, 1<<30)
				}
				want := runOracle(t, fn, typ, xs, nil)
				for _, p := range paths() {
					got := e.runBits(p, xs, nil, false)
					if bad := mismatches(typ, xs, nil, got, want); len(bad) > 0 {
						t.Errorf("%s on %s, one lane in %d outside the range: %d of %d differ from the interpreter:", e.name(), p, rare, len(bad), len(xs))
						for _, s := range bad[:min(8, len(bad))] {
							t.Log("  ", s)
						}
					}
				}
			}
		})
	}
}
