// This file implements the IR's value types: scalar kinds, address spaces and
// typed pointers, packed into one comparable Type word.

package ir

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/enum"
)

// Kind is the scalar kind of a value: a predicate, an untyped bit pattern, a
// signed or unsigned integer, a float, or a pointer.
type Kind uint8

// The scalar kinds. B* are untyped bit patterns (bitwise operations, loads,
// stores, moves); S* and U* are signed and unsigned integers; F* are IEEE
// floats. F16 is reserved: the verifier rejects it for now.
const (
	KindInvalid Kind = iota
	KindPred
	KindB8
	KindB16
	KindB32
	KindB64
	KindS8
	KindS16
	KindS32
	KindS64
	KindU8
	KindU16
	KindU32
	KindU64
	KindF16
	KindF32
	KindF64
	KindPtr
	numKinds
)

// Space is a memory address space.
type Space uint8

// The address spaces. SpaceNone is the zero value and means "not a pointer".
const (
	SpaceNone Space = iota
	SpaceGlobal
	SpaceShared
	SpaceLocal
	SpaceConst
	SpaceParam
	numSpaces
)

var spaceNames = [numSpaces]string{"none", "global", "shared", "local", "const", "param"}

// String returns the PTX name of the space ("global", "shared", ...).
func (s Space) String() string {
	return enum.Numbered(spaceNames[:], s, "space")
}

// Type is the type of an IR value: a scalar kind or a pointer with an
// address space and an element kind. Types are small comparable words; use
// == to compare them. The zero Type is Invalid.
//
// Layout: bits 0-7 kind, bits 8-15 space (pointers only), bits 16-23
// element kind (pointers only).
type Type uint32

// The scalar types.
const (
	Invalid = Type(KindInvalid)
	Pred    = Type(KindPred)
	B8      = Type(KindB8)
	B16     = Type(KindB16)
	B32     = Type(KindB32)
	B64     = Type(KindB64)
	S8      = Type(KindS8)
	S16     = Type(KindS16)
	S32     = Type(KindS32)
	S64     = Type(KindS64)
	U8      = Type(KindU8)
	U16     = Type(KindU16)
	U32     = Type(KindU32)
	U64     = Type(KindU64)
	F16     = Type(KindF16)
	F32     = Type(KindF32)
	F64     = Type(KindF64)
)

// PtrTo returns the pointer type to elements of scalar type elem in the
// given space. PtrTo(SpaceGlobal, F32) prints as "ptr.global.f32". A
// non-scalar elem or SpaceNone yields a pointer the verifier rejects.
func PtrTo(space Space, elem Type) Type {
	return Type(KindPtr) | Type(space)<<8 | Type(elem.Kind())<<16
}

// Kind returns the type's kind (KindPtr for pointers).
func (t Type) Kind() Kind { return Kind(t & 0xff) }

// IsPtr reports whether t is a pointer type.
func (t Type) IsPtr() bool { return t.Kind() == KindPtr }

// Space returns a pointer type's address space, SpaceNone for scalars.
func (t Type) Space() Space {
	if !t.IsPtr() {
		return SpaceNone
	}
	return Space(t >> 8 & 0xff)
}

// Elem returns a pointer type's element type, Invalid for scalars.
func (t Type) Elem() Type {
	if !t.IsPtr() {
		return Invalid
	}
	return Type(t >> 16 & 0xff)
}

// kindInfo describes one scalar kind.
type kindInfo struct {
	name   string
	bits   int
	signed bool
	intish bool // b, s or u
	float  bool
}

var kinds = [numKinds]kindInfo{
	KindInvalid: {name: "invalid"},
	KindPred:    {name: "pred", bits: 1},
	KindB8:      {name: "b8", bits: 8, intish: true},
	KindB16:     {name: "b16", bits: 16, intish: true},
	KindB32:     {name: "b32", bits: 32, intish: true},
	KindB64:     {name: "b64", bits: 64, intish: true},
	KindS8:      {name: "s8", bits: 8, intish: true, signed: true},
	KindS16:     {name: "s16", bits: 16, intish: true, signed: true},
	KindS32:     {name: "s32", bits: 32, intish: true, signed: true},
	KindS64:     {name: "s64", bits: 64, intish: true, signed: true},
	KindU8:      {name: "u8", bits: 8, intish: true},
	KindU16:     {name: "u16", bits: 16, intish: true},
	KindU32:     {name: "u32", bits: 32, intish: true},
	KindU64:     {name: "u64", bits: 64, intish: true},
	KindF16:     {name: "f16", bits: 16, float: true},
	KindF32:     {name: "f32", bits: 32, float: true},
	KindF64:     {name: "f64", bits: 64, float: true},
	KindPtr:     {name: "ptr", bits: 64},
}

func (t Type) info() kindInfo {
	if k := t.Kind(); k < numKinds {
		return kinds[k]
	}
	return kinds[KindInvalid]
}

// Bits returns the width of the type in bits: 1 for pred, 64 for pointers
// (the interpreter's and the global space's width; the PTX emitter may use
// 32-bit registers for shared and local pointers).
func (t Type) Bits() int { return t.info().bits }

// Size returns the size of the type in memory in bytes (1 for pred, which
// cannot be loaded or stored).
func (t Type) Size() int {
	if t == Pred {
		return 1
	}
	return t.info().bits / 8
}

// IsValid reports whether t is a well-formed type: a known scalar kind, or a
// pointer with a real space and a loadable scalar element.
func (t Type) IsValid() bool {
	k := t.Kind()
	if k == KindInvalid || k >= numKinds {
		return false
	}
	if k != KindPtr {
		return t>>8 == 0
	}
	e := t.Elem()
	return t>>24 == 0 && t.Space() != SpaceNone && t.Space() < numSpaces &&
		e != Pred && e.Kind() != KindInvalid && e.Kind() < KindPtr
}

// IsInt reports whether t is a b, s or u integer type.
func (t Type) IsInt() bool { return t.info().intish }

// IsArith reports whether t is an s or u integer type (the integer types
// that arithmetic accepts).
func (t Type) IsArith() bool { return t.info().intish && !t.IsBits() }

// IsBits reports whether t is an untyped bit-pattern type b8..b64.
func (t Type) IsBits() bool { k := t.Kind(); return k >= KindB8 && k <= KindB64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t.info().signed }

// IsUnsigned reports whether t is an unsigned integer type u8..u64.
func (t Type) IsUnsigned() bool { k := t.Kind(); return k >= KindU8 && k <= KindU64 }

// IsFloat reports whether t is a float type.
func (t Type) IsFloat() bool { return t.info().float }

// IsNumeric reports whether t is an arithmetic integer or a float.
func (t Type) IsNumeric() bool { return t.IsArith() || t.IsFloat() }

// IntOf returns the integer type of the given width and signedness: IntOf(32,
// true) is S32. Widths other than 8, 16, 32 and 64 give Invalid.
func IntOf(bits int, signed bool) Type {
	var s, u Type
	switch bits {
	case 8:
		s, u = S8, U8
	case 16:
		s, u = S16, U16
	case 32:
		s, u = S32, U32
	case 64:
		s, u = S64, U64
	default:
		return Invalid
	}
	if signed {
		return s
	}
	return u
}

// BitsOf returns the bit-pattern type of the given width (8..64), Invalid
// otherwise.
func BitsOf(bits int) Type {
	switch bits {
	case 8:
		return B8
	case 16:
		return B16
	case 32:
		return B32
	case 64:
		return B64
	}
	return Invalid
}

// String returns the type's name: "f32", "pred", "ptr.global.f32".
func (t Type) String() string {
	if t.IsPtr() {
		return "ptr." + t.Space().String() + "." + t.Elem().String()
	}
	if t.Kind() >= numKinds || t>>8 != 0 {
		return fmt.Sprintf("type(%#x)", uint32(t))
	}
	return t.info().name
}
