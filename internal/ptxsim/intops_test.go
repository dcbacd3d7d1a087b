// Table tests of the integer arithmetic instructions (PTX ISA 9.7.1).

package ptxsim_test

import (
	"math"
	"testing"
)

// PTX ISA 9.7.1.1, 9.7.1.2 add, sub: wrap around at the type's width;
// .sat clamps .s32 results to [MININT, MAXINT].
func TestIntAddSub(t *testing.T) {
	check(t, opSpec{"add.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0xffffffff, 1}, 0},
		{[]uint64{0x80000000, 0x80000000}, 0},
		{[]uint64{5, 7}, 12},
	})
	check(t, opSpec{"add.s16 %d, %a, %b", "s16", "", []string{"s16", "s16"}}, []row{
		{[]uint64{s16b(32767), 1}, s16b(-32768)},
		{[]uint64{s16b(-5), s16b(3)}, s16b(-2)},
	})
	check(t, opSpec{"sub.u64 %d, %a, %b", "u64", "", []string{"u64", "u64"}}, []row{
		{[]uint64{0, 1}, math.MaxUint64},
	})
	check(t, opSpec{"add.sat.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(math.MaxInt32), 1}, s32b(math.MaxInt32)},
		{[]uint64{s32b(math.MinInt32), s32b(-1)}, s32b(math.MinInt32)},
		{[]uint64{s32b(-7), s32b(3)}, s32b(-4)},
	})
	check(t, opSpec{"sub.sat.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(math.MinInt32), 1}, s32b(math.MinInt32)},
		{[]uint64{s32b(math.MaxInt32), s32b(-1)}, s32b(math.MaxInt32)},
	})
}

// PTX ISA 9.7.1.3 mul: .lo the low half, .hi the high half of the
// double-width product (signed for .s types), .wide the whole product
// of 16- or 32-bit operands.
func TestIntMul(t *testing.T) {
	check(t, opSpec{"mul.lo.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0x10000, 0x10000}, 0},
		{[]uint64{0xffffffff, 0xffffffff}, 1},
	})
	check(t, opSpec{"mul.hi.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0xffffffff, 0xffffffff}, 0xfffffffe},
		{[]uint64{0x10000, 0x10000}, 1},
	})
	check(t, opSpec{"mul.hi.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(-1), s32b(-1)}, 0},
		{[]uint64{s32b(-1), 1}, s32b(-1)},
		{[]uint64{s32b(math.MinInt32), s32b(math.MinInt32)}, 0x40000000},
	})
	check(t, opSpec{"mul.hi.s64 %d, %a, %b", "s64", "", []string{"s64", "s64"}}, []row{
		{[]uint64{s64b(-1), s64b(-1)}, 0},
		{[]uint64{s64b(-1), 2}, s64b(-1)},
		{[]uint64{s64b(math.MinInt64), s64b(math.MinInt64)}, 1 << 62},
	})
	check(t, opSpec{"mul.hi.u64 %d, %a, %b", "u64", "", []string{"u64", "u64"}}, []row{
		{[]uint64{math.MaxUint64, math.MaxUint64}, math.MaxUint64 - 1},
	})
	check(t, opSpec{"mul.wide.s32 %d, %a, %b", "s64", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(-3), s32b(4)}, s64b(-12)},
		{[]uint64{s32b(math.MinInt32), s32b(math.MinInt32)}, 1 << 62},
	})
	check(t, opSpec{"mul.wide.u32 %d, %a, %b", "u64", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0xffffffff, 0xffffffff}, 0xfffffffe00000001},
	})
	check(t, opSpec{"mul.wide.s16 %d, %a, %b", "s32", "", []string{"s16", "s16"}}, []row{
		{[]uint64{s16b(-32768), s16b(-32768)}, 1 << 30},
	})
}

// PTX ISA 9.7.1.4 mad: the product's half (or all of it, .wide) plus c;
// mad.hi.sat.s32 clamps.
func TestIntMad(t *testing.T) {
	check(t, opSpec{"mad.lo.s32 %d, %a, %b, %c", "s32", "", []string{"s32", "s32", "s32"}}, []row{
		{[]uint64{s32b(-3), 4, 5}, s32b(-7)},
		{[]uint64{0x10000, 0x10000, 9}, 9},
	})
	check(t, opSpec{"mad.wide.u32 %d, %a, %b, %c", "u64", "", []string{"u32", "u32", "u64"}}, []row{
		{[]uint64{0xffffffff, 2, 3}, 0x200000001},
	})
	check(t, opSpec{"mad.hi.sat.s32 %d, %a, %b, %c", "s32", "", []string{"s32", "s32", "s32"}}, []row{
		{[]uint64{0x40000000, 0x40000000, s32b(math.MaxInt32)}, s32b(math.MaxInt32)},
		{[]uint64{s32b(-1), 1, s32b(math.MinInt32)}, s32b(math.MinInt32)},
	})
}

// PTX ISA 9.7.1.8, 9.7.1.9 div and rem: truncation toward zero, the
// remainder taking the dividend's sign (C semantics). MININT / -1
// overflows to MININT.
func TestIntDivRem(t *testing.T) {
	check(t, opSpec{"div.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(-7), 2}, s32b(-3)},
		{[]uint64{7, s32b(-2)}, s32b(-3)},
		{[]uint64{s32b(-7), s32b(-2)}, 3},
		{[]uint64{s32b(math.MinInt32), s32b(-1)}, s32b(math.MinInt32)},
	})
	check(t, opSpec{"rem.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(-7), 2}, s32b(-1)},
		{[]uint64{7, s32b(-2)}, 1},
		{[]uint64{s32b(-7), s32b(-2)}, s32b(-1)},
		{[]uint64{s32b(math.MinInt32), s32b(-1)}, 0},
	})
	check(t, opSpec{"div.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0xfffffff9, 2}, 0x7ffffffc},
	})
	check(t, opSpec{"rem.u64 %d, %a, %b", "u64", "", []string{"u64", "u64"}}, []row{
		{[]uint64{math.MaxUint64, 10}, 5},
	})
	check(t, opSpec{"div.s64 %d, %a, %b", "s64", "", []string{"s64", "s64"}}, []row{
		{[]uint64{s64b(math.MinInt64), s64b(-1)}, s64b(math.MinInt64)},
		{[]uint64{s64b(-9), 4}, s64b(-2)},
	})
	// Division by zero: the ISA leaves the result unspecified, which the
	// simulator reports rather than invent a value.
	expectFault(t, opSpec{"div.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, [][]uint64{{5, 0}}, "division of 5 by zero")
	expectFault(t, opSpec{"rem.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, [][]uint64{{5, 0}}, "by zero")
}

// PTX ISA 9.7.1.10 - 9.7.1.13 abs, neg, min, max: abs and neg of MININT
// stay MININT; min and max compare signed or unsigned by the type.
func TestIntAbsNegMinMax(t *testing.T) {
	check(t, opSpec{"abs.s32 %d, %a", "s32", "", []string{"s32"}}, []row{
		{[]uint64{s32b(-5)}, 5},
		{[]uint64{s32b(math.MinInt32)}, s32b(math.MinInt32)},
	})
	check(t, opSpec{"neg.s16 %d, %a", "s16", "", []string{"s16"}}, []row{
		{[]uint64{s16b(-32768)}, s16b(-32768)},
		{[]uint64{s16b(5)}, s16b(-5)},
	})
	check(t, opSpec{"min.s32 %d, %a, %b", "s32", "", []string{"s32", "s32"}}, []row{
		{[]uint64{s32b(-1), 1}, s32b(-1)},
	})
	check(t, opSpec{"min.u32 %d, %a, %b", "u32", "", []string{"u32", "u32"}}, []row{
		{[]uint64{0xffffffff, 1}, 1},
	})
	check(t, opSpec{"max.s64 %d, %a, %b", "s64", "", []string{"s64", "s64"}}, []row{
		{[]uint64{s64b(-5), s64b(-3)}, s64b(-3)},
	})
	check(t, opSpec{"max.u16 %d, %a, %b", "u16", "", []string{"u16", "u16"}}, []row{
		{[]uint64{0xffff, 1}, 0xffff},
	})
}

// PTX ISA 9.7.1.14, 9.7.1.15, 9.7.1.18 popc, clz (a .u32 count; clz of 0
// is the width), brev.
func TestIntBitCounts(t *testing.T) {
	check(t, opSpec{"popc.b32 %d, %a", "u32", "", []string{"b32"}}, []row{
		{[]uint64{0xffffffff}, 32}, {[]uint64{0}, 0}, {[]uint64{0x80000001}, 2},
	})
	check(t, opSpec{"popc.b64 %d, %a", "u32", "", []string{"b64"}}, []row{
		{[]uint64{math.MaxUint64}, 64},
	})
	check(t, opSpec{"clz.b32 %d, %a", "u32", "", []string{"b32"}}, []row{
		{[]uint64{0}, 32}, {[]uint64{1}, 31}, {[]uint64{0x80000000}, 0},
	})
	check(t, opSpec{"clz.b64 %d, %a", "u32", "", []string{"b64"}}, []row{
		{[]uint64{0}, 64}, {[]uint64{1 << 40}, 23},
	})
	check(t, opSpec{"brev.b32 %d, %a", "b32", "", []string{"b32"}}, []row{
		{[]uint64{1}, 0x80000000}, {[]uint64{0x0000ff00}, 0x00ff0000},
	})
}
