// DType: the element types of fuseflow arrays, their sizes, kinds and names.

package graph

import "fmt"

// DType is the element type of an array. The zero value is Invalid.
// Float16 and BFloat16 are reserved: they have names and sizes but no
// operation accepts them yet.
type DType uint8

// The element types. The numbering leaves room for more without changing
// the existing values.
const (
	Invalid DType = iota
	Bool
	Int32
	Int64
	Float32
	Float64
	Float16  // reserved: no op accepts it yet
	BFloat16 // reserved: no op accepts it yet
)

// Kind groups dtypes for promotion: bool < int < float.
type Kind uint8

// The kinds, ordered so that a larger kind wins in promotion.
const (
	KindInvalid Kind = iota
	KindBool
	KindInt
	KindFloat
)

type dtypeInfo struct {
	name string
	size int
	kind Kind
}

var dtypeTable = [...]dtypeInfo{
	Invalid:  {"invalid", 0, KindInvalid},
	Bool:     {"bool", 1, KindBool},
	Int32:    {"int32", 4, KindInt},
	Int64:    {"int64", 8, KindInt},
	Float32:  {"float32", 4, KindFloat},
	Float64:  {"float64", 8, KindFloat},
	Float16:  {"float16", 2, KindFloat},
	BFloat16: {"bfloat16", 2, KindFloat},
}

func (d DType) info() dtypeInfo {
	if int(d) < len(dtypeTable) {
		return dtypeTable[d]
	}
	return dtypeTable[Invalid]
}

// String returns the NumPy name of d ("float32").
func (d DType) String() string {
	if int(d) >= len(dtypeTable) {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return d.info().name
}

// Size returns the size of one element in bytes (bool is one byte).
func (d DType) Size() int { return d.info().size }

// Kind returns the promotion kind of d.
func (d DType) Kind() Kind { return d.info().kind }

// IsFloat reports whether d is a floating-point type.
func (d DType) IsFloat() bool { return d.Kind() == KindFloat }

// IsInt reports whether d is a (signed) integer type.
func (d DType) IsInt() bool { return d.Kind() == KindInt }

// IsBool reports whether d is Bool.
func (d DType) IsBool() bool { return d == Bool }

// Supported reports whether operations accept d (the reserved
// half-precision types are not supported yet).
func (d DType) Supported() bool { return d >= Bool && d <= Float64 }

// ParseDType returns the dtype with the NumPy name s.
func ParseDType(s string) (DType, error) {
	for i, in := range dtypeTable {
		if i != int(Invalid) && in.name == s {
			return DType(i), nil
		}
	}
	return Invalid, fmt.Errorf("graph: unknown dtype %q", s)
}

// DTypes lists the supported dtypes in promotion order.
func DTypes() []DType { return []DType{Bool, Int32, Int64, Float32, Float64} }
