// This file implements the pre-decoded instruction the simulator runs:
// every operand resolved to a register slot (immediates live in constant
// slots filled once per warp), every modifier to a small number, and the
// semantics to a function chosen when the module is parsed, so that
// running a kernel does no string handling.

package ptxsim

import "math/bits"

// ctlKind says how the scheduler treats an instruction.
type ctlKind uint8

const (
	ctlNone ctlKind = iota // computes for the active lanes, then the next instruction
	ctlBra                 // bra: jump for the lanes whose guard holds
	ctlExit                // ret, exit: the lanes whose guard holds end
	ctlBar                 // bar.sync: block-wide rendezvous
	ctlWarp                // shfl.sync, vote.sync, bar.warp.sync: warp rendezvous
	ctlTrap                // trap: the kernel aborts
)

// execFn runs one instruction for the lanes of mask m.
type execFn func(w *warp, in *inst, m uint32)

// inst is one decoded instruction.
type inst struct {
	exec   execFn
	ctl    ctlKind
	guard  int32 // predicate register of @p, -1 when unguarded
	gneg   bool  // @!p
	join   bool  // a branch target (lanes may reconverge here)
	target int32 // branch target
	nd, na uint8
	d      [4]int32 // destination slots (predicate indices for .pred)
	a      [5]int32 // source slots (predicate indices for .pred)

	t, t2 ptype // instruction type; cvt's source type
	dbits uint8 // width of the destination register (ld, cvt extension)
	rnd   uint8 // rounding mode (rnd* constants)
	ftz   bool
	sat   bool
	op    uint8 // sub-operation: compare op, atomic op, shuffle or vote mode...
	op2   uint8 // setp's boolean op
	negc  bool  // setp's !c, vote's !a
	space uint8 // state space of a memory access
	vec   uint8 // vector width of ld/st (1, 2, 4)
	nc    bool  // ld.global.nc
	off   int64 // address offset
	f1    func(a uint64) uint64
	f2    func(a, b uint64) uint64
	f3    func(a, b, c uint64) uint64

	uses, defs []int32 // registers read and written (predicates after the value registers)
	pdst       uint8   // destinations that are predicates (bit i for d[i])

	line int32
	text string
	// file and srcLine are the source position of the last .loc before
	// the instruction (file a .file number), 0 when none.
	file, srcLine int32
}

// Rounding modes.
const (
	rndNone uint8 = iota
	rndRN
	rndRZ
	rndRM
	rndRP
	rndRNI // integer rounding: nearest even
	rndRZI
	rndRMI
	rndRPI
)

// State spaces of memory accesses.
const (
	spGlobal uint8 = iota + 1
	spShared
	spLocal
	spParam
	spConst
)

var spaceName = [...]string{spGlobal: "global", spShared: "shared", spLocal: "local", spParam: "param", spConst: "const"}

// full is the mask of all 32 lanes.
const full = ^uint32(0)

// The lane loops below, and the scheduler's step, carry //go:norace: they
// touch only the register file of a warp, which belongs to the one
// goroutine running its block, and instrumenting every register access
// multiplies the simulator's cost under -race with nothing to find. The
// memory instructions (memops.go), whose global memory blocks share,
// stay instrumented.

// execUnary applies in.f1 to source 0 into destination 0.
//
//go:norace
func execUnary(w *warp, in *inst, m uint32) {
	d, a, f := w.r(in.d[0]), w.r(in.a[0]), in.f1
	if m == full {
		for l := range d {
			d[l] = f(a[l])
		}
		return
	}
	for m != 0 {
		l := bits.TrailingZeros32(m)
		m &= m - 1
		d[l] = f(a[l])
	}
}

// execBinary applies in.f2 to sources 0 and 1 into destination 0.
//
//go:norace
func execBinary(w *warp, in *inst, m uint32) {
	d, a, b, f := w.r(in.d[0]), w.r(in.a[0]), w.r(in.a[1]), in.f2
	if m == full {
		for l := range d {
			d[l] = f(a[l], b[l])
		}
		return
	}
	for m != 0 {
		l := bits.TrailingZeros32(m)
		m &= m - 1
		d[l] = f(a[l], b[l])
	}
}

// execTernary applies in.f3 to sources 0, 1 and 2 into destination 0.
//
//go:norace
func execTernary(w *warp, in *inst, m uint32) {
	d, a, b, c, f := w.r(in.d[0]), w.r(in.a[0]), w.r(in.a[1]), w.r(in.a[2]), in.f3
	if m == full {
		for l := range d {
			d[l] = f(a[l], b[l], c[l])
		}
		return
	}
	for m != 0 {
		l := bits.TrailingZeros32(m)
		m &= m - 1
		d[l] = f(a[l], b[l], c[l])
	}
}

// execMove copies source 0 into destination 0 (mov, and conversions
// that change no bits).
//
//go:norace
func execMove(w *warp, in *inst, m uint32) {
	d, a := w.r(in.d[0]), w.r(in.a[0])
	if m == full {
		*d = *a
		return
	}
	for m != 0 {
		l := bits.TrailingZeros32(m)
		m &= m - 1
		d[l] = a[l]
	}
}

// execNop does nothing (membar, fence: the simulator's memory is
// sequentially consistent).
func execNop(*warp, *inst, uint32) {}

// lowLane returns the lowest lane of a non-empty mask.
func lowLane(m uint32) int { return bits.TrailingZeros32(m) }

// opBase returns the opcode without its modifiers ("ld" of "ld.global.f32").
func opBase(op string) string {
	for i := 0; i < len(op); i++ {
		if op[i] == '.' {
			return op[:i]
		}
	}
	return op
}
