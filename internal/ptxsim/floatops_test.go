// Table tests of the floating-point instructions (PTX ISA 9.7.3).

package ptxsim_test

import (
	"fmt"
	"math"
	"testing"
)

// bitsOf32 returns the f32 bits of the float32 with the given raw bits
// plus k ulps (for expected values next to a representable one).
func next32(f float32, k int) uint64 { return uint64(int64(math.Float32bits(f)) + int64(k)) }

// PTX ISA 9.7.3.3, 9.7.3.4 add, sub: .rn (the default), .rz, .rm, .rp
// round the exact sum once; an exact zero sum is -0 only under .rm
// (IEEE 754 6.3); overflow gives infinity or the largest finite value by
// the mode; .ftz flushes subnormal inputs and results; .sat clamps to
// [0, 1] and turns NaN into +0.
func TestFloatAddRounding(t *testing.T) {
	one := float32(1)
	tiny := float32(0x1p-24) // half an ulp of 1
	small := float32(0x1p-30)
	maxf := float32(math.MaxFloat32)
	modes := []struct {
		rnd  string
		rows []row
	}{
		{"rn", []row{
			{[]uint64{f32b(one), f32b(tiny)}, f32b(one)}, // tie to even
			{[]uint64{f32b(one), f32b(3 * tiny)}, next32(one, 2)},
			{[]uint64{f32b(one), f32b(-small)}, f32b(one)},
			{[]uint64{f32b(maxf), f32b(maxf)}, inf32},
			{[]uint64{f32b(one), f32b(-one)}, 0},
		}},
		{"rz", []row{
			{[]uint64{f32b(one), f32b(tiny)}, f32b(one)},
			{[]uint64{f32b(one), f32b(-small)}, next32(one, -1)},
			{[]uint64{f32b(-one), f32b(small)}, next32(-one, -1)},
			{[]uint64{f32b(maxf), f32b(maxf)}, f32b(maxf)},
			{[]uint64{f32b(one), f32b(-one)}, 0},
		}},
		{"rm", []row{
			{[]uint64{f32b(one), f32b(small)}, f32b(one)},
			{[]uint64{f32b(one), f32b(-small)}, next32(one, -1)},
			{[]uint64{f32b(-one), f32b(-small)}, next32(-one, 1)},
			{[]uint64{f32b(maxf), f32b(maxf)}, f32b(maxf)},
			{[]uint64{f32b(-maxf), f32b(-maxf)}, ninf32},
			{[]uint64{f32b(one), f32b(-one)}, nzero}, // exact zero is -0 under .rm
			{[]uint64{0, 0}, 0},
		}},
		{"rp", []row{
			{[]uint64{f32b(one), f32b(tiny)}, next32(one, 1)},
			{[]uint64{f32b(one), f32b(small)}, next32(one, 1)},
			{[]uint64{f32b(-one), f32b(-small)}, f32b(-one)},
			{[]uint64{f32b(maxf), f32b(maxf)}, inf32},
			{[]uint64{f32b(-maxf), f32b(-maxf)}, f32b(-maxf)},
		}},
	}
	for _, m := range modes {
		check(t, opSpec{"add." + m.rnd + ".f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, m.rows)
	}
	check(t, opSpec{"sub.rm.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(2), f32b(2)}, nzero},
		{[]uint64{f32b(one), f32b(small)}, next32(one, -1)},
	})
	sub := float32(0x1p-130)
	check(t, opSpec{"add.ftz.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(sub), 0}, 0},                                // subnormal input flushed
		{[]uint64{f32b(1.5 * 0x1p-126), f32b(-0x1p-126)}, 0},       // subnormal result flushed
		{[]uint64{f32b(-1.5 * 0x1p-126), f32b(0x1p-126)}, nzero},   // to a zero of its sign
		{[]uint64{f32b(0x1p-126), f32b(0x1p-126)}, f32b(0x1p-125)}, // normal stays
		{[]uint64{f32b(sub), f32b(one)}, f32b(one)},
	})
	check(t, opSpec{"add.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(sub), 0}, f32b(sub)}, // no .ftz: subnormals kept
		{[]uint64{inf32, ninf32}, nan32},
		{[]uint64{f32b(0.1), f32b(0.2)}, f32b(float32(0.1) + float32(0.2))},
	})
	check(t, opSpec{"add.sat.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(0.75), f32b(0.5)}, f32b(1)},
		{[]uint64{f32b(-1), f32b(0.5)}, 0},
		{[]uint64{nan32, f32b(0.5)}, 0},
		{[]uint64{f32b(0.25), f32b(0.5)}, f32b(0.75)},
	})
}

// PTX ISA 9.7.3.3 - 9.7.3.5 in f64: directed rounding of add, sub, mul.
func TestFloat64Rounding(t *testing.T) {
	one, small := 1.0, 0x1p-60
	for _, c := range []struct {
		instr string
		rows  []row
	}{
		{"add.rn.f64", []row{{[]uint64{f64b(one), f64b(small)}, f64b(one)}}},
		{"add.rz.f64", []row{{[]uint64{f64b(one), f64b(-small)}, f64b(math.Nextafter(1, 0))}}},
		{"add.rm.f64", []row{{[]uint64{f64b(-one), f64b(-small)}, f64b(math.Nextafter(-1, -2))}, {[]uint64{f64b(3), f64b(-3)}, f64b(math.Copysign(0, -1))}}},
		{"add.rp.f64", []row{{[]uint64{f64b(one), f64b(small)}, f64b(math.Nextafter(1, 2))}, {[]uint64{f64b(math.MaxFloat64), f64b(math.MaxFloat64)}, f64b(math.Inf(1))}}},
		{"add.rz.f64", []row{{[]uint64{f64b(math.MaxFloat64), f64b(math.MaxFloat64)}, f64b(math.MaxFloat64)}}},
		{"sub.rp.f64", []row{{[]uint64{f64b(one), f64b(-small)}, f64b(math.Nextafter(1, 2))}}},
		// (1+2^-52)*(1+2^-52) = 1 + 2^-51 + 2^-104.
		{"mul.rn.f64", []row{{[]uint64{f64b(1 + 0x1p-52), f64b(1 + 0x1p-52)}, f64b(1 + 0x1p-51)}}},
		{"mul.rp.f64", []row{{[]uint64{f64b(1 + 0x1p-52), f64b(1 + 0x1p-52)}, f64b(math.Nextafter(1+0x1p-51, 2))}}},
		{"mul.rm.f64", []row{{[]uint64{f64b(-(1 + 0x1p-52)), f64b(1 + 0x1p-52)}, f64b(math.Nextafter(-(1 + 0x1p-51), -2))}}},
		{"mul.rz.f64", []row{{[]uint64{f64b(0x1p-1074), f64b(0.5)}, 0}}},
		{"mul.rp.f64", []row{{[]uint64{f64b(0x1p-1074), f64b(0.5)}, f64b(0x1p-1074)}}},
	} {
		check(t, opSpec{c.instr + " %d, %a, %b", "f64", "", []string{"f64", "f64"}}, c.rows)
	}
}

// PTX ISA 9.7.3.5 mul in f32: one rounding, per mode.
func TestFloatMul(t *testing.T) {
	a, b := float32(1.5), float32(1+0x1p-23) // 1.5 + 2^-23 + 2^-24: a tie
	for _, c := range []struct {
		rnd  string
		want uint64
	}{{"rn", next32(1.5, 2)}, {"rz", next32(1.5, 1)}, {"rm", next32(1.5, 1)}, {"rp", next32(1.5, 2)}} {
		check(t, opSpec{"mul." + c.rnd + ".f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
			{[]uint64{f32b(a), f32b(b)}, c.want},
			{[]uint64{f32b(0), ninf32}, nan32},
		})
	}
	check(t, opSpec{"mul.sat.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(3), f32b(0.5)}, f32b(1)},
		{[]uint64{f32b(-3), f32b(0.5)}, 0},
	})
}

// PTX ISA 9.7.3.6 fma: the product and the sum to infinite precision,
// one rounding.
func TestFloatFMA(t *testing.T) {
	a, b := float32(1+0x1p-23), float32(1-0x1p-23) // product 1 - 2^-46
	check(t, opSpec{"fma.rn.f32 %d, %a, %b, %c", "f32", "", []string{"f32", "f32", "f32"}}, []row{
		{[]uint64{f32b(a), f32b(b), f32b(-1)}, f32b(-0x1p-46)}, // mul then add would give 0
		{[]uint64{f32b(2), f32b(3), f32b(4)}, f32b(10)},
		{[]uint64{inf32, 0, f32b(1)}, nan32},
	})
	check(t, opSpec{"fma.rz.f32 %d, %a, %b, %c", "f32", "", []string{"f32", "f32", "f32"}}, []row{
		{[]uint64{f32b(a), f32b(b), 0}, next32(1, -1)},
	})
	check(t, opSpec{"fma.rp.f32 %d, %a, %b, %c", "f32", "", []string{"f32", "f32", "f32"}}, []row{
		{[]uint64{f32b(a), f32b(b), 0}, f32b(1)},
		{[]uint64{f32b(1), f32b(1), f32b(0x1p-40)}, next32(1, 1)},
	})
	check(t, opSpec{"fma.rm.f32 %d, %a, %b, %c", "f32", "", []string{"f32", "f32", "f32"}}, []row{
		{[]uint64{f32b(2), f32b(3), f32b(-6)}, nzero},
	})
	check(t, opSpec{"fma.rn.f64 %d, %a, %b, %c", "f64", "", []string{"f64", "f64", "f64"}}, []row{
		{[]uint64{f64b(1 + 0x1p-52), f64b(1 - 0x1p-52), f64b(-1)}, f64b(-0x1p-104)},
	})
	check(t, opSpec{"fma.rm.f64 %d, %a, %b, %c", "f64", "", []string{"f64", "f64", "f64"}}, []row{
		{[]uint64{f64b(1 + 0x1p-52), f64b(1 - 0x1p-52), 0}, f64b(math.Nextafter(1, 0))},
	})
	check(t, opSpec{"mad.rn.f32 %d, %a, %b, %c", "f32", "", []string{"f32", "f32", "f32"}}, []row{
		{[]uint64{f32b(a), f32b(b), f32b(-1)}, f32b(-0x1p-46)},
	})
}

// PTX ISA 9.7.3.8 div: .rn/.rz/.rm/.rp correctly rounded; .full within 2
// ulp, .approx computed as a * (1/b) within 2 ulp for |b| in [2^-126,
// 2^126] and 0 beyond; both flush subnormals, and divide a nonzero a by
// zero to an infinity of a's sign.
func TestFloatDiv(t *testing.T) {
	third := float32(1) / 3 // 0x3eaaaaab, above 1/3
	for _, c := range []struct {
		rnd  string
		want uint64
	}{{"rn", f32b(third)}, {"rz", next32(third, -1)}, {"rm", next32(third, -1)}, {"rp", f32b(third)}} {
		check(t, opSpec{"div." + c.rnd + ".f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
			{[]uint64{f32b(1), f32b(3)}, c.want},
			{[]uint64{f32b(1), 0}, inf32},
			{[]uint64{0, 0}, nan32},
		})
	}
	check(t, opSpec{"div.rm.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(-1), f32b(3)}, f32b(-third)},
	})
	check(t, opSpec{"div.rn.f64 %d, %a, %b", "f64", "", []string{"f64", "f64"}}, []row{
		{[]uint64{f64b(1), f64b(3)}, f64b(1.0 / 3)},
	})
	check(t, opSpec{"div.rp.f64 %d, %a, %b", "f64", "", []string{"f64", "f64"}}, []row{
		{[]uint64{f64b(1), f64b(3)}, f64b(math.Nextafter(1.0/3, 1))},
		{[]uint64{f64b(6), f64b(3)}, f64b(2)},
	})
	for _, kind := range []string{"full", "approx"} {
		s := opSpec{"div." + kind + ".f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}
		check(t, s, []row{
			{[]uint64{f32b(5), 0}, inf32},
			{[]uint64{f32b(-5), 0}, ninf32},
			{[]uint64{f32b(0x1p-130), f32b(1)}, 0}, // subnormal input flushed
			{[]uint64{f32b(0x1p-120), f32b(0x1p10)}, 0},
		})
		// Within 2 ulp of the exact quotient.
		var rows [][]uint64
		for i := 1; i < 200; i++ {
			rows = append(rows, []uint64{f32b(float32(i) * 1.37), f32b(float32(200-i) * -0.71)})
		}
		got, err := s.run(rows)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			want := float64(math.Float32frombits(uint32(r[0]))) / float64(math.Float32frombits(uint32(r[1])))
			if u := ulps32(math.Float32frombits(uint32(got[i])), want); u > 2 {
				t.Errorf("div.%s.f32 %v got %d ulps off", kind, r, u)
			}
		}
	}
	check(t, opSpec{"div.approx.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(1), f32b(0x1p127)}, 0}, // |b| > 2^126
		{[]uint64{inf32, f32b(0x1p127)}, nan32},
	})
}

// ulps32 returns how many f32 ulps got is from the exact value want.
func ulps32(got float32, want float64) int {
	w := float32(want)
	d := int64(math.Float32bits(got)) - int64(math.Float32bits(w))
	if got < 0 != (w < 0) {
		return 1 << 30
	}
	if d < 0 {
		d = -d
	}
	return int(d)
}

// PTX ISA 9.7.3.9 - 9.7.3.12 abs, neg, min, max: abs and neg change only
// the sign; min and max return the non-NaN operand of one NaN, NaN of
// two (and of any with .NaN); of two zeros, +0.0 is the greater.
func TestFloatAbsNegMinMax(t *testing.T) {
	check(t, opSpec{"abs.f32 %d, %a", "f32", "", []string{"f32"}}, []row{
		{[]uint64{nzero}, 0}, {[]uint64{f32b(-2.5)}, f32b(2.5)}, {[]uint64{ninf32}, inf32},
	})
	check(t, opSpec{"neg.f64 %d, %a", "f64", "", []string{"f64"}}, []row{
		{[]uint64{0}, f64b(math.Copysign(0, -1))}, {[]uint64{f64b(2.5)}, f64b(-2.5)},
	})
	check(t, opSpec{"abs.ftz.f32 %d, %a", "f32", "", []string{"f32"}}, []row{
		{[]uint64{f32b(-0x1p-130)}, 0},
	})
	one := f32b(1)
	check(t, opSpec{"min.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{nan32, one}, one},
		{[]uint64{one, nan32}, one},
		{[]uint64{nan32, nan32}, 0x7fffffff},
		{[]uint64{0, nzero}, nzero},
		{[]uint64{nzero, 0}, nzero},
		{[]uint64{f32b(-1), one}, f32b(-1)},
		{[]uint64{ninf32, one}, ninf32},
	})
	check(t, opSpec{"max.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{nan32, one}, one},
		{[]uint64{0, nzero}, 0},
		{[]uint64{nzero, 0}, 0},
		{[]uint64{nzero, nzero}, nzero},
	})
	check(t, opSpec{"min.NaN.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{nan32, one}, 0x7fffffff},
		{[]uint64{one, f32b(2)}, one},
	})
	check(t, opSpec{"max.f64 %d, %a, %b", "f64", "", []string{"f64", "f64"}}, []row{
		{[]uint64{nan64, f64b(-3)}, f64b(-3)},
		{[]uint64{f64b(-3), f64b(2)}, f64b(2)},
	})
	check(t, opSpec{"min.ftz.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(-0x1p-130), 0}, nzero},
	})
}

// PTX ISA 9.7.3.13, 9.7.3.15 rcp and sqrt with IEEE rounding.
func TestFloatRcpSqrt(t *testing.T) {
	check(t, opSpec{"rcp.rn.f32 %d, %a", "f32", "", []string{"f32"}}, []row{
		{[]uint64{f32b(3)}, f32b(float32(1) / 3)}, {[]uint64{nzero}, ninf32},
	})
	// 1.0/3 rounded to nearest lies below 1/3: .rz keeps it, .rp steps up.
	check(t, opSpec{"rcp.rz.f64 %d, %a", "f64", "", []string{"f64"}}, []row{
		{[]uint64{f64b(3)}, f64b(1.0 / 3)},
	})
	check(t, opSpec{"rcp.rp.f64 %d, %a", "f64", "", []string{"f64"}}, []row{
		{[]uint64{f64b(3)}, f64b(math.Nextafter(1.0/3, 1))},
	})
	sqrt2 := float32(math.Sqrt2) // 0x3fb504f3, below sqrt(2)
	for _, c := range []struct {
		rnd  string
		want uint64
	}{{"rn", f32b(sqrt2)}, {"rz", f32b(sqrt2)}, {"rm", f32b(sqrt2)}, {"rp", next32(sqrt2, 1)}} {
		check(t, opSpec{"sqrt." + c.rnd + ".f32 %d, %a", "f32", "", []string{"f32"}}, []row{
			{[]uint64{f32b(2)}, c.want},
			{[]uint64{f32b(4)}, f32b(2)},
			{[]uint64{nzero}, nzero},
			{[]uint64{f32b(-1)}, nan32},
		})
	}
	check(t, opSpec{"sqrt.rn.f64 %d, %a", "f64", "", []string{"f64"}}, []row{
		{[]uint64{f64b(2)}, f64b(math.Sqrt2)},
	})
	// math.Sqrt2 as a float64 lies above sqrt(2): .rp keeps it, .rm steps down.
	check(t, opSpec{"sqrt.rp.f64 %d, %a", "f64", "", []string{"f64"}}, []row{
		{[]uint64{f64b(2)}, f64b(math.Sqrt2)},
	})
	check(t, opSpec{"sqrt.rm.f64 %d, %a", "f64", "", []string{"f64"}}, []row{
		{[]uint64{f64b(2)}, f64b(math.Nextafter(math.Sqrt2, 0))},
	})
}

// The .approx instructions against the error bounds and special values
// of PTX ISA 9.7.3.13 - 9.7.3.22.
func TestFloatApprox(t *testing.T) {
	grid := func(lo, hi float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = lo + (hi-lo)*float64(i)/float64(n)
		}
		return out
	}
	bounds := []struct {
		instr string
		fn    func(float64) float64
		xs    []float64
		abs   float64 // absolute bound, or
		rel   float64 // relative bound
	}{
		// rcp: 2^-23 absolute over 1.0-2.0 (9.7.3.13).
		{"rcp.approx.f32", func(x float64) float64 { return 1 / x }, grid(1, 2, 300), 0x1p-23, 0},
		// rsqrt: 2^-22.4 absolute over 1.0-4.0 (9.7.3.16).
		{"rsqrt.approx.f32", func(x float64) float64 { return 1 / math.Sqrt(x) }, grid(1, 4, 300), math.Exp2(-22.4), 0},
		// sin, cos: 2^-20.9 absolute (9.7.3.18, 9.7.3.19).
		{"sin.approx.f32", math.Sin, grid(-math.Pi, math.Pi, 300), math.Exp2(-20.9), 0},
		{"cos.approx.ftz.f32", math.Cos, grid(-math.Pi, math.Pi, 300), math.Exp2(-20.9), 0},
		// lg2: 2^-22.6 absolute for the mantissa (9.7.3.20).
		{"lg2.approx.f32", math.Log2, grid(1, 2, 300), math.Exp2(-22.6), 0},
		// ex2: 2^-22.5 absolute for the fraction in the primary range (9.7.3.21).
		{"ex2.approx.ftz.f32", math.Exp2, grid(-1, 1, 300), math.Exp2(-22.5), 0},
		// tanh (9.7.3.22) states no bound in ISA 7.6; later versions give
		// a relative error of about 2^-11.
		{"tanh.approx.f32", math.Tanh, grid(-8, 8, 300), 0, math.Exp2(-11)},
		// sqrt.approx (9.7.3.15) states no bound; 1 ulp relative.
		{"sqrt.approx.f32", math.Sqrt, grid(0.01, 100, 300), 0, 0x1p-23},
	}
	for _, c := range bounds {
		s := opSpec{c.instr + " %d, %a", "f32", "", []string{"f32"}}
		rows := make([][]uint64, len(c.xs))
		for i, x := range c.xs {
			rows[i] = []uint64{f32b(float32(x))}
		}
		got, err := s.run(rows)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range c.xs {
			xf := float64(float32(x))
			g, w := float64(math.Float32frombits(uint32(got[i]))), c.fn(xf)
			if e := math.Abs(g - w); c.abs > 0 && e > c.abs || c.rel > 0 && e > c.rel*math.Abs(w) {
				t.Errorf("%s(%v) got:%v want:%v (error %g, bound abs %g rel %g)", c.instr, xf, g, w, e, c.abs, c.rel)
			}
		}
	}
	// The special values of the ISA's tables.
	sub := f32b(0x1p-130)
	nsub := f32b(-0x1p-130)
	specials := []struct {
		instr string
		rows  []row
	}{
		{"rcp.approx.f32", []row{{[]uint64{ninf32}, nzero}, {[]uint64{nsub}, ninf32}, {[]uint64{nzero}, ninf32}, {[]uint64{0}, inf32}, {[]uint64{sub}, inf32}, {[]uint64{inf32}, 0}}},
		{"sqrt.approx.f32", []row{{[]uint64{ninf32}, nan32}, {[]uint64{f32b(-4)}, nan32}, {[]uint64{nsub}, nzero}, {[]uint64{nzero}, nzero}, {[]uint64{sub}, 0}, {[]uint64{inf32}, inf32}}},
		{"rsqrt.approx.f32", []row{{[]uint64{ninf32}, nan32}, {[]uint64{f32b(-4)}, nan32}, {[]uint64{nsub}, ninf32}, {[]uint64{nzero}, ninf32}, {[]uint64{0}, inf32}, {[]uint64{sub}, inf32}, {[]uint64{inf32}, 0}}},
		{"sin.approx.f32", []row{{[]uint64{ninf32}, nan32}, {[]uint64{nsub}, nzero}, {[]uint64{nzero}, nzero}, {[]uint64{sub}, 0}, {[]uint64{inf32}, nan32}}},
		{"cos.approx.f32", []row{{[]uint64{ninf32}, nan32}, {[]uint64{nsub}, f32b(1)}, {[]uint64{nzero}, f32b(1)}, {[]uint64{sub}, f32b(1)}, {[]uint64{inf32}, nan32}}},
		{"lg2.approx.f32", []row{{[]uint64{ninf32}, nan32}, {[]uint64{nsub}, ninf32}, {[]uint64{nzero}, ninf32}, {[]uint64{0}, ninf32}, {[]uint64{sub}, ninf32}, {[]uint64{inf32}, inf32}}},
		{"ex2.approx.f32", []row{{[]uint64{ninf32}, 0}, {[]uint64{nsub}, f32b(1)}, {[]uint64{nzero}, f32b(1)}, {[]uint64{sub}, f32b(1)}, {[]uint64{inf32}, inf32}}},
		{"tanh.approx.f32", []row{{[]uint64{ninf32}, f32b(-1)}, {[]uint64{nsub}, nsub}, {[]uint64{nzero}, nzero}, {[]uint64{sub}, sub}, {[]uint64{inf32}, f32b(1)}}},
		{"ex2.approx.ftz.f32", []row{{[]uint64{f32b(-130)}, 0}}}, // a subnormal result flushed
		{"ex2.approx.f32", []row{{[]uint64{f32b(-130)}, f32b(0x1p-130)}}},
	}
	for _, c := range specials {
		check(t, opSpec{c.instr + " %d, %a", "f32", "", []string{"f32"}}, c.rows)
	}
	for _, instr := range []string{"rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64"} {
		// The .f64 approximations use the upper 32 bits of the operand
		// and clear the lower 32 bits of the result (9.7.3.14, 9.7.3.17).
		got, err := opSpec{instr + " %d, %a", "f64", "", []string{"f64"}}.run([][]uint64{{f64b(4)}, {nan64}})
		if err != nil {
			t.Fatal(err)
		}
		want := 0.25
		if instr[0] == 'r' && instr[1] == 's' {
			want = 0.5
		}
		if math.Float64frombits(got[0]) != want || got[1] != 0x7fffffff00000000 {
			t.Errorf("%s got %#x %#x", instr, got[0], got[1])
		}
	}
}

// PTX ISA 9.7.3.1 testp and 9.7.3.2 copysign.
func TestFloatTestpCopysign(t *testing.T) {
	vals := []uint64{0, nzero, f32b(1), f32b(0x1p-130), inf32, ninf32, nan32}
	want := map[string][]uint64{
		"finite":     {1, 1, 1, 1, 0, 0, 0},
		"infinite":   {0, 0, 0, 0, 1, 1, 0},
		"number":     {1, 1, 1, 1, 1, 1, 0},
		"notanumber": {0, 0, 0, 0, 0, 0, 1},
		"normal":     {1, 1, 1, 0, 0, 0, 0},
		"subnormal":  {0, 0, 0, 1, 0, 0, 0},
	}
	for op, w := range want {
		var rows []row
		for i, v := range vals {
			rows = append(rows, row{[]uint64{v}, w[i]})
		}
		check(t, opSpec{fmt.Sprintf("testp.%s.f32 %%d, %%a", op), "pred", "", []string{"f32"}}, rows)
	}
	check(t, opSpec{"copysign.f32 %d, %a, %b", "f32", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(-1), f32b(2)}, f32b(-2)},
		{[]uint64{f32b(1), f32b(-2)}, f32b(2)},
	})
}
