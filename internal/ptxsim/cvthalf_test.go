// Table tests of cvt between .f32 and .f16 or .bf16 (PTX ISA 9.7.8.18).

package ptxsim_test

import (
	"strings"
	"testing"
)

func TestCvtHalf(t *testing.T) {
	check(t, opSpec{"cvt.rn.f16.f32 %d, %a", "b16", "", []string{"f32"}}, []row{
		{[]uint64{f32b(1)}, 0x3c00},
		{[]uint64{f32b(-2)}, 0xc000},
		{[]uint64{f32b(1 + 0x1p-11)}, 0x3c00},           // tie, to even
		{[]uint64{f32b(1 + 3*0x1p-11)}, 0x3c02},         // tie, to even (up)
		{[]uint64{f32b(1 + 0x1p-11 + 0x1p-20)}, 0x3c01}, // above the tie
		{[]uint64{f32b(65519)}, 0x7bff},
		{[]uint64{f32b(65520)}, 0x7c00}, // the tie to 2^16 overflows
		{[]uint64{f32b(0x1p-24)}, 0x0001},
		{[]uint64{f32b(0x1p-25)}, 0x0000}, // tie, to even zero
		{[]uint64{f32b(-0x1.8p-25)}, 0x8001},
		{[]uint64{inf32}, 0x7c00},
		{[]uint64{ninf32}, 0xfc00},
		{[]uint64{nan32}, 0x7fff}, // the canonical NaN
		{[]uint64{0xffc12345}, 0x7fff},
	})
	check(t, opSpec{"cvt.rn.bf16.f32 %d, %a", "b16", "", []string{"f32"}}, []row{
		{[]uint64{f32b(1)}, 0x3f80},
		{[]uint64{0x3f808000}, 0x3f80}, // tie, to even
		{[]uint64{0x3f818000}, 0x3f82},
		{[]uint64{0x3f808001}, 0x3f81},
		{[]uint64{0x7f7fffff}, 0x7f80}, // overflow
		{[]uint64{0x00018000}, 0x0002}, // subnormal tie
		{[]uint64{ninf32}, 0xff80},
		{[]uint64{0xffc12345}, 0x7fff},
	})
	check(t, opSpec{"cvt.f32.f16 %d, %a", "f32", "", []string{"b16"}}, []row{
		{[]uint64{0x3c00}, f32b(1)},
		{[]uint64{0xc001}, f32b(-(2 + 0x1p-9))},
		{[]uint64{0x0001}, f32b(0x1p-24)},
		{[]uint64{0x83ff}, f32b(-0x3ffp-24)},
		{[]uint64{0x7bff}, f32b(65504)},
		{[]uint64{0xfc00}, ninf32},
		{[]uint64{0x7c01}, nan32},
	})
	check(t, opSpec{"cvt.f32.bf16 %d, %a", "f32", "", []string{"b16"}}, []row{
		{[]uint64{0x3f80}, f32b(1)},
		{[]uint64{0x8001}, 0x80010000},
		{[]uint64{0xff80}, ninf32},
		{[]uint64{0x7f81}, nan32},
	})
}

func TestCvtHalfRejects(t *testing.T) {
	for _, c := range []struct{ instr, dst, src, want string }{
		{"cvt.rz.f16.f32 %d, %a", "b16", "f32", "takes .rn alone"},
		{"cvt.rn.f32.f16 %d, %a", "f32", "b16", "takes .rn alone"},
		{"cvt.rn.f16.f64 %d, %a", "b16", "f64", "only cvt.rn.f16.f32"},
		{"cvt.rn.f16.s32 %d, %a", "b16", "s32", "only cvt.rn.f16.f32"},
	} {
		_, err := opSpec{c.instr, c.dst, "", []string{c.src}}.run([][]uint64{{0}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got:%v want: an error mentioning %q", c.instr, err, c.want)
		}
	}
}
