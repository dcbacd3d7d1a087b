// This file implements the templates of special registers (activemask
// included), barriers (bar.sync, bar.red, bar.warp.sync), fences, trap,
// warp shuffles and votes.

package ptx

import "github.com/fuseflow/fuseflow/codegen/ir"

// sregName gives the PTX operand of each special register.
var sregName = [...]string{
	ir.RegTidX: "%tid.x", ir.RegTidY: "%tid.y", ir.RegTidZ: "%tid.z",
	ir.RegNtidX: "%ntid.x", ir.RegNtidY: "%ntid.y", ir.RegNtidZ: "%ntid.z",
	ir.RegCtaidX: "%ctaid.x", ir.RegCtaidY: "%ctaid.y", ir.RegCtaidZ: "%ctaid.z",
	ir.RegNctaidX: "%nctaid.x", ir.RegNctaidY: "%nctaid.y", ir.RegNctaidZ: "%nctaid.z",
	ir.RegLaneID: "%laneid", ir.RegWarpSize: "WARP_SZ",
	ir.RegDynSmemSize: "%dynamic_smem_size",
}

// emitSpecial writes mov.u32 d, %sreg, or activemask.b32 d for the
// active mask (an instruction, not a register).
func emitSpecial(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if in.Reg == ir.RegActiveMask {
		e.ins("activemask.b32", e.op(in.Result()))
		return
	}
	if int(in.Reg) >= len(sregName) || sregName[in.Reg] == "" {
		e.fail(in, "unknown special register %d", in.Reg)
		return
	}
	e.ins("mov.u32", e.op(in.Result()), sregName[in.Reg])
}

// emitBarrier writes bar.sync 0.
func emitBarrier(e *fnEmitter, _ *ir.Instr, _ *opRule) { e.ins("bar.sync", "0") }

// emitBarRed writes bar.red.popc.u32 d, 0, p or bar.red.and/or.pred d, 0, p.
func emitBarRed(e *fnEmitter, in *ir.Instr, _ *opRule) {
	t := ".pred"
	if in.Red == ir.RedPopc {
		t = ".u32"
	}
	e.ins("bar.red."+in.Red.String()+t, e.op(in.Result()), "0", e.op(in.Args[0]))
}

// emitWarpSync writes bar.warp.sync mask.
func emitWarpSync(e *fnEmitter, in *ir.Instr, _ *opRule) { e.ins("bar.warp.sync", e.op(in.Args[0])) }

// emitTrap writes trap.
func emitTrap(e *fnEmitter, _ *ir.Instr, _ *opRule) { e.ins("trap") }

// fenceName gives the membar of each scope.
var fenceName = [...]string{ir.ScopeCTA: "membar.cta", ir.ScopeGPU: "membar.gl", ir.ScopeSys: "membar.sys"}

// emitFence writes membar.cta, membar.gl or membar.sys.
func emitFence(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if int(in.Scope) >= len(fenceName) {
		e.fail(in, "unknown fence scope %d", in.Scope)
		return
	}
	e.ins(fenceName[in.Scope])
}

// shflClamp is the c operand of shfl.sync per mode: 0 for up (the lowest
// lane bound), 31 otherwise (the highest lane, one segment of 32).
var shflClamp = [...]string{ir.ShflIdx: "31", ir.ShflUp: "0", ir.ShflDown: "31", ir.ShflBfly: "31"}

// emitShfl writes shfl.sync.mode.b32; 64-bit values are split into two
// 32-bit halves shuffled separately. PTX takes only the low 5 bits of
// the delta or xor mask (PTX ISA 9.7.8.6, bval = b[4:0]), while the IR
// gives a lane its own value when its source is out of the warp: for up,
// down and bfly with an operand that may exceed 31, a setp/selp keeps the
// own value then.
func emitShfl(e *fnEmitter, in *ir.Instr, _ *opRule) {
	if int(in.Shfl) >= len(shflClamp) {
		e.fail(in, "unknown shuffle mode %d", in.Shfl)
		return
	}
	mn := "shfl.sync." + in.Shfl.String() + ".b32"
	lane, mask, clamp := e.op(in.Args[1]), e.op(in.Args[2]), shflClamp[in.Shfl]
	v, d := in.Args[0], e.op(in.Result())
	if v.Type.Bits() != 64 {
		e.ins(mn, d, e.op(v), lane, clamp, mask)
	} else {
		lo, hi := e.newReg(class32), e.newReg(class32)
		e.ins("mov.b64", "{"+lo+", "+hi+"}", e.inReg(v))
		lo2, hi2 := e.newReg(class32), e.newReg(class32)
		e.ins(mn, lo2, lo, lane, clamp, mask)
		e.ins(mn, hi2, hi, lane, clamp, mask)
		e.ins("mov.b64", d, "{"+lo2+", "+hi2+"}")
	}
	if l := in.Args[1]; in.Shfl != ir.ShflIdx && !(l.IsConst() && l.Bits < 32) {
		p := e.newReg(classPred)
		e.ins("setp.gt.u32", p, lane, "31")
		e.ins("selp."+bitsName(v.Type), d, e.op(v), d, p)
	}
}

// emitVote writes vote.sync.all.pred, vote.sync.any.pred or
// vote.sync.ballot.b32.
func emitVote(e *fnEmitter, in *ir.Instr, _ *opRule) {
	t := ".pred"
	if in.Vote == ir.VoteBallot {
		t = ".b32"
	}
	e.ins("vote.sync."+in.Vote.String()+t, e.op(in.Result()), e.op(in.Args[0]), e.op(in.Args[1]))
}
