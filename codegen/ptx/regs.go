// This file implements register classes, PTX type names and operand
// formatting: which virtual register file each IR type lives in, and how
// constants are written as immediates.

package ptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// regClass is a PTX virtual register file.
type regClass uint8

// The register classes. 8-bit integers live in 16-bit registers, kept
// canonical: sign-extended for s8, zero-extended for u8 and b8. Pointers to
// global and const memory are 64-bit; pointers to shared and local memory
// are 32-bit window addresses.
const (
	classPred regClass = iota
	class16
	class32
	class64
	classF32
	classF64
	numClasses
)

// classInfo gives each class its register prefix and declared type.
var classInfo = [numClasses]struct{ prefix, decl string }{
	classPred: {"%p", "pred"},
	class16:   {"%rs", "b16"},
	class32:   {"%r", "b32"},
	class64:   {"%rd", "b64"},
	classF32:  {"%f", "f32"},
	classF64:  {"%fd", "f64"},
}

// classOf returns the register class of values of type t.
func classOf(t ir.Type) regClass {
	switch {
	case t == ir.Pred:
		return classPred
	case t.IsPtr():
		if t.Space() == ir.SpaceGlobal || t.Space() == ir.SpaceConst {
			return class64
		}
		return class32
	case t == ir.F32:
		return classF32
	case t == ir.F64:
		return classF64
	case t.Bits() <= 16:
		return class16
	case t.Bits() == 32:
		return class32
	}
	return class64
}

// ptrBits returns the register width of pointers of type t.
func ptrBits(t ir.Type) int {
	if classOf(t) == class32 {
		return 32
	}
	return 64
}

// typeName returns the PTX instruction type of t: s32, u8, b64, f32, pred;
// pointers as the unsigned integer of their register width.
func typeName(t ir.Type) string {
	if t.IsPtr() {
		return "u" + strconv.Itoa(ptrBits(t))
	}
	return t.String()
}

// intName returns the type name with b types read as unsigned (for cvt,
// ld and st, which want s or u).
func intName(t ir.Type) string {
	if t.IsBits() {
		return "u" + strconv.Itoa(t.Bits())
	}
	return typeName(t)
}

// bitsName returns the untyped name of t's register width (b16 for 8-bit
// types, whose registers are 16 bits), f32 and f64 for floats and pred.
func bitsName(t ir.Type) string { return classInfo[classOf(t)].decl }

// logicName is the type of bitwise operations: b16..b64 or pred.
func logicName(t ir.Type) string {
	if t == ir.Pred {
		return "pred"
	}
	return "b" + strconv.Itoa(max(t.Bits(), 16))
}

// immediate returns constant v as a PTX immediate: decimal integers
// (unsigned ones above 0xffff in hex, for masks), f32
// as 0fXXXXXXXX and f64 as 0dXXXXXXXXXXXXXXXX (exact bit patterns, NaNs
// and infinities included).
func immediate(v *ir.Value) string {
	switch {
	case v.Type == ir.F32:
		return fmt.Sprintf("0f%08X", uint32(v.Bits))
	case v.Type == ir.F64:
		return fmt.Sprintf("0d%016X", v.Bits)
	case v.Type.IsSigned():
		return strconv.FormatInt(v.ConstInt(), 10)
	case v.Bits > 0xffff:
		return "0x" + strings.ToUpper(strconv.FormatUint(v.Bits, 16))
	}
	return strconv.FormatUint(v.Bits, 10)
}

func itoa(n int) string { return strconv.Itoa(n) }

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
