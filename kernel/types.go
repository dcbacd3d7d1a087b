// This file implements the scalar types of kernel parameters and arrays,
// and the type sets the generic intrinsics accept.

package kernel

import (
	"fmt"
	"reflect"
)

// Type is the scalar type of a kernel parameter or of the elements of a
// slice parameter or device array: the Go types of the kernel subset.
type Type uint8

// The types, named after their Go types.
const (
	Invalid Type = iota
	Bool
	Int // Go int: 64 bits
	Int32
	Int64
	Uint32
	Uint64
	Float32
	Float64
	numTypes
)

var typeInfo = [numTypes]struct {
	name   string
	size   int
	kind   reflect.Kind
	goType reflect.Type
}{
	Invalid: {"invalid", 0, reflect.Invalid, nil},
	Bool:    {"bool", 1, reflect.Bool, reflect.TypeFor[bool]()},
	Int:     {"int", 8, reflect.Int, reflect.TypeFor[int]()},
	Int32:   {"int32", 4, reflect.Int32, reflect.TypeFor[int32]()},
	Int64:   {"int64", 8, reflect.Int64, reflect.TypeFor[int64]()},
	Uint32:  {"uint32", 4, reflect.Uint32, reflect.TypeFor[uint32]()},
	Uint64:  {"uint64", 8, reflect.Uint64, reflect.TypeFor[uint64]()},
	Float32: {"float32", 4, reflect.Float32, reflect.TypeFor[float32]()},
	Float64: {"float64", 8, reflect.Float64, reflect.TypeFor[float64]()},
}

// String returns the Go name of the type ("float32").
func (t Type) String() string {
	if t < numTypes {
		return typeInfo[t].name
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Size returns the size of a value of the type in bytes (0 for Invalid).
func (t Type) Size() int {
	if t < numTypes {
		return typeInfo[t].size
	}
	return 0
}

// IsFloat reports whether t is float32 or float64.
func (t Type) IsFloat() bool { return t == Float32 || t == Float64 }

// IsInteger reports whether t is one of the integer types.
func (t Type) IsInteger() bool { return t >= Int && t <= Uint64 }

// typeOfKind returns the Type of a reflect kind, Invalid for kinds outside
// the subset.
func typeOfKind(k reflect.Kind) Type {
	for t := Bool; t < numTypes; t++ {
		if typeInfo[t].kind == k {
			return t
		}
	}
	return Invalid
}

// TypeOf returns the Type of T, Invalid for types outside the subset
// (named types count by their underlying type).
func TypeOf[T any]() Type { return typeOfKind(reflect.TypeFor[T]().Kind()) }

// goType returns the reflect type of t's Go type (nil for Invalid and
// values outside the types).
func (t Type) goType() reflect.Type {
	if t < numTypes {
		return typeInfo[t].goType
	}
	return nil
}

// Elem is the set of element types of slices, shared memory and device
// arrays.
type Elem interface {
	bool | int | int32 | int64 | uint32 | uint64 | float32 | float64
}

// Number is the set of types atomic add, sub and exchange and the warp
// shuffles accept.
type Number interface {
	int | int32 | int64 | uint32 | uint64 | float32 | float64
}

// Integer is the set of types atomic min, max, compare-and-swap and the
// bitwise atomics accept: the 32- and 64-bit integers.
type Integer interface {
	int | int32 | int64 | uint32 | uint64
}
