// This file implements the test oracle: the mathlib expansion of each
// function run on the IR interpreter (a grid-stride kernel, expanded by
// mathlib.Expand, as the PTX emitter and the generator expand it), and
// the inputs the tests draw: each function's special and edge values and
// random bit patterns.

package vecmath

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/internal/mathtest"
)

// mathFnOf returns the IR function of a name.
func mathFnOf(t testing.TB, name string) ir.MathFn {
	for f := ir.MathFn(0); int(f) < ir.NumMathFns; f++ {
		if f.String() == name {
			return f
		}
	}
	t.Fatalf("no math function %q", name)
	return 0
}

var oracles sync.Map // [2]int{fn, type} -> *ir.Program

// oracle returns the compiled interpreter kernel of fn on typ.
func oracle(t testing.TB, fn ir.MathFn, typ ir.Type) *ir.Program {
	key := [2]int{int(fn), int(typ)}
	if p, ok := oracles.Load(key); ok {
		return p.(*ir.Program)
	}
	f := mathtest.Kernel(fn, typ)
	if err := mathlib.Expand(f); err != nil {
		t.Fatal(err)
	}
	p, err := ir.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	oracles.Store(key, p)
	return p
}

// runOracle returns the interpreter's results (as bits) for xs (and ys).
func runOracle(t testing.TB, fn ir.MathFn, typ ir.Type, xs, ys []uint64) []uint64 {
	out, err := mathtest.Run(oracle(t, fn, typ), typ, xs, ys)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// specials returns the special and edge values of every function for
// typ, as bits.
func specials(typ ir.Type) []uint64 {
	vals := []float64{
		0, 1, -1, 0.5, -0.5, 2, -2, 3, -3, 0.1, -0.1, 10, -10, 100, -100, 1e10, -1e10,
		math.Pi, -math.Pi, math.Pi / 2, -math.Pi / 2, math.Pi / 4, 3 * math.Pi / 4, 2 * math.Pi,
		// exp family: the ends of the clamps and of the range.
		88, 88.72, 88.73, 89, 89.5, -87.3, -88, -103, -103.97, -104, -105, -150, -151, -152, 127.9, 128, 129, 130,
		709, 709.78, 709.79, 710, 711, -708, -745, -745.13, -745.14, -746, -747, -1074, -1075, -1076, 1023.9, 1024, 1025, 1026,
		-18, -17.9, -45, -44.9, 9.1, 9.0, 22, 21.9, 25, -25,
		// log family: around 1 and the scale limits.
		1 + 0x1p-23, 1 - 0x1p-24, 1 + 0x1p-52, 1 - 0x1p-53, 0.7071067811865476, 1.4142135623730951, 1.4142135, 1.4142137,
		-0.9999999, -0.99999999999, -1 + 0x1p-24, -1 + 0x1p-53,
		// trig: the ends of the Cody-Waite range and huge arguments.
		1e5, 1e6, 0x1p21, 0x1p21 + 1, 0x1p21 - 1, 0x1p50, 0x1p50 + 2, 0x1p50 - 1, 0x1p51, 1e15, 1e20, 1e30, 1e38, 3e38,
		1e100, 1e300, 1e308, -1e6, -0x1p21 - 2, -1e15, -1e300, 6381956970095103 * 0x1p797, 5.319372648326541e+255,
		// erf pieces.
		0.99999, 1.00001, 1.99999, 2.00001, 2.99999, 3.00001, 3.99999, 4.00001, 5.99999, 6.00001, 7, 8, -4, -6.5,
		// integers and halves for pow.
		4, 5, 0.25, -0.25, 1e-300, 1e-40, 1e-45,
	}
	var out []uint64
	add := func(f float64) {
		if typ == ir.F32 {
			out = append(out, uint64(math.Float32bits(float32(f))))
		} else {
			out = append(out, math.Float64bits(f))
		}
	}
	for _, v := range vals {
		add(v)
		add(-v)
	}
	for _, v := range []float64{math.Inf(1), math.Inf(-1)} {
		add(v)
	}
	if typ == ir.F32 {
		out = append(out,
			0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345, 0x7fc12345, // NaNs, quiet and signaling
			0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, // subnormals, smallest normals
			0x7f7fffff, 0xff7fffff, 0x3f800001, 0x3f7fffff, 0x80000000)
	} else {
		out = append(out,
			0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000012345, 0x7ff8000000012345,
			1, 0x8000000000000001, 0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000,
			0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000001, 0x3fefffffffffffff, 0x8000000000000000)
	}
	return out
}

// randomBits returns n random bit patterns of typ: uniform in bits half
// the time, else uniform in [-r, r] for a range r that suits fn.
func randomBits(rng *rand.Rand, typ ir.Type, fn ir.MathFn, n int) []uint64 {
	scale := map[ir.MathFn]float64{
		ir.MathExp: 120, ir.MathExp2: 160, ir.MathExpm1: 100, ir.MathSigmoid: 120, ir.MathTanh: 30,
		ir.MathErf: 8, ir.MathSin: 1e4, ir.MathCos: 1e4, ir.MathTan: 1e4, ir.MathLog: 1e3, ir.MathLog2: 1e3,
		ir.MathLog1p: 10, ir.MathPow: 20, ir.MathAtan2: 10,
	}[fn]
	if scale == 0 {
		scale = 100
	}
	if typ == ir.F64 {
		switch fn {
		case ir.MathExp, ir.MathExpm1, ir.MathSigmoid:
			scale = 800
		case ir.MathExp2:
			scale = 1100
		case ir.MathSin, ir.MathCos, ir.MathTan:
			scale = 1e16
		}
	}
	out := make([]uint64, n)
	for i := range out {
		if rng.IntN(2) == 0 {
			if typ == ir.F32 {
				out[i] = uint64(rng.Uint32())
			} else {
				out[i] = rng.Uint64()
			}
			continue
		}
		v := (2*rng.Float64() - 1) * scale
		if typ == ir.F32 {
			out[i] = uint64(math.Float32bits(float32(v)))
		} else {
			out[i] = math.Float64bits(v)
		}
	}
	return out
}
