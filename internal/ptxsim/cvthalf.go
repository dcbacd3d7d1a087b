// This file implements cvt between .f32 and the 16-bit float types
// (PTX ISA 9.7.8.18): cvt.rn.f16.f32 and cvt.rn.bf16.f32 round to
// nearest even (overflow to infinity, subnormals kept), cvt.f32.f16 and
// cvt.f32.bf16 widen exactly; the 16-bit values live in .b16 (or .u16,
// .s16) registers. PTX does not specify the NaN a conversion gives: the
// simulator writes the canonical NaN (0x7fff, 0x7fffffff), dropping the
// sign and payload, so that code relying on them fails its tests here.
// Other rounding modes, .ftz and .sat are not supported; the arithmetic
// on .f16 and .bf16 is in halfops.go.

package ptxsim

import (
	"math"
	"slices"

	"github.com/fuseflow/fuseflow/internal/half"
)

// halfCvt is one supported 16-bit float conversion.
type halfCvt struct {
	narrow bool // f32 to the 16-bit type, with .rn
	conv   func(a uint64) uint64
}

// halfCvts maps the destination and source type names of a cvt to its
// conversion.
var halfCvts = map[[2]string]halfCvt{
	{"f16", "f32"}: {narrow: true, conv: func(a uint64) uint64 {
		if isNaN32(a) {
			return 0x7fff
		}
		return uint64(half.FromFloat32(math.Float32frombits(uint32(a))))
	}},
	{"bf16", "f32"}: {narrow: true, conv: func(a uint64) uint64 {
		if isNaN32(a) {
			return 0x7fff
		}
		return uint64(half.BFromFloat32(math.Float32frombits(uint32(a))))
	}},
	{"f32", "f16"}: {conv: func(a uint64) uint64 {
		if a&0x7c00 == 0x7c00 && a&0x3ff != 0 {
			return 0x7fffffff
		}
		return uint64(math.Float32bits(half.Float16(a).Float32()))
	}},
	{"f32", "bf16"}: {conv: func(a uint64) uint64 {
		if a&0x7f80 == 0x7f80 && a&0x7f != 0 {
			return 0x7fffffff
		}
		return uint64(uint32(uint16(a)) << 16)
	}},
}

func isNaN32(a uint64) bool { return uint32(a)&0x7fffffff > 0x7f800000 }

// decodeCvtHalf decodes a cvt whose types are .f16 or .bf16 and .f32;
// ok is false when the cvt names neither 16-bit float type.
func decodeCvtHalf(d *decoder, s *rawStmt, ms *modset, in *inst) (ok bool, err error) {
	var types []string
	var mods []string
	for _, m := range ms.m {
		switch m {
		case "f16", "bf16", "f32", "f64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "b16", "b32":
			types = append(types, m)
		default:
			mods = append(mods, m)
		}
	}
	if !slices.Contains(types, "f16") && !slices.Contains(types, "bf16") {
		return false, nil
	}
	c, found := halfCvts[[2]string{types[0], types[len(types)-1]}]
	if len(types) != 2 || !found {
		return true, d.errf("%s: only cvt.rn.f16.f32, cvt.rn.bf16.f32, cvt.f32.f16 and cvt.f32.bf16 are supported", s.opcode)
	}
	if c.narrow && (len(mods) != 1 || mods[0] != "rn") || !c.narrow && len(mods) != 0 {
		return true, d.errf("%s: a conversion to .f16 or .bf16 takes .rn alone, one from them no modifier", s.opcode)
	}
	for i := range ms.used {
		ms.used[i] = true
	}
	if err := d.nops(s, 2); err != nil {
		return true, err
	}
	dt, st := tF32, tB16
	if c.narrow {
		dt, st = tB16, tF32
	}
	if in.d[0], in.dbits, err = d.dst(s.ops[0], dt, true); err != nil {
		return true, err
	}
	if in.a[0], err = d.src(s.ops[1], st, true); err != nil {
		return true, err
	}
	in.t, in.t2, in.nd, in.na = dt, st, 1, 1
	in.exec = execUnary
	in.f1 = c.conv
	return true, nil
}
