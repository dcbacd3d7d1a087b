package fmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// intCases returns operands for the integer ops of width w: the extremes,
// small values of both signs and random ones.
func intCases(r *rand.Rand, w uint) []int64 {
	lo, hi := -int64(1)<<(w-1), int64(1)<<(w-1)-1
	v := []int64{0, 1, -1, 2, -2, 3, -3, 7, -7, 62, 63, 64, lo, lo + 1, hi, hi - 1}
	for range 40 {
		x := int64(r.Uint64())
		if w == 32 {
			x = int64(int32(x))
		}
		v = append(v, x, int64(r.IntN(41)-20))
	}
	return v
}

// wrap returns x modulo 2^w as a signed w-bit integer.
func wrap(x *big.Int, w uint) int64 {
	m := new(big.Int).Lsh(big.NewInt(1), w)
	y := new(big.Int).Mod(x, m) // in [0, 2^w)
	if y.Cmp(new(big.Int).Rsh(m, 1)) >= 0 {
		y.Sub(y, m)
	}
	return y.Int64()
}

// eachPair calls f with every pair of intCases of both widths (values of
// width 32 fit int32).
func eachPair(seed uint64, f func(w uint, a, b int64)) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	for _, w := range []uint{32, 64} {
		vs := intCases(r, w)
		for _, a := range vs {
			for _, b := range vs {
				f(w, a, b)
			}
		}
	}
}

// TestFloorDivModInt checks FloorDiv and Mod of int32 and int64 against
// exact floor division: a = q*b + r with r of b's sign and |r| < |b|,
// the quotient wrapped (MinInt // -1), and 0 by zero.
func TestFloorDivModInt(t *testing.T) {
	eachPair(1, func(w uint, a, b int64) {
		q, m := FloorDiv(a, b), Mod(a, b)
		if w == 32 {
			q, m = int64(FloorDiv(int32(a), int32(b))), int64(Mod(int32(a), int32(b)))
		}
		wq, wm := int64(0), int64(0)
		if b != 0 {
			bq, bm := new(big.Int).DivMod(big.NewInt(a), big.NewInt(b), new(big.Int))
			// DivMod is Euclidean (bm >= 0); floor division moves a
			// positive remainder into b's sign.
			if bm.Sign() != 0 && b < 0 {
				bq.Sub(bq, big.NewInt(1))
				bm.Add(bm, big.NewInt(b))
			}
			wq, wm = wrap(bq, w), bm.Int64()
		}
		if q != wq || m != wm {
			t.Fatalf("int%d %d // %d, %% got:%d, %d want:%d, %d", w, a, b, q, m, wq, wm)
		}
	})
}

// TestPowInt checks Pow against the exact power wrapped to the width, and
// the rule for negative exponents.
func TestPowInt(t *testing.T) {
	eachPair(3, func(w uint, x, e int64) {
		got := Pow(x, e)
		if w == 32 {
			got = int64(Pow(int32(x), int32(e)))
		}
		var want int64
		switch {
		case e >= 0:
			m := new(big.Int).Lsh(big.NewInt(1), w)
			want = wrap(new(big.Int).Exp(big.NewInt(x), big.NewInt(e), m), w)
		case x == 1 || (x == -1 && e%2 == 0):
			want = 1
		case x == -1:
			want = -1
		}
		if got != want {
			t.Fatalf("int%d %d ** %d got:%d want:%d", w, x, e, got, want)
		}
	})
}

// TestDivModFloat compares with NumPy 1.24's floor_divide and remainder
// of float64 (the values printed by NumPy), signed zeros, infinities and
// division by zero included.
func TestDivModFloat(t *testing.T) {
	inf, nan, nz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	tests := []struct{ a, b, div, mod float64 }{
		{7, 2, 3, 1},
		{-7, 2, -4, 1},
		{7, -2, -4, -1},
		{-7, -2, 3, -1},
		{5.28, -0.49, -11, -0.10999999999999965},
		{-2.1, 0.15, -15, 0.14999999999999983},
		{0.5, 0.1, 4, 0.09999999999999998},
		{1e300, 3e-300, inf, 9.626317689605992e-301},
		{-1e-300, 1e300, -1, 1e300},
		{0, 5, 0, 0},
		{nz, 5, nz, 0},
		{0, -5, nz, nz},
		{1, inf, 0, 1},
		{-1, inf, -1, inf},
		{1, -inf, -1, -inf},
		{inf, 2, nan, nan},
		{3, nan, nan, nan},
		{nan, 1, nan, nan},
		{1, 0, inf, nan},
		{0, 0, nan, nan},
		{-1, 0, -inf, nan},
		{6, 3, 2, 0},
		{-6, -3, 2, nz},
	}
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) || (x != x && y != y) }
	for _, tc := range tests {
		d, m := DivModFloat(tc.a, tc.b)
		if !same(d, tc.div) || !same(m, tc.mod) || !same(FloorDivFloat(tc.a, tc.b), d) || !same(ModFloat(tc.a, tc.b), m) {
			t.Errorf("divmod(%v, %v) got:%v, %v want:%v, %v", tc.a, tc.b, d, m, tc.div, tc.mod)
		}
	}
}

// TestFmod compares Fmod bit for bit with math.Mod: quotients just
// below, at and above integers, operands over the whole exponent range
// (subnormals included), huge quotients, signed zeros, infinities, NaN.
func TestFmod(t *testing.T) {
	inf, nz := math.Inf(1), math.Copysign(0, -1)
	special := []float64{0, nz, 1, -1, 0.1, -0.3, 3, 7.5, 1e-310, -5e-324, 1e300, -1.7e308, inf, -inf, math.NaN(),
		math.Nextafter(1, 2), math.Nextafter(1, 0), 1 << 52, 1<<52 + 1, 1 << 53, 0x1p-1022}
	for _, a := range special {
		for _, b := range special {
			requireSameMod(t, a, b)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		a := (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(2100)-1075)
		b := (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(2100)-1075)
		requireSameMod(t, a, b)
		// a near a multiple of b: the rounded quotient's off-by-one cases.
		k := math.Trunc(r.Float64() * math.Ldexp(1, r.IntN(60)))
		m := k * b
		for _, x := range []float64{m, math.Nextafter(m, inf), math.Nextafter(m, -inf), -m} {
			requireSameMod(t, x, b)
		}
	}
}

func requireSameMod(t *testing.T, a, b float64) {
	t.Helper()
	got, want := Fmod(a, b), math.Mod(a, b)
	if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
		t.Fatalf("Fmod(%v, %v) got:%v want:%v", a, b, got, want)
	}
}

// FuzzFmod checks Fmod against math.Mod on any pair of float64 bits.
func FuzzFmod(f *testing.F) {
	f.Add(math.Float64bits(5.28), math.Float64bits(-0.49))
	f.Add(math.Float64bits(1e300), math.Float64bits(3e-300))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		requireSameMod(t, math.Float64frombits(a), math.Float64frombits(b))
	})
}

// BenchmarkFmod times Fmod beside math.Mod on quotients below 200.
func BenchmarkFmod(b *testing.B) {
	xs, ys := make([]float64, 1024), make([]float64, 1024)
	for i := range xs {
		xs[i], ys[i] = float64(i)*0.37-190, 1+float64(i%9)
	}
	for _, f := range []struct {
		name string
		fn   func(a, b float64) float64
	}{{"math.Mod", math.Mod}, {"Fmod", Fmod}, {"ModFloat", ModFloat}} {
		b.Run(f.name, func(b *testing.B) {
			s := 0.0
			for i := range b.N {
				s += f.fn(xs[i&1023], ys[i&1023])
			}
			sinkFloat = s
		})
	}
}

var sinkFloat float64
