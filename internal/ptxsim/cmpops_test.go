// Table tests of the comparison and selection instructions (PTX ISA
// 9.7.5) with the comparison rules of 9.3.1.

package ptxsim_test

import (
	"fmt"
	"math"
	"testing"
)

// PTX ISA 9.3.1.1, 9.7.5.2: integer comparisons are signed for .s types,
// unsigned for .u types and for lo, ls, hi, hs.
func TestSetpInt(t *testing.T) {
	m1 := s32b(-1)
	cases := map[string]map[string][]uint64{
		// operands (-1, 1), (1, -1), (2, 2)
		"s32": {"eq": {0, 0, 1}, "ne": {1, 1, 0}, "lt": {1, 0, 0}, "le": {1, 0, 1}, "gt": {0, 1, 0}, "ge": {0, 1, 1},
			"lo": {0, 1, 0}, "ls": {0, 1, 1}, "hi": {1, 0, 0}, "hs": {1, 0, 1}},
		"u32": {"lt": {0, 1, 0}, "le": {0, 1, 1}, "gt": {1, 0, 0}, "ge": {1, 0, 1}, "lo": {0, 1, 0}, "hi": {1, 0, 0}},
		"b32": {"eq": {0, 0, 1}, "ne": {1, 1, 0}},
	}
	for ty, ops := range cases {
		for op, want := range ops {
			check(t, opSpec{fmt.Sprintf("setp.%s.%s %%d, %%a, %%b", op, ty), "pred", "", []string{ty, ty}}, []row{
				{[]uint64{m1, 1}, want[0]}, {[]uint64{1, m1}, want[1]}, {[]uint64{2, 2}, want[2]},
			})
		}
	}
	check(t, opSpec{"setp.lt.s16 %d, %a, %b", "pred", "", []string{"s16", "s16"}}, []row{
		{[]uint64{s16b(-32768), s16b(32767)}, 1},
	})
	check(t, opSpec{"setp.lt.s64 %d, %a, %b", "pred", "", []string{"s64", "s64"}}, []row{
		{[]uint64{s64b(math.MinInt64), 0}, 1},
	})
}

// PTX ISA 9.3.1.2: the ordered float comparisons are false when either
// operand is NaN, the unordered (u) ones true; num is true when neither
// is NaN, nan when either is; -0 equals +0.
func TestSetpFloat(t *testing.T) {
	one, two := f32b(1), f32b(2)
	// operands (1, 2), (2, 1), (1, 1), (NaN, 1), (1, NaN), (-0, +0)
	rows := [][]uint64{{one, two}, {two, one}, {one, one}, {nan32, one}, {one, nan32}, {nzero, 0}}
	want := map[string][]uint64{
		"eq": {0, 0, 1, 0, 0, 1}, "ne": {1, 1, 0, 0, 0, 0}, "lt": {1, 0, 0, 0, 0, 0}, "le": {1, 0, 1, 0, 0, 1},
		"gt": {0, 1, 0, 0, 0, 0}, "ge": {0, 1, 1, 0, 0, 1},
		"equ": {0, 0, 1, 1, 1, 1}, "neu": {1, 1, 0, 1, 1, 0}, "ltu": {1, 0, 0, 1, 1, 0}, "leu": {1, 0, 1, 1, 1, 1},
		"gtu": {0, 1, 0, 1, 1, 0}, "geu": {0, 1, 1, 1, 1, 1},
		"num": {1, 1, 1, 0, 0, 1}, "nan": {0, 0, 0, 1, 1, 0},
	}
	for op, w := range want {
		var rs []row
		for i, r := range rows {
			rs = append(rs, row{r, w[i]})
		}
		check(t, opSpec{fmt.Sprintf("setp.%s.f32 %%d, %%a, %%b", op), "pred", "", []string{"f32", "f32"}}, rs)
		var rs64 []row
		for i, r := range rows {
			a, b := math.Float32frombits(uint32(r[0])), math.Float32frombits(uint32(r[1]))
			rs64 = append(rs64, row{[]uint64{f64b(float64(a)), f64b(float64(b))}, w[i]})
		}
		check(t, opSpec{fmt.Sprintf("setp.%s.f64 %%d, %%a, %%b", op), "pred", "", []string{"f64", "f64"}}, rs64)
	}
	// .ftz compares subnormals as zeros.
	check(t, opSpec{"setp.eq.ftz.f32 %d, %a, %b", "pred", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(0x1p-130), 0}, 1},
	})
	check(t, opSpec{"setp.eq.f32 %d, %a, %b", "pred", "", []string{"f32", "f32"}}, []row{
		{[]uint64{f32b(0x1p-130), 0}, 0},
	})
}

// PTX ISA 9.7.5.2: with a boolean operation, p = t op c and q = !t op c.
func TestSetpBoolOp(t *testing.T) {
	for _, c := range []struct {
		op      string
		negc    bool
		p, q    [4]uint64 // for (t, c) = (0,0), (0,1), (1,0), (1,1)
		comment string
	}{
		{"and", false, [4]uint64{0, 0, 0, 1}, [4]uint64{0, 1, 0, 0}, ""},
		{"or", false, [4]uint64{0, 1, 1, 1}, [4]uint64{1, 1, 0, 1}, ""},
		{"xor", false, [4]uint64{0, 1, 1, 0}, [4]uint64{1, 0, 0, 1}, ""},
		{"and", true, [4]uint64{0, 0, 1, 0}, [4]uint64{1, 0, 0, 0}, "!c"},
	} {
		cs := "%c"
		if c.negc {
			cs = "!%c"
		}
		s := opSpec{fmt.Sprintf("setp.lt.%s.s32 %%d|%%q, %%a, %%b, %s", c.op, cs), "pred", "pred", []string{"s32", "s32", "pred"}}
		in := [][]uint64{{1, 0, 0}, {1, 0, 1}, {0, 1, 0}, {0, 1, 1}} // t = a < b
		got, err := s.run(in)
		if err != nil {
			t.Fatal(err)
		}
		for i := range in {
			if got[i] != c.p[i] || got[4+i] != c.q[i] {
				t.Errorf("%s row %d got:p=%d q=%d want:p=%d q=%d", s.instr, i, got[i], got[4+i], c.p[i], c.q[i])
			}
		}
	}
	// Without a boolean operation q is the negation of p.
	s := opSpec{"setp.gt.u32 %d|%q, %a, %b", "pred", "pred", []string{"u32", "u32"}}
	got, err := s.run([][]uint64{{2, 1}, {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != 1 || got[1] != 0 || got[2] != 0 || got[3] != 1 {
		t.Errorf("%s got:%v want:[1 0 0 1]", s.instr, got)
	}
}

// PTX ISA 9.7.5.3 selp: d = c ? a : b.
func TestSelp(t *testing.T) {
	check(t, opSpec{"selp.b32 %d, %a, %b, %c", "b32", "", []string{"b32", "b32", "pred"}}, []row{
		{[]uint64{7, 9, 1}, 7}, {[]uint64{7, 9, 0}, 9},
	})
	check(t, opSpec{"selp.f64 %d, %a, %b, %c", "f64", "", []string{"f64", "f64", "pred"}}, []row{
		{[]uint64{f64b(1.5), f64b(-2), 0}, f64b(-2)},
	})
	check(t, opSpec{"selp.s16 %d, %a, %b, %c", "s16", "", []string{"s16", "s16", "pred"}}, []row{
		{[]uint64{s16b(-1), 5, 1}, s16b(-1)},
	})
}
