// Tests of the float floor division and modulo vector loops
// (divmod_amd64.go): bit for bit against fmath.DivModFloat, the AVX2 and
// the AVX-512 loops alike where the CPU has both, over operands that
// take every path (quotients at, just off and halfway between integers
// up to and past the fast domain's 2^50, signed zeros, infinities, NaN,
// subnormals, zero divisors, random bits over the whole exponent range)
// at every length of vecLengths; and the fast domain itself: a unit
// inside it is done by the vector code, a unit with one lane outside it
// is left to the scalar loop whole.

//go:build amd64 && !purego

package cpu

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// divModVariants returns the loops of each instruction set the CPU has.
func divModVariants(t *testing.T) map[string][]divModLoop {
	t.Helper()
	if !hasVector {
		t.Skip("no AVX2 and FMA")
	}
	vs := map[string][]divModLoop{"AVX2": divModLoops(false)}
	if hasAVX512 {
		vs["AVX-512"] = divModLoops(true)
	} else {
		t.Log("no AVX-512: its loops are not tested")
	}
	return vs
}

// TestDivModVector runs each loop (with the scalar loop over the units
// it leaves, as registered) over operand mixes at every length.
func TestDivModVector(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 91))
	for set, loops := range divModVariants(t) {
		for _, e := range loops {
			_, scalar := withVector(func() binaryFn { return binaryTab[e.d][e.op] })
			f := vecPartial(e.v, scalar, e.d.Size(), e.lanes)
			f32 := e.d == graph.Float32
			for _, n := range vecLengths {
				for range 2 {
					off := r.IntN(8)
					a, b := divModBufs(e.d, n, off, func() (float64, float64) { return divModPair(r, f32) })
					got := vecBuf(r, e.d, n, off)
					f(got, a, b, n)
					checkDivMod(t, set, e.d, e.op, got, a, b, n)
				}
			}
		}
	}
}

// TestDivModVectorRandom compares the loops with DivModFloat over many
// operands drawn from each mix, long runs of which take the vector code;
// each loop runs over 16 buffers of 1024 pairs, or with
// FUSEFLOW_DIVMOD_LONG=1 over 2500 (some 20 million pairs in all).
func TestDivModVectorRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 26))
	rounds := 16
	if os.Getenv("FUSEFLOW_DIVMOD_LONG") == "1" {
		rounds = 2500
	}
	for set, loops := range divModVariants(t) {
		for _, e := range loops {
			_, scalar := withVector(func() binaryFn { return binaryTab[e.d][e.op] })
			f := vecPartial(e.v, scalar, e.d.Size(), e.lanes)
			f32 := e.d == graph.Float32
			const n = 1024
			for range rounds {
				// One mix per buffer, so that whole units fall in the fast
				// domain; random bits mostly do not.
				mix := r.IntN(8)
				a, b := divModBufs(e.d, n, 0, func() (float64, float64) {
					for {
						if x, y := divModPair(r, f32); mix != 5 || r.IntN(4) != 0 {
							return x, y
						}
					}
				})
				got := vecBuf(r, e.d, n, 0)
				f(got, a, b, n)
				checkDivMod(t, set, e.d, e.op, got, a, b, n)
			}
		}
	}
}

// TestDivModVectorDomain checks where each loop stops: it does units
// whose lanes are all inside the fast domain (finite, b nonzero, |a/b|
// below 2^50 rounded) and stops before the first unit with a lane
// outside it, storing nothing of that unit.
func TestDivModVectorDomain(t *testing.T) {
	const lim = 0x1p50
	outside := []struct {
		name string
		a, b float64
	}{
		{"b zero", 1, 0}, {"b minus zero", 1, math.Copysign(0, -1)}, {"zero by zero", 0, 0},
		{"a NaN", math.NaN(), 2}, {"b NaN", 2, math.NaN()}, {"a infinite", math.Inf(-1), 3},
		{"b infinite", 3, math.Inf(1)}, {"quotient 2^50", lim * 3, 3}, {"quotient 2^52", 0x1p52, -1},
		{"quotient overflows", 1e300, 1e-300}, {"float32 quotient", 0x1p120, 0x1p-20},
	}
	inside := []struct{ a, b float64 }{
		{0, 1}, {math.Copysign(0, -1), -1}, {-7.5, 2}, {lim - 1, 1}, {-(lim - 0.5), 1}, {1e-40, 3e38},
		{5e-324, 1}, {1e-310, -3e-311}, {-100, 9.5}, {0x1p100, 0x1p60},
	}
	for set, loops := range divModVariants(t) {
		for _, e := range loops {
			f32 := e.d == graph.Float32
			for _, in := range inside {
				if f32 && (float64(float32(in.a)) != in.a || float64(float32(in.b)) != in.b) {
					continue
				}
				n := 3 * e.lanes
				a, b := divModBufs(e.d, n, 0, func() (float64, float64) { return in.a, in.b })
				got := vecBuf(rand.New(rand.NewPCG(1, 1)), e.d, n, 0)
				if done := e.v(got, a, b, n); done != n {
					t.Errorf("%s %v %v (%v, %v): did %d of %d want:all", set, e.op, e.d, in.a, in.b, done, n)
				}
				checkDivMod(t, set, e.d, e.op, got, a, b, n)
			}
			for _, out := range outside {
				if f32 && (float64(float32(out.a)) != out.a || float64(float32(out.b)) != out.b) {
					continue
				}
				for lane := range e.lanes {
					n := 3 * e.lanes
					a, b := divModBufs(e.d, n, 0, func() (float64, float64) { return -50, 7 })
					at := e.lanes + lane // in the second unit
					setDivModElem(a, e.d, at, out.a)
					setDivModElem(b, e.d, at, out.b)
					got := make([]byte, n*e.d.Size())
					if done := e.v(unsafe.Pointer(&got[0]), a, b, n); done != e.lanes {
						t.Fatalf("%s %v %v %s in lane %d: did %d want:%d", set, e.op, e.d, out.name, lane, done, e.lanes)
					}
					for i, c := range got[e.lanes*e.d.Size():] {
						if c != 0 {
							t.Fatalf("%s %v %v %s: stored byte %d of the unit it left", set, e.op, e.d, out.name, i)
						}
					}
				}
			}
		}
	}
}

// TestDivModRegistered checks that the tables hold a vector loop for
// float floor division and modulo that matches DivModFloat.
func TestDivModRegistered(t *testing.T) {
	needVector(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		for _, op := range []graph.Op{graph.OpFloorDiv, graph.OpMod} {
			vec, scalar := withVector(func() binaryFn { return binaryTab[d][op] })
			if funcPC(vec) == funcPC(scalar) {
				t.Fatalf("%v %v: no vector loop registered", op, d)
			}
			const n = 999
			a, b := divModBufs(d, n, 1, func() (float64, float64) { return divModPair(r, d == graph.Float32) })
			got := vecBuf(r, d, n, 1)
			vec(got, a, b, n)
			checkDivMod(t, "registered", d, op, got, a, b, n)
		}
	}
}

// funcPC returns the code address of f's closure.
func funcPC(f binaryFn) uintptr { return **(**uintptr)(unsafe.Pointer(&f)) }

// BenchmarkDivModSets times each instruction set's loops over one chunk
// of operands in the benchmark suite's ranges.
func BenchmarkDivModSets(b *testing.B) {
	const n = 4096
	if !hasVector {
		b.Skip("no AVX2 and FMA")
	}
	sets := map[string][]divModLoop{"AVX2": divModLoops(false)}
	if hasAVX512 {
		sets["AVX-512"] = divModLoops(true)
	}
	for set, loops := range sets {
		for _, e := range loops {
			r := rand.New(rand.NewPCG(3, 4))
			x, y := divModBufs(e.d, n, 0, func() (float64, float64) { return 200*r.Float64() - 100, 1 + 9*r.Float64() })
			dst := vecBuf(r, e.d, n, 0)
			b.Run(set+"/"+e.name+"/"+e.d.String(), func(b *testing.B) {
				b.SetBytes(int64(3 * n * e.d.Size()))
				b.ResetTimer()
				for range b.N {
					if e.v(dst, x, y, n) != n {
						b.Fatal("left a unit to the scalar loop")
					}
				}
			})
		}
	}
}
