// Promotion: the dtype of a binary op's result from its operands' dtypes,
// with Go numbers as weakly typed scalars.
//
// Array with array (symmetric; NumPy 2 and JAX agree on every cell but the
// two marked *, where fuseflow follows NumPy 2):
//
//	         bool     int32    int64    float32  float64
//	bool     bool     int32    int64    float32  float64
//	int32    int32    int32    int64    float64* float64
//	int64    int64    int64    int64    float64* float64
//	float32  float32  float64* float64* float32  float64
//	float64  float64  float64  float64  float64  float64
//
// (*: JAX gives float32.)
//
// Array with a Go number (a weak scalar: it takes the array's dtype when
// its kind is not higher, as in NumPy 2's NEP 50 and JAX):
//
//	array     Go bool  Go int   Go float
//	bool      bool     int64    float64
//	int32     int32    int32    float64
//	int64     int64    int64    float64
//	float32   float32  float32  float32
//	float64   float64  float64  float64
//
// A Go int that does not fit the array's integer dtype is an error, as in
// NumPy 2 (int32 array + 1<<40 fails rather than wrapping). A Go float
// with an integer array gives float64 as NumPy 2 does; JAX would give
// float32.
//
// After promotion an op's own rule applies: true division and float math
// (Sqrt, Exp, Atan2, ...) of integers compute in float64; comparisons give
// bool; Sum and Prod of bool and int32 accumulate in int64; Mean, Var and
// Std of integers give float64.

package graph

import (
	"fmt"
	"math"
)

// Promote returns the dtype two arrays of dtypes a and b combine to.
func Promote(a, b DType) DType {
	if a == b {
		return a
	}
	if a > b {
		a, b = b, a
	}
	// a < b in the order bool, int32, int64, float32, float64.
	if a.IsInt() && b == Float32 {
		return Float64
	}
	return b
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

// Value returns w as a scalar of dtype d, or an error when the value does
// not fit (a Go int outside int32's range for an int32 array).
func (w Weak) Value(d DType) (Scalar, error) {
	s := Scalar{DType: d}
	switch w.Kind {
	case KindBool:
		s.setFloat(b2f(w.Bool))
	case KindInt:
		if d == Int32 && (w.Int < math.MinInt32 || w.Int > math.MaxInt32) {
			return s, fmt.Errorf("Go int %d is out of range for int32", w.Int)
		}
		if d == Bool {
			s.setFloat(b2f(w.Int != 0))
		} else {
			s.I = w.Int
			s.F = float64(w.Int)
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
// the value (bool as 0 or 1) and F its float64 conversion; for float
// dtypes F holds it (rounded to float32 for Float32) and I its truncation.
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

func (s *Scalar) setFloat(v float64) {
	switch s.DType {
	case Bool:
		if v != 0 {
			s.I, s.F = 1, 1
		} else {
			s.I, s.F = 0, 0
		}
	case Int32:
		s.I = int64(CastFloatToInt32(v))
		s.F = float64(s.I)
	case Int64:
		s.I = CastFloatToInt64(v)
		s.F = float64(s.I)
	case Float32:
		s.F = float64(float32(v))
		s.I = CastFloatToInt64(s.F)
	default:
		s.F = v
		s.I = CastFloatToInt64(v)
	}
}

// String formats the value.
func (s Scalar) String() string {
	switch {
	case s.DType == Bool:
		return fmt.Sprint(s.I != 0)
	case s.DType.IsInt():
		return fmt.Sprint(s.I)
	}
	return fmt.Sprint(s.F)
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
