// Tests of the dtype table, the promotion table (every pair, against an
// expectation written out pair by pair: NumPy's promote_types for all but
// bfloat16, JAX's rules for bfloat16), weak scalars, narrowing and casts.

package graph

import (
	"math"
	"strings"
	"testing"
)

// promotePairs lists each unordered pair once as "a b result". The rows
// without bfloat16 are np.promote_types (NumPy 1.24 and 2 agree on arrays);
// the bfloat16 rows are JAX's lattice (bfloat16 with any integer or bool
// is bfloat16; with float16 or float32 float32).
var promotePairs = []string{
	"bool bool bool", "bool int8 int8", "bool int16 int16", "bool int32 int32",
	"bool int64 int64", "bool uint8 uint8", "bool uint16 uint16", "bool uint32 uint32",
	"bool uint64 uint64", "bool float16 float16", "bool float32 float32", "bool float64 float64",
	"int8 int8 int8", "int8 int16 int16", "int8 int32 int32", "int8 int64 int64",
	"int8 uint8 int16", "int8 uint16 int32", "int8 uint32 int64", "int8 uint64 float64",
	"int8 float16 float16", "int8 float32 float32", "int8 float64 float64", "int16 int16 int16",
	"int16 int32 int32", "int16 int64 int64", "int16 uint8 int16", "int16 uint16 int32",
	"int16 uint32 int64", "int16 uint64 float64", "int16 float16 float32", "int16 float32 float32",
	"int16 float64 float64", "int32 int32 int32", "int32 int64 int64", "int32 uint8 int32",
	"int32 uint16 int32", "int32 uint32 int64", "int32 uint64 float64", "int32 float16 float64",
	"int32 float32 float64", "int32 float64 float64", "int64 int64 int64", "int64 uint8 int64",
	"int64 uint16 int64", "int64 uint32 int64", "int64 uint64 float64", "int64 float16 float64",
	"int64 float32 float64", "int64 float64 float64", "uint8 uint8 uint8", "uint8 uint16 uint16",
	"uint8 uint32 uint32", "uint8 uint64 uint64", "uint8 float16 float16", "uint8 float32 float32",
	"uint8 float64 float64", "uint16 uint16 uint16", "uint16 uint32 uint32", "uint16 uint64 uint64",
	"uint16 float16 float32", "uint16 float32 float32", "uint16 float64 float64", "uint32 uint32 uint32",
	"uint32 uint64 uint64", "uint32 float16 float64", "uint32 float32 float64", "uint32 float64 float64",
	"uint64 uint64 uint64", "uint64 float16 float64", "uint64 float32 float64", "uint64 float64 float64",
	"float16 float16 float16", "float16 float32 float32", "float16 float64 float64", "float32 float32 float32",
	"float32 float64 float64", "float64 float64 float64", "bfloat16 bool bfloat16", "bfloat16 int8 bfloat16",
	"bfloat16 int16 bfloat16", "bfloat16 int32 bfloat16", "bfloat16 int64 bfloat16", "bfloat16 uint8 bfloat16",
	"bfloat16 uint16 bfloat16", "bfloat16 uint32 bfloat16", "bfloat16 uint64 bfloat16", "bfloat16 float16 float32",
	"bfloat16 float32 float32", "bfloat16 float64 float64", "bfloat16 bfloat16 bfloat16",
}

func TestPromoteEveryPair(t *testing.T) {
	seen := map[[2]DType]bool{}
	for _, row := range promotePairs {
		f := strings.Fields(row)
		a, err1 := ParseDType(f[0])
		b, err2 := ParseDType(f[1])
		want, err3 := ParseDType(f[2])
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("bad row %q", row)
		}
		seen[[2]DType{a, b}], seen[[2]DType{b, a}] = true, true
		if got := Promote(a, b); got != want {
			t.Errorf("Promote(%v, %v) got:%v want:%v", a, b, got, want)
		}
		if got := Promote(b, a); got != want {
			t.Errorf("Promote(%v, %v) got:%v want:%v", b, a, got, want)
		}
	}
	for _, a := range DTypes() {
		for _, b := range DTypes() {
			if !seen[[2]DType{a, b}] {
				t.Errorf("pair %v %v missing from the expectation", a, b)
			}
		}
	}
	if got := Promote(Invalid, Int8); got != Invalid {
		t.Errorf("Promote(invalid, int8) got:%v want:invalid", got)
	}
}

func TestDTypeTable(t *testing.T) {
	for _, c := range []struct {
		d         DType
		name      string
		size      int
		kind      Kind
		unsigned  bool
		lane      DType
		floatMath DType
		sumDType  DType
	}{
		{Bool, "bool", 1, KindBool, false, Bool, Float64, Int64},
		{Int8, "int8", 1, KindInt, false, Int32, Float16, Int64},
		{Int16, "int16", 2, KindInt, false, Int32, Float32, Int64},
		{Int32, "int32", 4, KindInt, false, Int32, Float64, Int64},
		{Int64, "int64", 8, KindInt, false, Int64, Float64, Int64},
		{Uint8, "uint8", 1, KindInt, true, Int32, Float16, Uint64},
		{Uint16, "uint16", 2, KindInt, true, Int32, Float32, Uint64},
		{Uint32, "uint32", 4, KindInt, true, Int64, Float64, Uint64},
		{Uint64, "uint64", 8, KindInt, true, Uint64, Float64, Uint64},
		{Float16, "float16", 2, KindFloat, false, Float32, Float16, Float16},
		{BFloat16, "bfloat16", 2, KindFloat, false, Float32, BFloat16, BFloat16},
		{Float32, "float32", 4, KindFloat, false, Float32, Float32, Float32},
		{Float64, "float64", 8, KindFloat, false, Float64, Float64, Float64},
	} {
		p, err := ParseDType(c.name)
		if err != nil || p != c.d {
			t.Errorf("ParseDType(%q) got:%v,%v want:%v", c.name, p, err, c.d)
		}
		if c.d.String() != c.name || c.d.Size() != c.size || c.d.Kind() != c.kind || c.d.Unsigned() != c.unsigned || c.d.Lane() != c.lane {
			t.Errorf("%v: got:%v %d %v %v %v want:%v %d %v %v %v", c.d, c.d.String(), c.d.Size(), c.d.Kind(), c.d.Unsigned(), c.d.Lane(),
				c.name, c.size, c.kind, c.unsigned, c.lane)
		}
		if !c.d.Supported() {
			t.Errorf("%v not supported", c.d)
		}
		if c.d != Bool {
			if got, _, err := resultDType(OpSqrt, c.d); err != nil || got != c.floatMath {
				t.Errorf("Sqrt(%v) got:%v,%v want:%v", c.d, got, err, c.floatMath)
			}
		}
		if got := ReduceDType(OpSum, c.d); got != c.sumDType {
			t.Errorf("Sum(%v) got:%v want:%v", c.d, got, c.sumDType)
		}
	}
	if _, err := ParseDType("uint128"); err == nil || !strings.Contains(err.Error(), "uint128") {
		t.Errorf("ParseDType(uint128) got:%v want an error naming it", err)
	}
}

func TestPromoteWeak(t *testing.T) {
	for _, c := range []struct {
		d    DType
		w    any
		want DType
		err  string
	}{
		{Uint8, 3, Uint8, ""},
		{Uint8, 255, Uint8, ""},
		{Uint8, 256, Uint8, "out of range for uint8"},
		{Uint8, -1, Uint8, "out of range for uint8"},
		{Int8, -128, Int8, ""},
		{Int8, 128, Int8, "out of range for int8"},
		{Uint16, 2.5, Float64, ""},
		{Int16, true, Int16, ""},
		{Uint64, math.MaxInt64, Uint64, ""},
		{Float16, 3, Float16, ""},
		{BFloat16, 1.5, BFloat16, ""},
		{Bool, 2, Int64, ""},
	} {
		w, ok := WeakOf(c.w)
		if !ok {
			t.Fatalf("WeakOf(%v) failed", c.w)
		}
		d := PromoteWeak(c.d, w)
		if d != c.want {
			t.Errorf("PromoteWeak(%v, %v) got:%v want:%v", c.d, c.w, d, c.want)
		}
		_, err := w.Value(d)
		if (err != nil) != (c.err != "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("Value(%v, %v) got:%v want:%q", d, c.w, err, c.err)
		}
	}
}

func TestCastFloatToNarrowInt(t *testing.T) {
	for _, c := range []struct {
		d    DType
		v    float64
		want int64
	}{
		{Uint8, 300, 44}, {Uint8, -1, 255}, {Uint8, 255.9, 255}, {Int8, 200, -56},
		{Int8, -128.5, -128}, {Int16, 40000, -25536}, {Uint16, -2, 65534},
		{Int8, math.NaN(), 0}, {Uint32, -1, math.MaxUint32}, {Uint32, 5e9, 705032704},
		{Int8, 1e10, -1}, // saturates into int32, then wraps
		{Uint64, -1, -1}, {Uint64, 1.5e19, -3446744073709551616},
		{Uint64, 1e30, -1}, {Uint64, math.NaN(), 0}, {Uint64, math.Inf(-1), math.MinInt64},
	} {
		if got := CastFloatToInt(c.d, c.v); got != c.want {
			t.Errorf("CastFloatToInt(%v, %v) got:%d want:%d", c.d, c.v, got, c.want)
		}
	}
}

func TestRoundFloat(t *testing.T) {
	for _, c := range []struct {
		d       DType
		v, want float64
	}{
		{Float16, 1, 1}, {Float16, 65504, 65504}, {Float16, 65519, 65504}, {Float16, 65520, math.Inf(1)},
		{Float16, 1 + 0x1p-11, 1}, {Float16, 1 + 3*0x1p-11, 1 + 0x1p-9}, {Float16, 0x1p-24, 0x1p-24},
		{Float16, 0x1p-25, 0}, {Float16, 0x1.8p-25, 0x1p-24}, {Float16, -0.1, -0.0999755859375},
		{BFloat16, 1 + 0x1p-8, 1}, {BFloat16, 1 + 0x1p-7, 1 + 0x1p-7}, {BFloat16, 3.14159, 3.140625},
		{BFloat16, 0x1p-133, 0x1p-133}, {BFloat16, 3.4e38, math.Inf(1)}, {BFloat16, -0x1.fep127, -0x1.fep127},
	} {
		if got := RoundFloat(c.d, c.v); got != c.want {
			t.Errorf("RoundFloat(%v, %v) got:%v want:%v", c.d, c.v, got, c.want)
		}
	}
	if got := RoundFloat(Float16, math.NaN()); got == got {
		t.Errorf("RoundFloat(NaN) got:%v want:NaN", got)
	}
}
