// Table tests of the logic and shift instructions (PTX ISA 9.7.7).

package ptxsim_test

import (
	"math"
	"testing"
)

// PTX ISA 9.7.7.1 - 9.7.7.5 and, or, xor, not, cnot on bit-size types and
// predicates.
func TestLogic(t *testing.T) {
	check(t, opSpec{"and.b32 %d, %a, %b", "b32", "", []string{"b32", "b32"}}, []row{{[]uint64{0xf0f0, 0xff00}, 0xf000}})
	check(t, opSpec{"or.b16 %d, %a, %b", "b16", "", []string{"b16", "b16"}}, []row{{[]uint64{0xf000, 0x000f}, 0xf00f}})
	check(t, opSpec{"xor.b64 %d, %a, %b", "b64", "", []string{"b64", "b64"}}, []row{{[]uint64{math.MaxUint64, 1}, math.MaxUint64 - 1}})
	check(t, opSpec{"not.b32 %d, %a", "b32", "", []string{"b32"}}, []row{{[]uint64{0}, 0xffffffff}, {[]uint64{0xffff0000}, 0xffff}})
	check(t, opSpec{"cnot.b32 %d, %a", "b32", "", []string{"b32"}}, []row{{[]uint64{0}, 1}, {[]uint64{5}, 0}})
	for _, c := range []struct {
		op   string
		want [4]uint64 // (0,0), (0,1), (1,0), (1,1)
	}{{"and", [4]uint64{0, 0, 0, 1}}, {"or", [4]uint64{0, 1, 1, 1}}, {"xor", [4]uint64{0, 1, 1, 0}}} {
		check(t, opSpec{c.op + ".pred %d, %a, %b", "pred", "", []string{"pred", "pred"}}, []row{
			{[]uint64{0, 0}, c.want[0]}, {[]uint64{0, 1}, c.want[1]}, {[]uint64{1, 0}, c.want[2]}, {[]uint64{1, 1}, c.want[3]},
		})
	}
	check(t, opSpec{"not.pred %d, %a", "pred", "", []string{"pred"}}, []row{{[]uint64{0}, 1}, {[]uint64{1}, 0}})
}

// PTX ISA 9.7.7.8, 9.7.7.9 shl, shr: the amount is an unsigned 32-bit
// value; amounts of the width or more clamp: shl, shr.u and shr.b give 0,
// shr.s fills with the sign.
func TestShift(t *testing.T) {
	check(t, opSpec{"shl.b32 %d, %a, %b", "b32", "", []string{"b32", "u32"}}, []row{
		{[]uint64{1, 31}, 0x80000000}, {[]uint64{1, 32}, 0}, {[]uint64{1, 100}, 0}, {[]uint64{3, 0xffffffff}, 0}, {[]uint64{0xffffffff, 4}, 0xfffffff0},
	})
	check(t, opSpec{"shl.b16 %d, %a, %b", "b16", "", []string{"b16", "u32"}}, []row{
		{[]uint64{1, 15}, 0x8000}, {[]uint64{1, 16}, 0},
	})
	check(t, opSpec{"shl.b64 %d, %a, %b", "b64", "", []string{"b64", "u32"}}, []row{
		{[]uint64{1, 63}, 1 << 63}, {[]uint64{1, 64}, 0},
	})
	check(t, opSpec{"shr.s32 %d, %a, %b", "s32", "", []string{"s32", "u32"}}, []row{
		{[]uint64{s32b(-8), 1}, s32b(-4)}, {[]uint64{s32b(-8), 40}, s32b(-1)}, {[]uint64{8, 40}, 0}, {[]uint64{s32b(-1), 31}, s32b(-1)},
	})
	check(t, opSpec{"shr.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0x80000000, 31}, 1}, {[]uint64{0x80000000, 32}, 0},
	})
	check(t, opSpec{"shr.b16 %d, %a, %b", "b16", "", []string{"b16", "u32"}}, []row{
		{[]uint64{0x8000, 15}, 1}, {[]uint64{0x8000, 16}, 0},
	})
	check(t, opSpec{"shr.s64 %d, %a, %b", "s64", "", []string{"s64", "u32"}}, []row{
		{[]uint64{s64b(math.MinInt64), 64}, s64b(-1)}, {[]uint64{s64b(math.MinInt64), 62}, s64b(-2)},
	})
	check(t, opSpec{"shr.s16 %d, %a, %b", "s16", "", []string{"s16", "u32"}}, []row{
		{[]uint64{s16b(-2), 20}, s16b(-1)},
	})
}
