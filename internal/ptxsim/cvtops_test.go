// Table tests of cvt (PTX ISA 9.7.8.18; the NaN rule of float-to-integer
// conversions from the Integer Notes of PTX ISA 9.1, 9.7.9.21).

package ptxsim_test

import (
	"fmt"
	"math"
	"testing"
)

// Float to integer: .rni, .rzi, .rmi, .rpi round; the result saturates to
// the destination's range; NaN gives 0 unless the source is .f64 or the
// destination 64-bit, when it gives 1 << (width-1).
func TestCvtFloatToInt(t *testing.T) {
	vals := []float32{2.5, -2.5, 0.5, -0.5, 1.7, -1.7}
	want := map[string][]int32{
		"rni": {2, -2, 0, 0, 2, -2},
		"rzi": {2, -2, 0, 0, 1, -1},
		"rmi": {2, -3, 0, -1, 1, -2},
		"rpi": {3, -2, 1, 0, 2, -1},
	}
	for rnd, w := range want {
		var rows []row
		for i, v := range vals {
			rows = append(rows, row{[]uint64{f32b(v)}, s32b(w[i])})
		}
		check(t, opSpec{fmt.Sprintf("cvt.%s.s32.f32 %%d, %%a", rnd), "s32", "", []string{"f32"}}, rows)
	}
	check(t, opSpec{"cvt.rzi.s32.f32 %d, %a", "s32", "", []string{"f32"}}, []row{
		{[]uint64{f32b(3e9)}, s32b(math.MaxInt32)},
		{[]uint64{f32b(-3e9)}, s32b(math.MinInt32)},
		{[]uint64{inf32}, s32b(math.MaxInt32)},
		{[]uint64{ninf32}, s32b(math.MinInt32)},
		{[]uint64{nan32}, 0}, // f32 to 32-bit: 0
	})
	check(t, opSpec{"cvt.rzi.u32.f32 %d, %a", "u32", "", []string{"f32"}}, []row{
		{[]uint64{f32b(-5)}, 0}, {[]uint64{f32b(5e9)}, 0xffffffff}, {[]uint64{nan32}, 0},
	})
	check(t, opSpec{"cvt.rzi.s32.f64 %d, %a", "s32", "", []string{"f64"}}, []row{
		{[]uint64{nan64}, s32b(math.MinInt32)}, // .f64 source: 1 << 31
		{[]uint64{f64b(-2147483648.9)}, s32b(math.MinInt32)},
		{[]uint64{f64b(2147483647.9)}, s32b(math.MaxInt32)},
	})
	check(t, opSpec{"cvt.rzi.s64.f32 %d, %a", "s64", "", []string{"f32"}}, []row{
		{[]uint64{nan32}, s64b(math.MinInt64)}, // 64-bit destination: 1 << 63
		{[]uint64{f32b(1e19)}, s64b(math.MaxInt64)},
	})
	check(t, opSpec{"cvt.rzi.u64.f64 %d, %a", "u64", "", []string{"f64"}}, []row{
		{[]uint64{nan64}, 1 << 63}, {[]uint64{f64b(2e19)}, math.MaxUint64}, {[]uint64{f64b(-1)}, 0},
	})
	check(t, opSpec{"cvt.rni.s16.f32 %d, %a", "s16", "", []string{"f32"}}, []row{
		{[]uint64{f32b(40000)}, s16b(32767)}, {[]uint64{f32b(-40000)}, s16b(-32768)}, {[]uint64{nan32}, 0},
	})
	check(t, opSpec{"cvt.rni.u16.f64 %d, %a", "u16", "", []string{"f64"}}, []row{
		{[]uint64{nan64}, 0x8000}, {[]uint64{f64b(70000)}, 0xffff},
	})
	// An 8-bit result in a 16-bit register is sign- or zero-extended.
	check(t, opSpec{"cvt.rzi.s8.f32 %d, %a", "s16", "", []string{"f32"}}, []row{
		{[]uint64{f32b(-200)}, s16b(-128)}, {[]uint64{f32b(-5)}, s16b(-5)}, {[]uint64{f32b(300)}, 127},
	})
	check(t, opSpec{"cvt.rzi.u8.f32 %d, %a", "u16", "", []string{"f32"}}, []row{
		{[]uint64{f32b(300)}, 255}, {[]uint64{f32b(-3)}, 0},
	})
	// .ftz flushes a subnormal input before rounding.
	check(t, opSpec{"cvt.rpi.ftz.s32.f32 %d, %a", "s32", "", []string{"f32"}}, []row{{[]uint64{f32b(0x1p-130)}, 0}})
	check(t, opSpec{"cvt.rpi.s32.f32 %d, %a", "s32", "", []string{"f32"}}, []row{{[]uint64{f32b(0x1p-130)}, 1}})
}

// Integer to float: .rn, .rz, .rm, .rp round the integer once.
func TestCvtIntToFloat(t *testing.T) {
	big := int32(1<<24 + 1) // between two floats: a tie
	big3 := int32(1<<24 + 3)
	for _, c := range []struct {
		rnd       string
		big, big3 float32
		neg       float32
		u64max    float32
	}{
		{"rn", 1 << 24, 1<<24 + 4, -(1 << 24), 0x1p64},
		{"rz", 1 << 24, 1<<24 + 2, -(1 << 24), 0x1p64 - 0x1p40},
		{"rm", 1 << 24, 1<<24 + 2, -(1<<24 + 2), 0x1p64 - 0x1p40},
		{"rp", 1<<24 + 2, 1<<24 + 4, -(1 << 24), 0x1p64},
	} {
		check(t, opSpec{"cvt." + c.rnd + ".f32.s32 %d, %a", "f32", "", []string{"s32"}}, []row{
			{[]uint64{s32b(big)}, f32b(c.big)},
			{[]uint64{s32b(big3)}, f32b(c.big3)},
			{[]uint64{s32b(-big)}, f32b(c.neg)},
		})
		check(t, opSpec{"cvt." + c.rnd + ".f32.u64 %d, %a", "f32", "", []string{"u64"}}, []row{
			{[]uint64{math.MaxUint64}, f32b(c.u64max)},
		})
	}
	check(t, opSpec{"cvt.rn.f64.s64 %d, %a", "f64", "", []string{"s64"}}, []row{
		{[]uint64{s64b(1<<53 + 1)}, f64b(1 << 53)},
		{[]uint64{s64b(math.MinInt64)}, f64b(-0x1p63)},
	})
	check(t, opSpec{"cvt.rp.f64.s64 %d, %a", "f64", "", []string{"s64"}}, []row{
		{[]uint64{s64b(1<<53 + 1)}, f64b(1<<53 + 2)},
	})
	check(t, opSpec{"cvt.rn.f64.u8 %d, %a", "f64", "", []string{"u16"}}, []row{
		{[]uint64{0x1ff}, f64b(255)}, // the low 8 bits of a wider register
	})
	check(t, opSpec{"cvt.rn.f32.s8 %d, %a", "f32", "", []string{"s16"}}, []row{
		{[]uint64{0xff}, f32b(-1)},
	})
}

// Float to float: narrowing rounds by the mode (overflowing to infinity or
// the largest finite value), widening is exact, same-size conversions with
// an integer rounding mode round to integral values.
func TestCvtFloatToFloat(t *testing.T) {
	x := 1 + 0x1p-24 + 0x1p-30 // just above half an f32 ulp of 1
	for _, c := range []struct {
		rnd       string
		x, ovf, n float32
	}{
		{"rn", 1 + 0x1p-23, float32(math.Inf(1)), -(1 + 0x1p-23)},
		{"rz", 1, math.MaxFloat32, -1},
		{"rm", 1, math.MaxFloat32, -(1 + 0x1p-23)},
		{"rp", 1 + 0x1p-23, float32(math.Inf(1)), -1},
	} {
		check(t, opSpec{"cvt." + c.rnd + ".f32.f64 %d, %a", "f32", "", []string{"f64"}}, []row{
			{[]uint64{f64b(x)}, f32b(c.x)},
			{[]uint64{f64b(1e39)}, f32b(c.ovf)},
			{[]uint64{f64b(-x)}, f32b(c.n)},
			{[]uint64{nan64}, nan32},
		})
	}
	check(t, opSpec{"cvt.rn.ftz.f32.f64 %d, %a", "f32", "", []string{"f64"}}, []row{{[]uint64{f64b(0x1p-140)}, 0}})
	check(t, opSpec{"cvt.rn.f32.f64 %d, %a", "f32", "", []string{"f64"}}, []row{{[]uint64{f64b(0x1p-140)}, f32b(0x1p-140)}})
	check(t, opSpec{"cvt.f64.f32 %d, %a", "f64", "", []string{"f32"}}, []row{
		{[]uint64{f32b(0.1)}, f64b(float64(float32(0.1)))}, {[]uint64{f32b(0x1p-140)}, f64b(0x1p-140)}, {[]uint64{nzero}, f64b(math.Copysign(0, -1))},
	})
	check(t, opSpec{"cvt.ftz.f64.f32 %d, %a", "f64", "", []string{"f32"}}, []row{{[]uint64{f32b(-0x1p-140)}, f64b(math.Copysign(0, -1))}})
	for _, c := range []struct {
		rnd  string
		want []float32 // of 2.5, -2.5, -0.3, 1e20
	}{
		{"rni", []float32{2, -2, float32(math.Copysign(0, -1)), 1e20}},
		{"rzi", []float32{2, -2, float32(math.Copysign(0, -1)), 1e20}},
		{"rmi", []float32{2, -3, -1, 1e20}},
		{"rpi", []float32{3, -2, float32(math.Copysign(0, -1)), 1e20}},
	} {
		var rows []row
		for i, v := range []float32{2.5, -2.5, -0.3, 1e20} {
			rows = append(rows, row{[]uint64{f32b(v)}, f32b(c.want[i])})
		}
		check(t, opSpec{"cvt." + c.rnd + ".f32.f32 %d, %a", "f32", "", []string{"f32"}}, rows)
	}
	check(t, opSpec{"cvt.rni.f64.f64 %d, %a", "f64", "", []string{"f64"}}, []row{{[]uint64{f64b(0.5)}, 0}, {[]uint64{f64b(1.5)}, f64b(2)}})
	check(t, opSpec{"cvt.sat.f32.f32 %d, %a", "f32", "", []string{"f32"}}, []row{{[]uint64{f32b(1.5)}, f32b(1)}, {[]uint64{nan32}, 0}, {[]uint64{f32b(0.5)}, f32b(0.5)}})
}

// Integer to integer: extension by the source's signedness, truncation,
// and with .sat clamping to the destination's range.
func TestCvtIntToInt(t *testing.T) {
	check(t, opSpec{"cvt.s64.s32 %d, %a", "s64", "", []string{"s32"}}, []row{{[]uint64{s32b(-2)}, s64b(-2)}})
	check(t, opSpec{"cvt.u64.u32 %d, %a", "u64", "", []string{"u32"}}, []row{{[]uint64{0xfffffffe}, 0xfffffffe}})
	check(t, opSpec{"cvt.u64.s32 %d, %a", "u64", "", []string{"s32"}}, []row{{[]uint64{s32b(-2)}, math.MaxUint64 - 1}})
	check(t, opSpec{"cvt.s64.u32 %d, %a", "s64", "", []string{"u32"}}, []row{{[]uint64{0xfffffffe}, 0xfffffffe}})
	check(t, opSpec{"cvt.u32.u64 %d, %a", "u32", "", []string{"u64"}}, []row{{[]uint64{0x123456789}, 0x23456789}})
	check(t, opSpec{"cvt.s16.s32 %d, %a", "s16", "", []string{"s32"}}, []row{{[]uint64{0x18000}, s16b(-32768)}})
	check(t, opSpec{"cvt.sat.s16.s32 %d, %a", "s16", "", []string{"s32"}}, []row{{[]uint64{0x18000}, s16b(32767)}, {[]uint64{s32b(-70000)}, s16b(-32768)}})
	check(t, opSpec{"cvt.sat.u32.s32 %d, %a", "u32", "", []string{"s32"}}, []row{{[]uint64{s32b(-5)}, 0}, {[]uint64{7}, 7}})
	check(t, opSpec{"cvt.sat.s32.u32 %d, %a", "s32", "", []string{"u32"}}, []row{{[]uint64{0xffffffff}, s32b(math.MaxInt32)}})
	// 8-bit values in 16-bit registers: the destination is extended by its
	// own signedness.
	check(t, opSpec{"cvt.s16.s8 %d, %a", "s16", "", []string{"s16"}}, []row{{[]uint64{0x00ff}, s16b(-1)}})
	check(t, opSpec{"cvt.u16.u8 %d, %a", "u16", "", []string{"u16"}}, []row{{[]uint64{0xffff}, 0xff}})
	check(t, opSpec{"cvt.u8.u32 %d, %a", "u16", "", []string{"u32"}}, []row{{[]uint64{0x1ff}, 0xff}})
	check(t, opSpec{"cvt.s8.s32 %d, %a", "s16", "", []string{"s32"}}, []row{{[]uint64{0x80}, s16b(-128)}})
}
