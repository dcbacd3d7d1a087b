// Promotion: the dtype of a binary op's result from its operands' dtypes,
// with Go numbers as weakly typed scalars.
//
// Array with array: promoteTable below, NumPy 2's rules for bool, the
// integers (signed with unsigned goes to the smallest signed type that
// holds both: uint8 with int8 is int16, uint32 with int32 int64, uint64
// with any signed type float64) and float16/32/64 (an integer with a
// float goes to the smallest float that holds the integer's values
// exactly enough: int8/uint8 with float16 stay float16, int16/uint16 go
// to float32, 32- and 64-bit integers to float64), and JAX's rules for
// bfloat16, which NumPy lacks: bfloat16 with bool or any integer is
// bfloat16, with float16 or float32 float32, with float64 float64.
// Where NumPy and JAX differ on the other dtypes (int32 with float32:
// JAX float32) fuseflow follows NumPy.
//
// Array with a Go number (a weak scalar: it takes the array's dtype when
// its kind is not higher, as in NumPy 2's NEP 50 and JAX):
//
//	array           Go bool  Go int   Go float
//	bool            bool     int64    float64
//	any integer     itself   itself   float64
//	any float       itself   itself   itself
//
// A Go int that does not fit the array's integer dtype is an error, as in
// NumPy 2 (uint8 array + 300, uint8 array + -1 and int32 array + 1<<40
// all fail rather than wrapping). A Go float with an integer array gives
// float64 as NumPy 2 does; JAX would give float32. A Go uint64 above
// MaxInt64 is a weak float.
//
// After promotion an op's own rule applies (graph/op.go): true division
// of integers computes in float64; float math (Sqrt, Exp, Atan2, ...)
// of integers in the smallest float NumPy picks (float16 for int8 and
// uint8, float32 for int16 and uint16, float64 for wider integers);
// comparisons give bool; Sum and Prod of bool and signed integers
// accumulate in int64, of unsigned integers in uint64; Mean, Var and Std
// of integers give float64.

package graph

import (
	"fmt"
	"math"
	"strings"
)

// promoteText is the array-with-array promotion table (symmetric).
const promoteText = `
	b     i8    i16   i32   i64   u8    u16   u32   u64   f16   bf16  f32   f64
b	b     i8    i16   i32   i64   u8    u16   u32   u64   f16   bf16  f32   f64
i8	i8    i8    i16   i32   i64   i16   i32   i64   f64   f16   bf16  f32   f64
i16	i16   i16   i16   i32   i64   i16   i32   i64   f64   f32   bf16  f32   f64
i32	i32   i32   i32   i32   i64   i32   i32   i64   f64   f64   bf16  f64   f64
i64	i64   i64   i64   i64   i64   i64   i64   i64   f64   f64   bf16  f64   f64
u8	u8    i16   i16   i32   i64   u8    u16   u32   u64   f16   bf16  f32   f64
u16	u16   i32   i32   i32   i64   u16   u16   u32   u64   f32   bf16  f32   f64
u32	u32   i64   i64   i64   i64   u32   u32   u32   u64   f64   bf16  f64   f64
u64	u64   f64   f64   f64   f64   u64   u64   u64   u64   f64   bf16  f64   f64
f16	f16   f16   f32   f64   f64   f16   f32   f64   f64   f16   f32   f32   f64
bf16	bf16  bf16  bf16  bf16  bf16  bf16  bf16  bf16  bf16  f32   bf16  f32   f64
f32	f32   f32   f32   f64   f64   f32   f32   f64   f64   f32   f32   f32   f64
f64	f64   f64   f64   f64   f64   f64   f64   f64   f64   f64   f64   f64   f64
`

// promoteTable[a][b] is promoteText parsed at init.
var promoteTable = parsePromoteTable(promoteText)

// parsePromoteTable reads the table of abbreviated dtype names; a
// malformed table is a broken invariant and panics at init.
func parsePromoteTable(text string) (t [numDTypes][numDTypes]DType) {
	abbr := map[string]DType{"b": Bool, "i8": Int8, "i16": Int16, "i32": Int32, "i64": Int64,
		"u8": Uint8, "u16": Uint16, "u32": Uint32, "u64": Uint64,
		"f16": Float16, "bf16": BFloat16, "f32": Float32, "f64": Float64}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	cols := strings.Fields(lines[0])
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != len(cols)+1 {
			panic("graph: malformed promotion table row " + l)
		}
		a := abbr[f[0]]
		for j, c := range cols {
			t[a][abbr[c]] = abbr[f[j+1]]
		}
	}
	for _, a := range DTypes() {
		for _, b := range DTypes() {
			if t[a][b] == Invalid || t[a][b] != t[b][a] {
				panic(fmt.Sprintf("graph: promotion table: %v with %v", a, b))
			}
		}
	}
	return t
}

// Promote returns the dtype two arrays of dtypes a and b combine to, or
// Invalid when either is not a supported dtype.
func Promote(a, b DType) DType {
	if a >= numDTypes || b >= numDTypes {
		return Invalid
	}
	return promoteTable[a][b]
}

// Weak is a Go number used as an operand: its value and its kind, but no
// dtype of its own until it meets an array.
type Weak struct {
	Kind  Kind // KindBool, KindInt or KindFloat
	Int   int64
	Float float64
	Bool  bool
}

// WeakOf returns the weak scalar for a Go number (bool, any int or uint
// type, float32 or float64). ok is false for any other type.
func WeakOf(v any) (w Weak, ok bool) {
	switch x := v.(type) {
	case bool:
		return Weak{Kind: KindBool, Bool: x}, true
	case int:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case int8:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case int16:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case int32:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case int64:
		return Weak{Kind: KindInt, Int: x}, true
	case uint8:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case uint16:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case uint32:
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case uint:
		if uint64(x) > math.MaxInt64 {
			return Weak{Kind: KindFloat, Float: float64(x)}, true
		}
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case uint64:
		if x > math.MaxInt64 {
			return Weak{Kind: KindFloat, Float: float64(x)}, true
		}
		return Weak{Kind: KindInt, Int: int64(x)}, true
	case float32:
		return Weak{Kind: KindFloat, Float: float64(x)}, true
	case float64:
		return Weak{Kind: KindFloat, Float: x}, true
	}
	return Weak{}, false
}

// String formats w as Go would print the number.
func (w Weak) String() string {
	switch w.Kind {
	case KindBool:
		return fmt.Sprint(w.Bool)
	case KindInt:
		return fmt.Sprint(w.Int)
	}
	return fmt.Sprint(w.Float)
}

// PromoteWeak returns the dtype an array of dtype d and the weak scalar w
// combine to (see the table in this file's comment).
func PromoteWeak(d DType, w Weak) DType {
	switch {
	case w.Kind <= d.Kind():
		return d
	case w.Kind == KindInt:
		return Int64
	}
	return Float64
}

// IntRange returns the smallest and largest value of the integer dtype d
// as int64 (uint64's largest is given as MaxInt64: larger values do not
// fit an int64). ok is false for other dtypes.
func IntRange(d DType) (lo, hi int64, ok bool) {
	if !d.IsInt() {
		return 0, 0, false
	}
	b := uint(d.Bits())
	switch {
	case d == Uint64:
		return 0, math.MaxInt64, true
	case d == Int64:
		return math.MinInt64, math.MaxInt64, true
	case d.Unsigned():
		return 0, 1<<b - 1, true
	}
	return -1 << (b - 1), 1<<(b-1) - 1, true
}

// Value returns w as a scalar of dtype d, or an error when the value does
// not fit (a Go int outside int32's range for an int32 array, a negative
// one for an unsigned array).
func (w Weak) Value(d DType) (Scalar, error) {
	s := Scalar{DType: d}
	switch w.Kind {
	case KindBool:
		s.setFloat(b2f(w.Bool))
	case KindInt:
		if lo, hi, ok := IntRange(d); ok && (w.Int < lo || w.Int > hi) {
			return s, fmt.Errorf("Go int %d is out of range for %v", w.Int, d)
		}
		switch {
		case d == Bool:
			s.setFloat(b2f(w.Int != 0))
		case d.IsInt():
			s.I = w.Int
			s.F = float64(w.Int)
		default:
			s.setFloat(float64(w.Int))
			if d == Float32 {
				s.F = float64(float32(w.Int)) // one rounding, as AsType
			}
		}
	case KindFloat:
		s.setFloat(w.Float)
	default:
		return s, fmt.Errorf("invalid weak scalar")
	}
	return s, nil
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Scalar is a typed constant value. For integer and bool dtypes I holds
// the value (bool as 0 or 1; uint64 as its bits, so values above
// MaxInt64 are negative in I) and F its float64 conversion; for float
// dtypes F holds it (rounded to the dtype: float32, float16, bfloat16)
// and I its truncation.
type Scalar struct {
	DType DType
	I     int64
	F     float64
}

// ScalarOf returns the scalar of dtype d with value v converted as
// AsType would convert it.
func ScalarOf(d DType, v float64) Scalar {
	s := Scalar{DType: d}
	s.setFloat(v)
	return s
}

// ScalarInt returns the scalar of integer or bool dtype d holding v
// wrapped to d's width (as AsType converts integers); for a float dtype
// it is ScalarOf(d, float64(v)).
func ScalarInt(d DType, v int64) Scalar {
	s := Scalar{DType: d}
	switch {
	case d == Bool:
		s.setFloat(b2f(v != 0))
	case d.IsInt():
		s.I = WrapInt(d, v)
		s.F = intToFloat(d, s.I)
	default:
		s.setFloat(float64(v))
	}
	return s
}

func intToFloat(d DType, i int64) float64 {
	if d == Uint64 {
		return float64(uint64(i))
	}
	return float64(i)
}

func (s *Scalar) setFloat(v float64) {
	switch {
	case s.DType == Bool:
		if v != 0 {
			s.I, s.F = 1, 1
		} else {
			s.I, s.F = 0, 0
		}
	case s.DType.IsInt():
		s.I = CastFloatToInt(s.DType, v)
		s.F = intToFloat(s.DType, s.I)
	case s.DType == Float64:
		s.F = v
		s.I = CastFloatToInt64(v)
	default:
		s.F = RoundFloat(s.DType, v)
		s.I = CastFloatToInt64(s.F)
	}
}

// String formats the value.
func (s Scalar) String() string {
	switch {
	case s.DType == Bool:
		return fmt.Sprint(s.I != 0)
	case s.DType == Uint64:
		return fmt.Sprint(uint64(s.I))
	case s.DType.IsInt():
		return fmt.Sprint(s.I)
	}
	return fmt.Sprint(s.F)
}

// WrapInt returns v wrapped to the width of the integer dtype d, as a
// value of d (uint64 as its bits); v unchanged for 64-bit dtypes.
func WrapInt(d DType, v int64) int64 {
	switch d {
	case Int8:
		return int64(int8(v))
	case Int16:
		return int64(int16(v))
	case Int32:
		return int64(int32(v))
	case Uint8:
		return int64(uint8(v))
	case Uint16:
		return int64(uint16(v))
	case Uint32:
		return int64(uint32(v))
	case Bool:
		return int64(b2f(v != 0))
	}
	return v
}

// CastFloatToInt converts v to the integer dtype d as fuseflow defines
// it on every backend (NumPy leaves out-of-range conversions undefined):
// NaN gives 0; int32 and int64 truncate toward zero saturating at their
// range (CastFloatToInt32, CastFloatToInt64); int8, int16, uint8 and
// uint16 truncate into int32 that way and wrap to their width; uint32
// truncates into int64 and wraps; uint64 converts values in [0, 2^64)
// exactly, saturates at MaxUint64 above, and truncates negative values
// into int64 and wraps (-1.0 gives MaxUint64, as NumPy on x86-64).
// The result is a value of d as WrapInt gives it (uint64 as its bits).
func CastFloatToInt(d DType, v float64) int64 {
	switch d {
	case Int64:
		return CastFloatToInt64(v)
	case Int32, Int8, Int16, Uint8, Uint16:
		return WrapInt(d, int64(CastFloatToInt32(v)))
	case Uint32:
		return WrapInt(d, CastFloatToInt64(v))
	case Uint64:
		return int64(CastFloatToUint64(v))
	}
	return CastFloatToInt64(v)
}

// CastFloatToUint64 is CastFloatToInt for uint64.
func CastFloatToUint64(v float64) uint64 {
	switch {
	case v != v:
		return 0
	case v >= 18446744073709551616.0:
		return math.MaxUint64
	case v >= 9223372036854775808.0:
		return uint64(v)
	}
	return uint64(CastFloatToInt64(v))
}

// CastFloatToInt64 converts as fuseflow defines it on every backend:
// truncation toward zero, NaN to 0, and saturation at the int64 range
// (NumPy's result there is platform-defined; PTX's cvt.rzi saturates).
func CastFloatToInt64(v float64) int64 {
	switch {
	case v != v:
		return 0
	case v >= 9.223372036854775807e18:
		return math.MaxInt64
	case v <= -9.223372036854775808e18:
		return math.MinInt64
	}
	return int64(v)
}

// CastFloatToInt32 converts like CastFloatToInt64, saturating at the
// int32 range.
func CastFloatToInt32(v float64) int32 {
	switch {
	case v != v:
		return 0
	case v >= math.MaxInt32:
		return math.MaxInt32
	case v <= math.MinInt32:
		return math.MinInt32
	}
	return int32(v)
}

// RoundFloat returns v rounded once, to nearest even, to the float dtype
// d (float16 and bfloat16 with their subnormals; overflow gives an
// infinity; NaN stays NaN), as a float64. v is returned unchanged for
// Float64 and other dtypes.
func RoundFloat(d DType, v float64) float64 {
	switch d {
	case Float32:
		return float64(float32(v))
	case Float16:
		return roundPrecision(v, 11, -14, 65504)
	case BFloat16:
		return roundPrecision(v, 8, -126, 0x1.fep127)
	}
	return v
}

// roundPrecision rounds v to p significant bits with the smallest normal
// exponent emin (below it the quantum stays 2^(emin-p+1): subnormals)
// and the largest finite value maxf.
func roundPrecision(v float64, p, emin int, maxf float64) float64 {
	if v != v || math.IsInf(v, 0) || v == 0 {
		return v
	}
	_, e := math.Frexp(v) // |v| = m * 2^e, m in [0.5, 1)
	q := max(e-p, emin-p+1)
	r := math.Ldexp(math.RoundToEven(math.Ldexp(v, -q)), q)
	if math.Abs(r) > maxf {
		return math.Copysign(math.Inf(1), v)
	}
	return r
}
