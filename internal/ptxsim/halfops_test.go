// Table tests of the half-precision instructions (PTX ISA 9.7.4): add,
// sub, mul and fma.rn on .f16 and .bf16, and setp on them.

package ptxsim_test

import (
	"strings"
	"testing"
)

func TestHalfArith(t *testing.T) {
	b16x2 := []string{"b16", "b16"}
	check(t, opSpec{"add.rn.f16 %d, %a, %b", "b16", "", b16x2}, []row{
		{[]uint64{0x3c00, 0x4000}, 0x4200}, // 1 + 2
		{[]uint64{0x3c00, 0x1000}, 0x3c00}, // 1 + 2^-11: tie, to even
		{[]uint64{0x3c01, 0x1000}, 0x3c02}, // tie, to even (up)
		{[]uint64{0x3c00, 0x1001}, 0x3c01}, // above the tie
		{[]uint64{0x0000, 0x8000}, 0x0000}, // +0 + -0
		{[]uint64{0x8000, 0x8000}, 0x8000}, // -0 + -0
		{[]uint64{0x3c00, 0xbc00}, 0x0000}, // x - x is +0
		{[]uint64{0x0001, 0x0001}, 0x0002}, // subnormals kept (no .ftz)
		{[]uint64{0x7bff, 0x7bff}, 0x7c00}, // overflow
		{[]uint64{0x7c00, 0xfc00}, 0x7fff}, // Inf - Inf: the canonical NaN
		{[]uint64{0xfe12, 0x3c00}, 0x7fff}, // a NaN operand: the canonical NaN
		{[]uint64{0xfc00, 0x7bff}, 0xfc00},
	})
	check(t, opSpec{"add.f16 %d, %a, %b", "b16", "", b16x2}, []row{ // .rn is the default
		{[]uint64{0x3c01, 0x1000}, 0x3c02},
	})
	check(t, opSpec{"sub.rn.f16 %d, %a, %b", "b16", "", b16x2}, []row{
		{[]uint64{0x3c00, 0x3c00}, 0x0000},
		{[]uint64{0x8000, 0x0000}, 0x8000}, // -0 - +0
		{[]uint64{0x8000, 0x8000}, 0x0000}, // -0 - -0
		{[]uint64{0x0400, 0x0001}, 0x03ff},
		{[]uint64{0xfbff, 0x7bff}, 0xfc00},
	})
	check(t, opSpec{"mul.rn.f16 %d, %a, %b", "b16", "", b16x2}, []row{
		{[]uint64{0x4000, 0x4200}, 0x4600}, // 2 * 3
		{[]uint64{0x0001, 0x3800}, 0x0000}, // 2^-25: tie, to even zero
		{[]uint64{0x0003, 0x3800}, 0x0002}, // 1.5 * 2^-24: tie, to even
		{[]uint64{0xbc00, 0x0000}, 0x8000}, // -1 * +0
		{[]uint64{0x7bff, 0x4000}, 0x7c00},
		{[]uint64{0x7c00, 0x0000}, 0x7fff}, // Inf * 0
	})
	check(t, opSpec{"add.rn.bf16 %d, %a, %b", "b16", "", b16x2}, []row{
		{[]uint64{0x3f80, 0x3b80}, 0x3f80}, // 1 + 2^-8: tie, to even
		{[]uint64{0x3f81, 0x3b80}, 0x3f82},
		{[]uint64{0x0001, 0x0001}, 0x0002},
		{[]uint64{0x7f7f, 0x7f7f}, 0x7f80},
		{[]uint64{0x8000, 0x8000}, 0x8000},
		{[]uint64{0x7fc1, 0x3f80}, 0x7fff},
	})
	check(t, opSpec{"sub.rn.bf16 %d, %a, %b", "b16", "", b16x2}, []row{
		{[]uint64{0x3f80, 0x3f80}, 0x0000},
		{[]uint64{0x8000, 0x0000}, 0x8000},
		{[]uint64{0x3f80, 0xbb80}, 0x3f80},
	})
	check(t, opSpec{"mul.rn.bf16 %d, %a, %b", "b16", "", b16x2}, []row{
		{[]uint64{0x0001, 0x3f00}, 0x0000}, // half the smallest subnormal: tie, to zero
		{[]uint64{0x0003, 0x3f00}, 0x0002},
		{[]uint64{0xbf80, 0x0000}, 0x8000},
		{[]uint64{0x7f00, 0x4000}, 0x7f80},
	})
	b16x3 := []string{"b16", "b16", "b16"}
	check(t, opSpec{"fma.rn.bf16 %d, %a, %b, %c", "b16", "", b16x3}, []row{
		{[]uint64{0x3f80, 0x3f80, 0x3f80}, 0x4000},
		// (1+2^-7)^2 + 2^-8 = 1 + 2^-6 + 2^-8 + 2^-14: one rounding goes
		// up; rounding the product first would give the tie's even 0x3f82.
		{[]uint64{0x3f81, 0x3f81, 0x3b80}, 0x3f83},
		{[]uint64{0x3f80, 0x0000, 0x8000}, 0x0000}, // +0 + -0
		{[]uint64{0xbf80, 0x0000, 0x8000}, 0x8000}, // -0 + -0
		{[]uint64{0x3f80, 0x3f80, 0xbf80}, 0x0000},
		{[]uint64{0x0001, 0x3f00, 0x8000}, 0x0000}, // a product below the smallest subnormal
		{[]uint64{0x7f80, 0x0000, 0x3f80}, 0x7fff},
	})
	check(t, opSpec{"fma.rn.f16 %d, %a, %b, %c", "b16", "", b16x3}, []row{
		{[]uint64{0x3c01, 0x3c01, 0x1000}, 0x3c03}, // (1+2^-10)^2 + 2^-11, rounded once
		{[]uint64{0xbc00, 0x0000, 0x8000}, 0x8000},
	})
}

func TestHalfSetp(t *testing.T) {
	b16x2 := []string{"b16", "b16"}
	for _, c := range []struct {
		instr string
		rows  []row
	}{
		{"setp.lt.f16 %d, %a, %b", []row{{[]uint64{0x3c00, 0x4000}, 1}, {[]uint64{0x4000, 0x3c00}, 0}, {[]uint64{0x7e00, 0x4000}, 0}, {[]uint64{0xfc00, 0x0001}, 1}}},
		{"setp.ltu.f16 %d, %a, %b", []row{{[]uint64{0x7e00, 0x4000}, 1}, {[]uint64{0x4000, 0x3c00}, 0}}},
		{"setp.eq.f16 %d, %a, %b", []row{{[]uint64{0x0000, 0x8000}, 1}, {[]uint64{0x7e00, 0x7e00}, 0}}},
		{"setp.ne.f16 %d, %a, %b", []row{{[]uint64{0x7e00, 0x3c00}, 0}, {[]uint64{0x3c01, 0x3c00}, 1}}},
		{"setp.neu.f16 %d, %a, %b", []row{{[]uint64{0x7e00, 0x3c00}, 1}}},
		{"setp.nan.f16 %d, %a, %b", []row{{[]uint64{0x3c00, 0x7c01}, 1}, {[]uint64{0x7c00, 0xfc00}, 0}}},
		{"setp.ge.bf16 %d, %a, %b", []row{{[]uint64{0x3f80, 0x3f80}, 1}, {[]uint64{0x8001, 0x0000}, 0}, {[]uint64{0x7fc0, 0x0000}, 0}}},
		{"setp.num.bf16 %d, %a, %b", []row{{[]uint64{0x7f80, 0x0000}, 1}, {[]uint64{0x7f81, 0x0000}, 0}}},
	} {
		check(t, opSpec{c.instr, "pred", "", b16x2}, c.rows)
	}
}

func TestHalfArithRejects(t *testing.T) {
	for _, c := range []struct{ instr, want string }{
		{"fma.f16 %d, %a, %b, %c", "needs .rn"},
		{"add.ftz.f16 %d, %a, %b", "ftz"},
		{"add.rz.f16 %d, %a, %b", "rz"},
		{"add.f16x2 %d, %a, %b", "f16x2"},
		{"setp.lt.ftz.f16 %d, %a, %b", "setp.ftz applies to .f32 only"},
	} {
		srcs := []string{"b16", "b16", "b16"}
		if !strings.HasPrefix(c.instr, "fma") {
			srcs = srcs[:2]
		}
		dst := "b16"
		if strings.HasPrefix(c.instr, "setp") {
			dst = "pred"
		}
		_, err := opSpec{c.instr, dst, "", srcs}.run([][]uint64{make([]uint64, len(srcs))})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got:%v want: an error mentioning %q", c.instr, err, c.want)
		}
	}
}
