// DType: the element types of fuseflow arrays, their sizes, kinds, names
// and the lane each computes in.

package graph

import "fmt"

// DType is the element type of an array. The zero value is Invalid.
type DType uint8

// The element types. The numbering keeps the values of the first five
// (they appear in plan keys and tests) and adds the others after them.
const (
	Invalid DType = iota
	Bool
	Int32
	Int64
	Float32
	Float64
	Float16  // IEEE 754 binary16, computed in float32
	BFloat16 // bfloat16 (float32's top 16 bits), computed in float32
	Int8
	Int16
	Uint8
	Uint16
	Uint32
	Uint64
	numDTypes
)

// Kind groups dtypes for promotion: bool < int < float. Signed and
// unsigned integers are both KindInt (see DType.Unsigned).
type Kind uint8

// The kinds, ordered so that a larger kind wins in promotion.
const (
	KindInvalid Kind = iota
	KindBool
	KindInt
	KindFloat
)

type dtypeInfo struct {
	name     string
	size     int
	kind     Kind
	unsigned bool
	lane     DType
}

var dtypeTable = [numDTypes]dtypeInfo{
	Invalid:  {"invalid", 0, KindInvalid, false, Invalid},
	Bool:     {"bool", 1, KindBool, false, Bool},
	Int8:     {"int8", 1, KindInt, false, Int32},
	Int16:    {"int16", 2, KindInt, false, Int32},
	Int32:    {"int32", 4, KindInt, false, Int32},
	Int64:    {"int64", 8, KindInt, false, Int64},
	Uint8:    {"uint8", 1, KindInt, true, Int32},
	Uint16:   {"uint16", 2, KindInt, true, Int32},
	Uint32:   {"uint32", 4, KindInt, true, Int64},
	Uint64:   {"uint64", 8, KindInt, true, Uint64},
	Float16:  {"float16", 2, KindFloat, false, Float32},
	BFloat16: {"bfloat16", 2, KindFloat, false, Float32},
	Float32:  {"float32", 4, KindFloat, false, Float32},
	Float64:  {"float64", 8, KindFloat, false, Float64},
}

func (d DType) info() dtypeInfo {
	if d < numDTypes {
		return dtypeTable[d]
	}
	return dtypeTable[Invalid]
}

// String returns the NumPy name of d ("float32"; "bfloat16" as in JAX).
func (d DType) String() string {
	if d >= numDTypes {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return d.info().name
}

// Size returns the size of one element in bytes (bool is one byte).
func (d DType) Size() int { return d.info().size }

// Bits returns the size of one element in bits.
func (d DType) Bits() int { return 8 * d.info().size }

// Kind returns the promotion kind of d.
func (d DType) Kind() Kind { return d.info().kind }

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool { return d.Kind() == KindFloat }

// IsInt reports whether d is an integer type, signed or unsigned.
func (d DType) IsInt() bool { return d.Kind() == KindInt }

// Unsigned reports whether d is an unsigned integer type.
func (d DType) Unsigned() bool { return d.info().unsigned }

// IsBool reports whether d is Bool.
func (d DType) IsBool() bool { return d == Bool }

// Supported reports whether operations accept d.
func (d DType) Supported() bool { return d > Invalid && d < numDTypes }

// Lane returns the dtype whose arithmetic computes d's values: int8,
// int16, uint8 and uint16 compute in int32, uint32 in int64, float16 and
// bfloat16 in float32; every other dtype is its own lane. A value of d
// held in its lane is always in d's range (integers) or exactly a value
// of d (floats): each op's result is narrowed to d (wrapped at d's width,
// or rounded to nearest even) before it is used or stored, so computing
// in the lane gives the result of computing in d. For + - * / and sqrt of
// float16 and bfloat16 float32 is wide enough that rounding twice equals
// rounding once.
func (d DType) Lane() DType { return d.info().lane }

// Narrow reports whether d computes in a wider lane than itself.
func (d DType) Narrow() bool { return d.Supported() && d.Lane() != d }

// ParseDType returns the dtype with the NumPy name s ("uint8",
// "bfloat16").
func ParseDType(s string) (DType, error) {
	for i, in := range dtypeTable {
		if i != int(Invalid) && in.name == s {
			return DType(i), nil
		}
	}
	return Invalid, fmt.Errorf("graph: unknown dtype %q (want one of %v)", s, DTypes())
}

// DTypes lists the supported dtypes: bool, the signed integers, the
// unsigned integers, then the floats, each by size.
func DTypes() []DType {
	return []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float16, BFloat16, Float32, Float64}
}
