// This file implements register allocation for the straight-line body
// of a vector loop: operands are brought into registers as instructions
// need them; when the registers run out, the value whose next use is
// furthest away is evicted (constants are reloaded from memory, other
// values stored once to a stack slot and reloaded from it). Results may
// take the register of an operand read for the last time; a tied result
// (the accumulator of a fused multiply-add) takes its operand's register,
// copied first when the operand lives on.

package vecgen

import (
	"fmt"
	"sort"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
)

// placed is one machine instruction after allocation: the physical
// operands, or the instructions inserted before it (spills, reloads,
// copies) as instructions of their own.
type placed struct {
	m   *minst
	ops []operand.Op
}

// allocator assigns physical registers.
type allocator struct {
	isa    *ISA
	code   []minst
	out    []placed
	phys   map[*vreg]int // register index, or absent
	holder [2][]*vreg    // by class: the value in each register
	free   [2][]bool     // registers the class may use
	slot   map[*vreg]int
	nslot  int
	next   map[*vreg]int // position in uses of the next use
	locked map[int]bool  // registers of the current instruction (class<<8 | index)
	konst  func(c cdata, width int) operand.Mem
	err    error
}

// vecReg returns the physical vector register i at a width.
func vecReg(i, bits int) reg.Register {
	z := zregs[i]
	switch bits {
	case 128:
		return z.AsX()
	case 256:
		return z.AsY()
	}
	return z.AsZ()
}

var zregs = []reg.VecPhysical{reg.Z0, reg.Z1, reg.Z2, reg.Z3, reg.Z4, reg.Z5, reg.Z6, reg.Z7, reg.Z8, reg.Z9,
	reg.Z10, reg.Z11, reg.Z12, reg.Z13, reg.Z14, reg.Z15, reg.Z16, reg.Z17, reg.Z18, reg.Z19, reg.Z20, reg.Z21,
	reg.Z22, reg.Z23, reg.Z24, reg.Z25, reg.Z26, reg.Z27, reg.Z28, reg.Z29, reg.Z30, reg.Z31}

var kregs = []reg.Register{reg.K0, reg.K1, reg.K2, reg.K3, reg.K4, reg.K5, reg.K6, reg.K7}

func (a *allocator) physOp(r *vreg, i, view int) operand.Op {
	if r.class == classMask {
		return kregs[i]
	}
	if view == 0 {
		view = r.bits
	}
	return vecReg(i, view)
}

// slotMem returns the stack slot s.
func (a *allocator) slotMem(s int) operand.Mem {
	return operand.NewStackAddr(s * a.isa.VecBits / 8)
}

// emitRaw appends an instruction inserted by the allocator.
func (a *allocator) emitRaw(c ctor, ops ...operand.Op) {
	a.out = append(a.out, placed{m: &minst{ctor: c}, ops: ops})
}

// spillOps are the moves of a class to and from memory.
func (a *allocator) moveCtor(class regClass) ctor {
	if class == classMask {
		return f2(x86.KMOVW)
	}
	return x86.VMOVUPS
}

func (a *allocator) full(class regClass) int {
	if class == classMask {
		return 16
	}
	return a.isa.VecBits
}

// nextUse returns the position of r's next use at or after pos (a large
// number when none).
func (a *allocator) nextUse(r *vreg, pos int) int {
	i := sort.SearchInts(r.uses, pos)
	if i == len(r.uses) {
		return 1 << 30
	}
	return r.uses[i]
}

// take returns a free register of the class, evicting one when none is.
func (a *allocator) take(class regClass, pos int) int {
	for i, ok := range a.free[class] {
		if ok && a.holder[class][i] == nil && !a.locked[int(class)<<8|i] {
			return i
		}
	}
	best, far := -1, -1
	for i, v := range a.holder[class] {
		if v == nil || !a.free[class][i] || a.locked[int(class)<<8|i] {
			continue
		}
		d := a.nextUse(v, pos)
		if v.konst != nil || a.slot[v] >= 0 {
			d += 1 << 20 // cheaper to evict: no store
		}
		if d > far {
			best, far = i, d
		}
	}
	if best < 0 {
		a.err = fmt.Errorf("vecgen: %s: out of registers", a.isa.Name)
		return 0
	}
	v := a.holder[class][best]
	if v.konst == nil && a.slot[v] < 0 {
		a.slot[v] = a.nslot
		a.nslot++
		a.emitRaw(a.moveCtor(class), a.physOp(v, best, a.full(class)), a.slotMem(a.slot[v]))
	}
	delete(a.phys, v)
	a.holder[class][best] = nil
	return best
}

// load brings r into register i.
func (a *allocator) load(r *vreg, i int) {
	switch {
	case r.konst != nil:
		a.emitRaw(x86.VMOVUPS, a.konst(*r.konst, a.isa.VecBits), a.physOp(r, i, a.full(r.class)))
	case a.slot[r] >= 0:
		a.emitRaw(a.moveCtor(r.class), a.slotMem(a.slot[r]), a.physOp(r, i, a.full(r.class)))
	default:
		a.err = fmt.Errorf("vecgen: %s: r%d read before it is written", a.isa.Name, r.id)
	}
	a.assign(r, i)
}

func (a *allocator) assign(r *vreg, i int) {
	a.phys[r] = i
	a.holder[r.class][i] = r
}

func (a *allocator) release(r *vreg) {
	if i, ok := a.phys[r]; ok {
		delete(a.phys, r)
		if a.holder[r.class][i] == r {
			a.holder[r.class][i] = nil
		}
	}
}

// allocate runs over the code. The constants of pins are held in the
// vector registers pins gives them for the whole function (loaded before
// the loop, see asm.go): their operands read the register instead of
// memory, and no other value takes it.
func allocate(isa *ISA, code []minst, konst func(c cdata, width int) operand.Mem, pins map[cdata]int) ([]placed, int, error) {
	a := &allocator{isa: isa, code: code, phys: map[*vreg]int{}, slot: map[*vreg]int{}, konst: konst}
	a.holder[classVec] = make([]*vreg, isa.NVec)
	a.free[classVec] = make([]bool, isa.NVec)
	for i := range a.free[classVec] {
		a.free[classVec][i] = true
	}
	for _, i := range pins {
		a.free[classVec][i] = false
	}
	pinned := func(r *vreg) (int, bool) {
		if r.konst == nil {
			return 0, false
		}
		i, ok := pins[*r.konst]
		return i, ok
	}
	a.holder[classMask] = make([]*vreg, 8)
	a.free[classMask] = make([]bool, 8)
	if isa.Masks {
		for i := 2; i < 8; i++ { // K0 means no mask, K1 holds the active lanes
			a.free[classMask][i] = true
		}
	}
	// Uses of each register, in order (counted afresh: the same code may
	// be allocated more than once).
	for pos := range code {
		for _, g := range code[pos].args {
			if g.kind == argReg {
				g.r.uses = nil
				if g.tie != nil {
					g.tie.uses = nil
				}
			}
		}
	}
	all := map[*vreg]bool{}
	for pos := range code {
		for _, g := range code[pos].args {
			if g.kind != argReg {
				continue
			}
			all[g.r] = true
			if !g.def {
				g.r.uses = append(g.r.uses, pos)
			}
			if g.tie != nil {
				all[g.tie] = true
				g.tie.uses = append(g.tie.uses, pos)
			}
		}
	}
	for r := range all {
		a.slot[r] = -1
	}
	lastUse := func(r *vreg) int {
		if len(r.uses) == 0 {
			return -1
		}
		return r.uses[len(r.uses)-1]
	}
	for pos := range code {
		m := &code[pos]
		a.locked = map[int]bool{}
		// Operands into registers.
		var reads []*vreg
		for _, g := range m.args {
			if g.kind != argReg {
				continue
			}
			r := g.r
			if g.def {
				if g.tie == nil {
					continue
				}
				r = g.tie
			}
			reads = append(reads, r)
		}
		readPhys := map[*vreg]int{}
		for _, r := range reads {
			i, ok := a.phys[r]
			if pi, pin := pinned(r); pin {
				i, ok = pi, true
			}
			if !ok {
				i = a.take(r.class, pos)
				a.load(r, i)
			}
			readPhys[r] = i
			a.locked[int(r.class)<<8|i] = true
		}
		// Results.
		dying := map[*vreg]bool{}
		for _, r := range reads {
			if lastUse(r) == pos && r.konst == nil {
				dying[r] = true
			}
		}
		for gi, g := range m.args {
			if g.kind != argReg || !g.def {
				continue
			}
			if g.tie != nil {
				src := g.tie
				si := readPhys[src]
				if dying[src] {
					a.release(src)
					delete(dying, src)
					a.assign(g.r, si)
				} else {
					i := a.take(g.r.class, pos)
					a.emitRaw(a.moveCtor(g.r.class), a.physOp(src, si, a.full(src.class)), a.physOp(src, i, a.full(src.class)))
					a.assign(g.r, i)
				}
				a.locked[int(g.r.class)<<8|a.phys[g.r]] = true
				continue
			}
			reused := false
			if m.special == specNone {
				for _, r := range reads { // in operand order, so that the output is deterministic
					if !dying[r] {
						continue
					}
					if r.class == g.r.class && !reusedBy(m, gi, r) {
						i := a.phys[r]
						a.release(r)
						delete(dying, r)
						a.assign(g.r, i)
						reused = true
						break
					}
				}
			}
			if !reused {
				i := a.take(g.r.class, pos)
				a.assign(g.r, i)
			}
			a.locked[int(g.r.class)<<8|a.phys[g.r]] = true
		}
		if a.err != nil {
			return nil, 0, a.err
		}
		// Physical operands.
		ops := make([]operand.Op, len(m.args))
		for i, g := range m.args {
			switch g.kind {
			case argReg:
				if g.def {
					ops[i] = a.physOp(g.r, a.phys[g.r], g.view)
				} else {
					ops[i] = a.physOp(g.r, readPhys[g.r], g.view)
				}
			case argConst:
				if pi, ok := pins[g.c]; ok {
					ops[i] = vecReg(pi, g.bits)
					break
				}
				ops[i] = konst(g.c, g.bits)
			case argImm:
				ops[i] = operand.U8(g.imm)
			case argRaw:
				ops[i] = g.raw
			}
		}
		a.out = append(a.out, placed{m: m, ops: ops})
		for r := range dying {
			a.release(r)
		}
		for _, g := range m.args {
			if g.kind == argReg && g.def && len(g.r.uses) == 0 {
				a.release(g.r) // results nothing reads (temporaries)
			}
		}
	}
	return a.out, a.nslot, a.err
}

// reusedBy is a hook for operands that must not share a register with a
// result; none do among single instructions.
func reusedBy(m *minst, gi int, r *vreg) bool { return false }
