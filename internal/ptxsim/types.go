// This file implements PTX's fundamental types (PTX ISA 5.2.1): their
// names, widths and kinds, and the conversions between a value held in a
// 64-bit register slot and its typed meaning (truncation to the type's
// width, sign or zero extension into a wider register, PTX ISA 9.4.1).

package ptxsim

import (
	"math"
)

// tkind is the kind of a fundamental type.
type tkind uint8

const (
	kNone tkind = iota
	kB          // untyped bits
	kU          // unsigned integer
	kS          // signed integer
	kF          // IEEE floating point
	kPred       // predicate
)

// ptype is a PTX fundamental type: .u32, .f64, .pred ...
type ptype struct {
	kind tkind
	bits uint8
}

// The types the simulator knows (f16 and bf16 only in the instructions
// of cvthalf.go and halfops.go, which take them before these; the packed
// types are not supported and fail to decode).
var (
	tNone = ptype{}
	tPred = ptype{kPred, 1}
	tB8   = ptype{kB, 8}
	tB16  = ptype{kB, 16}
	tB32  = ptype{kB, 32}
	tB64  = ptype{kB, 64}
	tU8   = ptype{kU, 8}
	tU16  = ptype{kU, 16}
	tU32  = ptype{kU, 32}
	tU64  = ptype{kU, 64}
	tS8   = ptype{kS, 8}
	tS16  = ptype{kS, 16}
	tS32  = ptype{kS, 32}
	tS64  = ptype{kS, 64}
	tF32  = ptype{kF, 32}
	tF64  = ptype{kF, 64}
)

// typeByName maps a type suffix (without the dot) to its type.
var typeByName = map[string]ptype{
	"pred": tPred,
	"b8":   tB8, "b16": tB16, "b32": tB32, "b64": tB64,
	"u8": tU8, "u16": tU16, "u32": tU32, "u64": tU64,
	"s8": tS8, "s16": tS16, "s32": tS32, "s64": tS64,
	"f32": tF32, "f64": tF64,
}

// unsupportedTypes are PTX types the simulator recognizes but does not
// implement; decoding them fails with a message saying so.
var unsupportedTypes = map[string]bool{
	"f16": true, "f16x2": true, "bf16": true, "bf16x2": true, "tf32": true,
	"e4m3x2": true, "e5m2x2": true, "u16x2": true, "s16x2": true, "b128": true,
}

// String returns the PTX name of t ("u32").
func (t ptype) String() string {
	switch t.kind {
	case kPred:
		return "pred"
	case kB:
		return "b" + itoa(int(t.bits))
	case kU:
		return "u" + itoa(int(t.bits))
	case kS:
		return "s" + itoa(int(t.bits))
	case kF:
		return "f" + itoa(int(t.bits))
	}
	return "?"
}

func (t ptype) isInt() bool   { return t.kind == kU || t.kind == kS || t.kind == kB }
func (t ptype) isFloat() bool { return t.kind == kF }
func (t ptype) signed() bool  { return t.kind == kS }

// mask returns the mask of a t-wide value.
func (t ptype) mask() uint64 { return widthMask(int(t.bits)) }

// widthMask returns the mask of the low n bits (n in 1..64).
func widthMask(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<uint(n) - 1
}

// sext sign-extends the low n bits of v to 64 bits.
func sext(v uint64, n int) uint64 {
	if n >= 64 {
		return v
	}
	s := uint(64 - n)
	return uint64(int64(v<<s) >> s)
}

// extend returns value v of type t (its low t.bits bits) as it is written
// into a register of width regBits: sign-extended for signed integers,
// zero-extended otherwise (PTX ISA 9.4.1, Table 25).
func extend(v uint64, t ptype, regBits int) uint64 {
	if t.kind == kS {
		return sext(v, int(t.bits)) & widthMask(regBits)
	}
	return v & t.mask()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// f32 and f64 read float bits from a register slot.
func f32(v uint64) float32 { return math.Float32frombits(uint32(v)) }
func f64(v uint64) float64 { return math.Float64frombits(v) }

// b32 and b64 return float bits for a register slot.
func b32(f float32) uint64 { return uint64(math.Float32bits(f)) }
func b64(f float64) uint64 { return math.Float64bits(f) }
