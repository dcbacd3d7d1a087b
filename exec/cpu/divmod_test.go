// Tests of the portable float floor division and modulo loops
// (divmod.go) and the operands and checks the vector loops' tests
// (divmod_amd64_test.go) share: bit for bit against fmath.DivModFloat
// over quotients at, just off and halfway between integers up to and
// past the fast domain's 2^50, signed zeros, infinities, NaN,
// subnormals, zero divisors and random bits over the whole exponent
// range, at every length of vecLengths and in place.

package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// divModPair draws operands a, b: a quotient near an integer of random
// size (on it, one ulp off, half way), an edge value, random bits or a
// value of the benchmarks' ranges, with random signs.
func divModPair(r *rand.Rand, f32 bool) (a, b float64) {
	round := func(x float64) float64 {
		if f32 {
			return float64(float32(x))
		}
		return x
	}
	sign := func(x float64) float64 {
		if r.IntN(2) == 0 {
			return -x
		}
		return x
	}
	switch r.IntN(8) {
	case 0, 1, 2: // a quotient at or near an integer k below 2^54
		b = round(sign(math.Ldexp(1+r.Float64(), r.IntN(80)-40)))
		k := math.Trunc(math.Ldexp(1+r.Float64(), r.IntN(55)))
		switch r.IntN(3) {
		case 0:
			a = round(k * b)
		case 1:
			a = round(math.Nextafter(k*b, math.Inf(r.IntN(2)*2-1)))
		default:
			a = round((k + 0.5) * b)
		}
		a = sign(a)
	case 3: // near the fast domain's edge
		b = round(sign(1 + r.Float64()))
		k := math.Ldexp(1, 50) + float64(r.IntN(64)-32)
		a = sign(round(math.Nextafter(k*b, math.Inf(r.IntN(2)*2-1))))
	case 4: // edge values
		a, b = specials[r.IntN(len(specials))], specials[r.IntN(len(specials))]
		if r.IntN(2) == 0 {
			b = sign(1 + 9*r.Float64())
		}
	case 5: // random bits
		if f32 {
			return float64(math.Float32frombits(r.Uint32())), float64(math.Float32frombits(r.Uint32()))
		}
		return math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())
	default: // the benchmarks' ranges
		a, b = 200*r.Float64()-100, sign(1+9*r.Float64())
	}
	return round(a), round(b)
}

// divModWant returns op's result by fmath.DivModFloat, rounded to
// float32 for f32.
func divModWant(op graph.Op, a, b float64, f32 bool) uint64 {
	q, m := fmath.DivModFloat(a, b)
	if op == graph.OpMod {
		q = m
	}
	if f32 {
		return uint64(math.Float32bits(float32(q)))
	}
	return math.Float64bits(q)
}

// divModBufs returns n operand pairs of dtype d (at element off of fresh
// buffers) from pair.
func divModBufs(d graph.DType, n, off int, pair func() (float64, float64)) (a, b unsafe.Pointer) {
	if d == graph.Float32 {
		x, y := make([]float32, n+off+1), make([]float32, n+off+1)
		for i := range x {
			p, q := pair()
			x[i], y[i] = float32(p), float32(q)
		}
		return unsafe.Pointer(&x[off]), unsafe.Pointer(&y[off])
	}
	x, y := make([]float64, n+off+1), make([]float64, n+off+1)
	for i := range x {
		x[i], y[i] = pair()
	}
	return unsafe.Pointer(&x[off]), unsafe.Pointer(&y[off])
}

// checkDivMod compares n results of op on dtype d at got with DivModFloat's.
func checkDivMod(t *testing.T, what string, d graph.DType, op graph.Op, got, a, b unsafe.Pointer, n int) {
	t.Helper()
	f32 := d == graph.Float32
	for i := range n {
		x, y := elemFloat(a, d, i), elemFloat(b, d, i)
		if g, w := elemBits(got, d, i), divModWant(op, x, y, f32); g != w {
			t.Fatalf("%s %v %v n=%d [%d] (%v, %v) got:%#x (%v) want:%#x", what, op, d, n, i, x, y, g, elemFloat(got, d, i), w)
		}
	}
}

// setDivModElem stores x at element i of p (dtype d).
func setDivModElem(p unsafe.Pointer, d graph.DType, i int, x float64) {
	if d == graph.Float32 {
		view[float32](p, i+1)[i] = float32(x)
		return
	}
	view[float64](p, i+1)[i] = x
}

// TestDivModPortable runs the portable loops over operand mixes at
// every length, into a separate destination and in place.
func TestDivModPortable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 19))
	for _, c := range []struct {
		d   graph.DType
		op  graph.Op
		run binaryFn
	}{
		{graph.Float32, graph.OpFloorDiv, binary(floorDivFL[float32])},
		{graph.Float32, graph.OpMod, binary(modFL[float32])},
		{graph.Float64, graph.OpFloorDiv, binary(floorDivFL[float64])},
		{graph.Float64, graph.OpMod, binary(modFL[float64])},
	} {
		f32 := c.d == graph.Float32
		for _, n := range vecLengths {
			for range 2 {
				a, b := divModBufs(c.d, n, r.IntN(4), func() (float64, float64) { return divModPair(r, f32) })
				got := vecBuf(r, c.d, n, 0)
				c.run(got, a, b, n)
				checkDivMod(t, "portable", c.d, c.op, got, a, b, n)
				// In place over b.
				x := view[byte](got, n*c.d.Size())
				copy(x, view[byte](b, n*c.d.Size()))
				c.run(got, a, got, n)
				for i := range n {
					if g, w := elemBits(got, c.d, i), divModWant(c.op, elemFloat(a, c.d, i), elemFloat(b, c.d, i), f32); g != w {
						t.Fatalf("portable %v %v in place n=%d [%d] got:%#x want:%#x", c.op, c.d, n, i, g, w)
					}
				}
			}
		}
	}
}

// BenchmarkDivMod times the table's floor division and modulo loops
// over one chunk of operands in the benchmark suite's ranges (a in
// (-100, 100), b in (1, 10)), with the vector loops installed (vec) and
// with the portable ones.
func BenchmarkDivMod(b *testing.B) {
	for _, n := range []int{1024, 16384} {
		for _, d := range []graph.DType{graph.Float32, graph.Float64} {
			r := rand.New(rand.NewPCG(3, 4))
			x, y := divModBufs(d, n, 0, func() (float64, float64) { return 200*r.Float64() - 100, 1 + 9*r.Float64() })
			dst := vecBuf(r, d, n, 0)
			for _, op := range []graph.Op{graph.OpFloorDiv, graph.OpMod} {
				vec, scalar := withVector(func() binaryFn { return binaryTab[d][op] })
				for _, l := range []struct {
					name string
					f    binaryFn
				}{{"vec", vec}, {"portable", scalar}} {
					b.Run(fmt.Sprintf("%v/%v/%d/%s", op, d, n, l.name), func(b *testing.B) {
						b.SetBytes(int64(3 * n * d.Size()))
						b.ResetTimer()
						for range b.N {
							l.f(dst, x, y, n)
						}
					})
				}
			}
		}
	}
}
