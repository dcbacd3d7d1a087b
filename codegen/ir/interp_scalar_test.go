package ir

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// exactFMA32 rounds a*b+c computed exactly to float32.
func exactFMA32(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(300).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetPrec(300).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetPrec(300).SetFloat64(float64(c)))
	f, _ := x.Float32()
	if f == 0 && (a*b < 0 || (a*b == 0 && c < 0)) { // keep the sign of an exact zero result
		return float32(math.Copysign(0, float64(math.FMA(float64(a), float64(b), float64(c)))))
	}
	return f
}

func TestFMA32IsCorrectlyRounded(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	check := func(a, b, c float32) {
		got, want := fma32(a, b, c), exactFMA32(a, b, c)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("fma32(%g, %g, %g) got:%g want:%g", a, b, c, got, want)
		}
	}
	for range n {
		a := math.Float32frombits(r.Uint32())
		b := math.Float32frombits(r.Uint32())
		if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) || math.IsInf(float64(a*b), 0) {
			continue
		}
		// c near -a*b makes cancellation and midpoint cases frequent.
		p := float64(a) * float64(b)
		c := float32(-p) * (1 + float32(r.IntN(5)-2)*0x1p-24)
		check(a, b, c)
		check(a, b, math.Float32frombits(r.Uint32()&0x7f7fffff))
	}
	// A classic double-rounding case: p + c lies just above a float32
	// midpoint by less than a float64 ulp.
	check(1+0x1p-23, 1+0x1p-23, 0x1p-60)
	check(1, 1+0x1p-23, 0x1p-24+0x1p-70)
}

func TestCvtRounding(t *testing.T) {
	for _, tc := range []struct {
		from, to Type
		rnd      Rounding
		in       uint64
		want     uint64
	}{
		{F32, S32, RndDefault, bf32(-2.7), uint64(uint32(0xfffffffe))},
		{F32, S32, RndRN, bf32(2.5), 2},
		{F32, S32, RndRN, bf32(3.5), 4},
		{F32, S32, RndRM, bf32(-2.5), uint64(uint32(0xfffffffd))},
		{F32, S32, RndRP, bf32(2.1), 3},
		{F32, S32, RndDefault, bf32(float32(math.NaN())), 0},
		{F32, S32, RndDefault, bf32(3e9), 0x7fffffff},
		{F32, S32, RndDefault, bf32(-3e9), 0x80000000},
		{F32, S32, RndRP, bf32(2147483520), 2147483520},
		{F64, S32, RndRP, bf64(2147483647.5), 0x7fffffff},
		{F32, U32, RndDefault, bf32(-1), 0},
		{F64, U8, RndDefault, bf64(300), 255},
		{F64, S64, RndDefault, bf64(1e19), math.MaxInt64},
		{S32, F32, RndDefault, 16777217, bf32(16777216)},
		{S32, F32, RndRP, 16777217, bf32(16777218)},
		{S32, F32, RndRZ, uint64(uint32(0xfeffffff)), bf32(-16777216)}, // -16777217 toward zero
		{S32, F32, RndRM, uint64(uint32(0xfeffffff)), bf32(-16777218)},
		{U64, F64, RndRZ, math.MaxUint64, bf64(0x1p64 - 0x1p11)},
		{U64, F64, RndDefault, math.MaxUint64, bf64(0x1p64)},
		{S64, F32, RndRZ, math.MaxInt64, bf32(0x1p63 - 0x1p39)},
		{F64, F32, RndDefault, bf64(1 + 0x1p-24), bf32(1)},
		{F64, F32, RndRP, bf64(1 + 0x1p-30), bf32(1 + 0x1p-23)},
		{F64, F32, RndRZ, bf64(1e300), bf32(math.MaxFloat32)},
		{F64, F32, RndRM, bf64(-1e-60), bf32(-math.SmallestNonzeroFloat32)},
		{F64, F32, RndRZ, bf64(-1e-60), bf32(float32(math.Copysign(0, -1)))},
		{F32, F64, RndDefault, bf32(0.1), bf64(float64(float32(0.1)))},
		{S8, S32, RndDefault, 0xff, 0xffffffff},
		{U8, S32, RndDefault, 0xff, 0xff},
		{S64, U16, RndDefault, 0x12345, 0x2345},
		{B32, S64, RndDefault, 0xffffffff, 0xffffffff},
	} {
		got := cvtFunc(tc.from, tc.to, tc.rnd)(tc.in)
		if got != tc.want {
			t.Errorf("cvt.%s.%s.%s(%#x) got:%#x want:%#x", tc.rnd, tc.to, tc.from, tc.in, got, tc.want)
		}
	}
}

func TestIntSemantics(t *testing.T) {
	neg := func(x int64, w int) uint64 { return uint64(x) & maskOf(w) }
	for _, tc := range []struct {
		op     Op
		t      Type
		a, b   uint64
		want   uint64
		detail string
	}{
		{OpAdd, S32, 0x7fffffff, 1, 0x80000000, "wraps"},
		{OpDiv, S32, neg(-7, 32), 2, neg(-3, 32), "truncates"},
		{OpRem, S32, neg(-7, 32), 2, neg(-1, 32), "sign of dividend"},
		{OpDiv, S32, 0x80000000, neg(-1, 32), 0x80000000, "overflow"},
		{OpRem, S32, 0x80000000, neg(-1, 32), 0, "overflow"},
		{OpDiv, U32, 5, 0, 0xffffffff, "by zero"},
		{OpRem, U32, 5, 0, 5, "by zero"},
		{OpShl, U32, 1, 31, 0x80000000, ""},
		{OpShl, U32, 1, 32, 0, "clamped"},
		{OpShr, S32, 0x80000000, 40, 0xffffffff, "clamped arithmetic"},
		{OpShr, U64, 1 << 63, 63, 1, ""},
		{OpMin, S32, neg(-1, 32), 1, neg(-1, 32), "signed"},
		{OpMin, U32, neg(-1, 32), 1, 1, "unsigned"},
		{OpMax, S64, neg(-5, 64), neg(-3, 64), neg(-3, 64), ""},
		{OpMulHi, U32, 0xffffffff, 0xffffffff, 0xfffffffe, ""},
		{OpMulHi, S32, neg(-2, 32), 0x40000000, neg(-1, 32), ""},
		{OpMulHi, U64, math.MaxUint64, 2, 1, ""},
		{OpMulHi, S64, neg(-1, 64), neg(-1, 64), 0, ""},
		{OpMulHi, S64, neg(-4, 64), 1 << 62, neg(-1, 64), ""},
		{OpMulWide, S32, neg(-3, 32), 5, neg(-15, 64), ""},
		{OpMulWide, U32, 0xffffffff, 2, 0x1fffffffe, ""},
		{OpAnd, Pred, 1, 0, 0, ""},
	} {
		got := intBinary(tc.op, tc.t.Bits(), tc.t.IsSigned())(tc.a, tc.b)
		if got != tc.want {
			t.Errorf("%s.%s(%#x, %#x) %s: got:%#x want:%#x", tc.op, tc.t, tc.a, tc.b, tc.detail, got, tc.want)
		}
	}
	for _, tc := range []struct {
		op   Op
		t    Type
		a    uint64
		want uint64
	}{
		{OpNeg, S32, 1, 0xffffffff},
		{OpAbs, S32, 0x80000000, 0x80000000},
		{OpAbs, S64, neg(-9, 64), 9},
		{OpNot, Pred, 1, 0},
		{OpNot, B16, 0x00ff, 0xff00},
		{OpPopc, B64, math.MaxUint64, 64},
		{OpClz, U32, 1, 31},
		{OpClz, U32, 0, 32},
		{OpClz, S64, 1 << 40, 23},
	} {
		if got := intUnary(tc.op, tc.t.Bits(), tc.t.IsSigned())(tc.a); got != tc.want {
			t.Errorf("%s.%s(%#x) got:%#x want:%#x", tc.op, tc.t, tc.a, got, tc.want)
		}
	}
}

func TestFloatSemantics(t *testing.T) {
	nan := math.NaN()
	negz := math.Copysign(0, -1)
	for _, tc := range []struct {
		op             Op
		a, b           float64
		want32, want64 float64 // on f32 (a and b rounded to it) and on f64
	}{
		{OpMin, nan, 2, 2, 2},
		{OpMax, 3, nan, 3, 3},
		{OpMin, 0, negz, negz, negz},
		{OpMax, negz, 0, 0, 0},
		{OpDiv, 1, 3, float64(float32(1) / float32(3)), 1.0 / 3},
		{OpMul, 0.1, 0.2, float64(float32(0.1) * float32(0.2)), 0.020000000000000004},
		{OpAdd, 0.1, 0.2, float64(float32(0.1) + float32(0.2)), 0.30000000000000004},
		{OpSub, 1, 0x1p-30, float64(float32(1) - float32(0x1p-30)), 1 - 0x1p-30},
	} {
		got32 := f32(floatBinary(tc.op, F32)(bf32(float32(tc.a)), bf32(float32(tc.b))))
		if math.Float32bits(got32) != math.Float32bits(float32(tc.want32)) {
			t.Errorf("%s.f32(%v, %v) got:%v want:%v", tc.op, tc.a, tc.b, got32, tc.want32)
		}
		got64 := f64(floatBinary(tc.op, F64)(bf64(tc.a), bf64(tc.b)))
		if math.Float64bits(got64) != math.Float64bits(tc.want64) {
			t.Errorf("%s.f64(%v, %v) got:%v want:%v", tc.op, tc.a, tc.b, got64, tc.want64)
		}
	}
	for _, tc := range []struct {
		c    CmpPred
		a, b float64
		want uint64
	}{
		{CmpNE, nan, 1, 0},
		{CmpNEU, nan, 1, 1},
		{CmpLT, nan, 1, 0},
		{CmpGEU, nan, 1, 1},
		{CmpNUM, 1, 2, 1},
		{CmpNAN, 1, nan, 1},
		{CmpLE, 2, 2, 1},
		{CmpGTU, 1, 2, 0},
	} {
		if got := cmpFunc(tc.c, F64)(bf64(tc.a), bf64(tc.b)); got != tc.want {
			t.Errorf("cmp.%s(%v, %v) got:%v want:%v", tc.c, tc.a, tc.b, got, tc.want)
		}
	}
	require.Equal(t, bf32(float32(math.Copysign(1, -1))), floatUnary(OpNeg, F32)(bf32(1)))
	require.Equal(t, bf64(2), floatUnary(OpAbs, F64)(bf64(-2)))
}

// TestRunMathAndConvert runs math calls and conversions through a kernel.
func TestRunMathAndConvert(t *testing.T) {
	f := NewFunc("mathcvt")
	x := f.AddParam("x", gptrF32)
	out := f.AddParam("out", gptrF32)
	iout := f.AddParam("iout", gptrS32)
	b := NewBuilder(f)
	tid := b.TidX()
	v := b.Load(b.Index(x, tid))
	o := b.Mul(tid, b.U32(4))
	b.Store(b.Index(out, o), b.Math(MathExp, v))
	b.Store(b.Index(out, b.Add(o, b.U32(1))), b.Math(MathAtan2, v, b.F32(2)))
	d := b.Cvt(v, F64)
	b.Store(b.Index(out, b.Add(o, b.U32(2))), b.Cvt(b.Math(MathSigmoid, d), F32))
	b.Store(b.Index(out, b.Add(o, b.U32(3))), b.MathApprox(MathRoundEven, v))
	b.Store(b.Index(iout, tid), b.CvtRnd(v, S32, RndRM))
	b.Ret()
	xs := []float32{-2.5, -0.5, 0, 0.5, 1.5, 2.5, 10}
	mo, mi := NewMem(16*len(xs)), NewMem(4*len(xs))
	require.NoError(t, Run(f, launch(1, len(xs)), MemOf(xs), mo, mi))
	got, gi := View[float32](mo), View[int32](mi)
	for i, xv := range xs {
		x64 := float64(xv)
		want := []float32{float32(math.Exp(x64)), float32(math.Atan2(x64, 2)),
			float32(1 / (1 + math.Exp(-x64))), float32(math.RoundToEven(x64))}
		require.Equal(t, want, got[4*i:4*i+4], "x=%v", xv)
		require.Equal(t, int32(math.Floor(x64)), gi[i], "floor of %v", xv)
	}
}

func TestBindArgRanges(t *testing.T) {
	for _, tc := range []struct {
		t    Type
		arg  any
		want uint64
		err  string
	}{
		{S32, -1, 0xffffffff, ""},
		{S32, int64(math.MaxInt32) + 1, 0, "does not fit s32"},
		{U32, -1, 0, "does not fit u32"},
		{U8, uint8(255), 255, ""},
		{S64, uint64(math.MaxUint64), 0, "does not fit s64"},
		{U64, uint64(math.MaxUint64), math.MaxUint64, ""},
		{F32, 0.1, bf32(0.1), ""},
		{F64, float32(0.5), bf64(0.5), ""},
		{S32, "x", 0, "want a Go integer, got string"},
	} {
		got, _, err := bindArg(&Param{Name: "p", Type: tc.t}, tc.arg)
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, "%s %v", tc.t, tc.arg)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%s %v", tc.t, tc.arg)
	}
}
