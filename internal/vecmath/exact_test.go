// This file tests that every path (AVX-512, AVX2 and portable, where the
// CPU has them) gives the IR interpreter's bits for every function and
// type, on each function's special and edge values and on random bit
// patterns, over lengths that leave partial vectors.

package vecmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// paths returns the paths this CPU runs.
func paths() []path {
	var out []path
	for p := path(0); p < numPaths; p++ {
		if supported(p) {
			out = append(out, p)
		}
	}
	return out
}

// randomCount is the number of random inputs per function and type:
// more with FUSEFLOW_VECMATH_LONG=1 (the interpreter is slow).
func randomCount() int {
	if os.Getenv("FUSEFLOW_VECMATH_LONG") == "1" {
		return 200000
	}
	if testing.Short() {
		return 500
	}
	return 3000
}

// entryType returns the IR type of a kernel entry.
func (e kernelEntry) typ() ir.Type {
	if e.k1f32 != nil || e.k2f32 != nil {
		return ir.F32
	}
	return ir.F64
}

func (e kernelEntry) name() string {
	switch {
	case e.k1f32 != nil:
		return e.k1f32.name
	case e.k1f64 != nil:
		return e.k1f64.name
	case e.k2f32 != nil:
		return e.k2f32.name
	}
	return e.k2f64.name
}

// runBits runs the entry's kernel on path p over inputs given as bits
// and returns the results as bits; inPlace writes over the first operand.
func (e kernelEntry) runBits(p path, xs, ys []uint64, inPlace bool) []uint64 {
	if e.k1f32 != nil || e.k2f32 != nil {
		return runBitsOf(p, e.k1f32, e.k2f32, xs, ys, inPlace)
	}
	return runBitsOf(p, e.k1f64, e.k2f64, xs, ys, inPlace)
}

// runBitsOf is runBits for the kernel of element type T: k1, or k2 when
// k1 is nil.
func runBitsOf[T float32 | float64](p path, k1 *kernel1[T], k2 *kernel2[T], xs, ys []uint64, inPlace bool) []uint64 {
	x, y := fromBits[T](xs), fromBits[T](ys)
	d := make([]T, len(xs))
	if inPlace {
		d = x
	}
	if k1 != nil {
		k1.runOn(p, d, x)
	} else {
		k2.runOn(p, d, x, y)
	}
	out := make([]uint64, len(d))
	for i, v := range d {
		if unsafe.Sizeof(v) == 4 {
			out[i] = uint64(math.Float32bits(float32(v)))
		} else {
			out[i] = math.Float64bits(float64(v))
		}
	}
	return out
}

// fromBits returns the values of type T whose bits are b (float32's in
// the low 32), nil for nil.
func fromBits[T float32 | float64](b []uint64) []T {
	if b == nil {
		return nil
	}
	s := make([]T, len(b))
	for i, v := range b {
		if unsafe.Sizeof(s[i]) == 4 {
			s[i] = T(math.Float32frombits(uint32(v)))
		} else {
			s[i] = T(math.Float64frombits(v))
		}
	}
	return s
}

// inputs returns the test inputs of an entry: specials (crossed for two
// operands) and random patterns.
func inputs(t testing.TB, e kernelEntry, seed uint64, nrand int) (xs, ys []uint64) {
	fn := mathFnOf(t, e.fn)
	typ := e.typ()
	rng := rand.New(rand.NewPCG(seed, uint64(fn)<<8|uint64(typ)))
	sp := specials(typ)
	if fn.Arity() == 1 {
		xs = append(sp, randomBits(rng, typ, fn, nrand)...)
		return xs, nil
	}
	// Two operands: a cross of a part of the specials, then each special
	// against random values, then random pairs.
	sub := sp[:0:0]
	for i, v := range sp {
		if i%5 == 0 || i >= len(sp)-20 {
			sub = append(sub, v)
		}
	}
	for _, a := range sub {
		for _, b := range sub {
			xs, ys = append(xs, a), append(ys, b)
		}
	}
	r := randomBits(rng, typ, fn, 2*len(sp))
	for i, v := range sp {
		xs, ys = append(xs, v, r[2*i]), append(ys, r[2*i+1], v)
	}
	xs = append(xs, randomBits(rng, typ, fn, nrand)...)
	ys = append(ys, randomBits(rng, typ, fn, nrand)...)
	return xs, ys
}

// isNaNBits reports whether b is a NaN of typ.
func isNaNBits(typ ir.Type, b uint64) bool {
	if typ == ir.F32 {
		return b&0x7fffffff > 0x7f800000
	}
	return b&(1<<63-1) > 0x7ff0000000000000
}

// mismatches lists the results whose bits differ, NaNs aside: a NaN
// result must be a NaN, with any sign and payload (see the package
// documentation).
func mismatches(typ ir.Type, xs, ys, got, want []uint64) []string {
	var out []string
	for i := range want {
		if got[i] == want[i] || isNaNBits(typ, got[i]) && isNaNBits(typ, want[i]) {
			continue
		}
		if len(out) < 8 {
			in := fmtBits(typ, xs[i])
			if ys != nil {
				in += ", " + fmtBits(typ, ys[i])
			}
			out = append(out, fmt.Sprintf("(%s) got:%s want:%s", in, fmtBits(typ, got[i]), fmtBits(typ, want[i])))
		} else {
			out = append(out, "")
		}
	}
	return out
}

func fmtBits(typ ir.Type, b uint64) string {
	if typ == ir.F32 {
		return fmt.Sprintf("%v[%#08x]", math.Float32frombits(uint32(b)), b)
	}
	return fmt.Sprintf("%v[%#016x]", math.Float64frombits(b), b)
}

// TestBitExact checks every function, type and path against the IR
// interpreter bit for bit.
func TestBitExact(t *testing.T) {
	for _, e := range kernels {
		t.Run(e.name(), func(t *testing.T) {
			t.Parallel()
			fn, typ := mathFnOf(t, e.fn), e.typ()
			xs, ys := inputs(t, e, 1, randomCount())
			want := runOracle(t, fn, typ, xs, ys)
			for _, p := range paths() {
				got := e.runBits(p, xs, ys, false)
				if bad := mismatches(typ, xs, ys, got, want); len(bad) > 0 {
					t.Errorf("%s on %s: %d of %d differ from the interpreter:", e.name(), p, len(bad), len(xs))
					for _, s := range bad[:min(8, len(bad))] {
						t.Log("  ", s)
					}
				}
			}
		})
	}
}
