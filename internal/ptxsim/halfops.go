// This file implements the half-precision arithmetic instructions (PTX
// ISA 9.7.4): add, sub and mul (.rn, the default) and fma.rn on .f16
// and .bf16, and setp with every comparison on them, the 16-bit values
// in .b16 registers. Results are correctly rounded to nearest even in
// the format, with IEEE signed zeros, infinities and subnormals (no
// .ftz); they are computed exactly in float64 with the rounding error
// kept as a sticky bit (round to odd), then rounded once to the format.
// PTX does not specify the NaN an operation gives: as its cvt does, the
// simulator writes the canonical NaN 0x7fff. The packed .f16x2 and
// .bf16x2 forms, .ftz, .sat, .relu and the other half-precision
// instructions are not supported.

package ptxsim

import (
	"math"

	"github.com/fuseflow/fuseflow/internal/half"
)

// halfFmt is a 16-bit float format: float16 or bfloat16.
type halfFmt uint8

const (
	fmtF16 halfFmt = iota + 1
	fmtBF16
)

// halfType consumes a .f16 or .bf16 type modifier and returns its
// format, or 0 when the opcode names neither.
func halfType(ms *modset) halfFmt {
	switch {
	case ms.has("f16"):
		return fmtF16
	case ms.has("bf16"):
		return fmtBF16
	}
	return 0
}

// widen returns the 16-bit pattern h of format f as a float64, exactly.
func (f halfFmt) widen(h uint64) float64 {
	if f == fmtBF16 {
		return float64(half.BFloat16(h).Float32())
	}
	return float64(half.Float16(h).Float32())
}

// narrow returns x rounded once to format f, as its pattern; a NaN is
// the canonical 0x7fff.
func (f halfFmt) narrow(x float64) uint64 {
	switch {
	case x != x:
		return 0x7fff
	case f == fmtBF16:
		return uint64(half.BFromFloat64(x))
	}
	return uint64(half.FromFloat64(x))
}

// roundOdd returns s, the float64 sum or product nearest to an exact
// value s+e, made odd when e is not zero and s is even: a float64 with
// its error kept as a sticky bit, which the formats' 8 and 11 bits then
// round correctly.
func roundOdd(s, e float64) float64 {
	if e == 0 || math.IsInf(s, 0) || math.Float64bits(s)&1 != 0 {
		return s
	}
	if e > 0 {
		return math.Nextafter(s, math.Inf(1))
	}
	return math.Nextafter(s, math.Inf(-1))
}

// halfArith returns the function of add, sub or mul in format f. The
// products of two 16-bit values are exact in float64.
func halfArith(op string, f halfFmt) func(a, b uint64) uint64 {
	return func(a, b uint64) uint64 {
		x, y := f.widen(a), f.widen(b)
		switch op {
		case "mul":
			return f.narrow(x * y)
		case "sub":
			y = -y
		}
		s, e := twoSum(x, y)
		if math.IsInf(s, 0) || s != s {
			return f.narrow(s)
		}
		return f.narrow(roundOdd(s, e))
	}
}

// halfFMA returns the function of fma.rn in format f: x*y is exact, its
// sum with z rounded once.
func halfFMA(f halfFmt) func(a, b, c uint64) uint64 {
	return func(a, b, c uint64) uint64 {
		p, z := f.widen(a)*f.widen(b), f.widen(c)
		s, e := twoSum(p, z)
		if math.IsInf(s, 0) || s != s {
			return f.narrow(s)
		}
		return f.narrow(roundOdd(s, e))
	}
}

// decodeHalfArith decodes add, sub, mul (op) and fma on .f16 or .bf16;
// ok is false when the opcode names neither type.
func decodeHalfArith(d *decoder, s *rawStmt, ms *modset, in *inst, op string) (ok bool, err error) {
	f := halfType(ms)
	if f == 0 {
		return false, nil
	}
	if !ms.has("rn") && op == "fma" {
		return true, d.errf("%s needs .rn", s.opcode)
	}
	n := 2
	if op == "fma" {
		n = 3
	}
	if err := d.alu(s, in, tB16, n); err != nil {
		return true, err
	}
	if op == "fma" {
		in.exec, in.f3 = execTernary, halfFMA(f)
	} else {
		in.exec, in.f2 = execBinary, halfArith(op, f)
	}
	return true, nil
}

// halfCompare returns the comparison op of two 16-bit values of format
// f: the float comparison of their exact values.
func halfCompare(op string, f halfFmt) func(a, b uint64) bool {
	c := floatCompare(op, tF64, false)
	if c == nil {
		return nil
	}
	return func(a, b uint64) bool {
		return c(math.Float64bits(f.widen(a)), math.Float64bits(f.widen(b)))
	}
}
