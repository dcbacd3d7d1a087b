// This file implements the machine level of the vector back end:
// virtual registers (vector registers of a width, AVX-512 mask
// registers), constants in memory, and machine instructions that name
// an avo instruction constructor with their operands in Go assembly
// order and say which operands they read and write.

package vecgen

import (
	"fmt"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// regClass is the register file of a virtual register.
type regClass uint8

const (
	classVec  regClass = iota // X, Y or Z registers
	classMask                 // AVX-512 K registers
)

// vreg is a virtual register: an SSA value of the machine code.
type vreg struct {
	id    int
	class regClass
	bits  int    // vector width (128, 256, 512) viewed; 16 for masks
	konst *cdata // a constant: reloaded from memory, never spilled
	uses  []int  // indices of the instructions that read it
}

func (v *vreg) String() string { return fmt.Sprintf("r%d", v.id) }

// cdata is a vector constant: one lane pattern repeated over the width.
type cdata struct {
	elem int    // lane bits: 32 or 64
	bits uint64 // the lane's pattern
	iota bool   // lanes 0, 1, 2, ... instead of a repeated pattern
}

// argKind says what a machine operand is.
type argKind uint8

const (
	argReg   argKind = iota // a virtual register (read, written or both)
	argConst                // a constant in memory
	argImm                  // an immediate
	argRaw                  // a fixed operand (a general register, an address)
)

// marg is one operand of a machine instruction.
type marg struct {
	kind argKind
	r    *vreg
	def  bool  // written (a result)
	tie  *vreg // a result that must take the register of this read operand
	c    cdata
	bits int // width of a constant operand
	view int // a register read at another width (0: its own)
	imm  uint64
	raw  operand.Op
}

// minst is one machine instruction: ctor builds it from physical
// operands in Go assembly order. A minst with ctor nil is a label or a
// raw instruction list made by custom.
type minst struct {
	ctor func(...operand.Op) (*ir.Instruction, error)
	args []marg
	// special marks the instructions the emitter writes itself: loads of
	// operand index, the store of the result, the bail-out test. Their
	// results must not share a register with their operands.
	special specialKind
	index   int
	copy    int  // loads and stores: the vector of an unrolled body
	whole   bool // loads, stores and the bail-out test of an unrolled body
}

// avoInstr is avo's instruction.
type avoInstr = ir.Instruction

// specialKind names the instructions with their own emitters.
type specialKind uint8

const (
	specNone  specialKind = iota
	specLoad              // args: def(value), [def(temp) on AVX2]
	specStore             // args: use(value), [def(temp) on AVX2]
	specBail              // args: use(predicate)
)

// use, def and friends build operands.
func use(r *vreg) marg { return marg{kind: argReg, r: r} }
func def(r *vreg) marg { return marg{kind: argReg, r: r, def: true} }

// tied is a result in the register of the read operand src.
func tied(r, src *vreg) marg      { return marg{kind: argReg, r: r, def: true, tie: src} }
func (m marg) asWidth(w int) marg { m.view = w; return m }
func imm(v uint64) marg           { return marg{kind: argImm, imm: v} }
func raw(o operand.Op) marg       { return marg{kind: argRaw, raw: o} }

// f2, f3 and f4 adapt avo's constructors of fixed arity.
func f2(f func(a, b operand.Op) (*ir.Instruction, error)) func(...operand.Op) (*ir.Instruction, error) {
	return func(o ...operand.Op) (*ir.Instruction, error) {
		if len(o) != 2 {
			return nil, fmt.Errorf("%d operands, want 2", len(o))
		}
		return f(o[0], o[1])
	}
}

func f3(f func(a, b, c operand.Op) (*ir.Instruction, error)) func(...operand.Op) (*ir.Instruction, error) {
	return func(o ...operand.Op) (*ir.Instruction, error) {
		if len(o) != 3 {
			return nil, fmt.Errorf("%d operands, want 3", len(o))
		}
		return f(o[0], o[1], o[2])
	}
}

func f4(f func(a, b, c, d operand.Op) (*ir.Instruction, error)) func(...operand.Op) (*ir.Instruction, error) {
	return func(o ...operand.Op) (*ir.Instruction, error) {
		if len(o) != 4 {
			return nil, fmt.Errorf("%d operands, want 4", len(o))
		}
		return f(o[0], o[1], o[2], o[3])
	}
}
