// This file implements the kernel package's intrinsics: thread and block
// indices and dimensions, grid positions and sizes, barriers and fences,
// shared memory, warp shuffles and votes, and atomics. Each is a handler
// in a table keyed by name ("Thread.Grid1", "AtomicAdd"), whose Go body
// in package kernel is the CPU semantics the handler's IR must match.

package gokernel

import (
	"go/constant"
	"go/types"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"golang.org/x/tools/go/ssa"
)

// handler builds the IR of one intrinsic from its arguments' IR values
// (a method's receiver first, with no values) and returns the result's.
type handler func(c *compiler, in *ssa.Call, targs []types.Type, args [][]*ir.Value) ([]*ir.Value, bool)

// maxStaticShared is the most static shared memory of a block (48 KiB,
// every architecture); more needs DynShared.
const maxStaticShared = 48 << 10

var intrinsics map[string]handler

func init() {
	intrinsics = map[string]handler{
		"Thread.ThreadIdx": dim3(ir.RegTidX),
		"Thread.BlockIdx":  dim3(ir.RegCtaidX),
		"Thread.BlockDim":  dim3(ir.RegNtidX),
		"Thread.GridDim":   dim3(ir.RegNctaidX),
		"Thread.Grid1":     grid(1),
		"Thread.Grid2":     grid(2),
		"Thread.Grid3":     grid(3),
		"Thread.GridSize1": gridSize(1),
		"Thread.GridSize2": gridSize(2),
		"Thread.GridSize3": gridSize(3),
		"Thread.LaneID": func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.b.Cvt(c.b.LaneID(), ir.S64))
		},
		"Thread.WarpSize": func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.f.ConstInt(ir.S64, 32))
		},
		"Thread.SyncThreads": func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
			c.b.Barrier()
			return nil, true
		},
		"Thread.SyncThreadsCount":  barRed(ir.RedPopc),
		"Thread.SyncThreadsAnd":    barRed(ir.RedAnd),
		"Thread.SyncThreadsOr":     barRed(ir.RedOr),
		"Thread.ThreadFence":       fence(ir.ScopeGPU),
		"Thread.ThreadFenceBlock":  fence(ir.ScopeCTA),
		"Thread.ThreadFenceSystem": fence(ir.ScopeSys),
		"Thread.SyncWarp": func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
			c.b.WarpSync(a[1][0])
			return nil, true
		},
		"Thread.BallotSync": vote(ir.VoteBallot),
		"Thread.AllSync":    vote(ir.VoteAll),
		"Thread.AnySync":    vote(ir.VoteAny),
		"Thread.ActiveMask": func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
			return one(c.b.ActiveMask())
		},
		"Shared":       shared,
		"DynShared":    dynShared,
		"ShflSync":     shfl(ir.ShflIdx),
		"ShflUpSync":   shfl(ir.ShflUp),
		"ShflDownSync": shfl(ir.ShflDown),
		"ShflXorSync":  shfl(ir.ShflBfly),
		"AtomicAdd":    atomic(ir.AtomAdd),
		"AtomicSub":    atomicSub,
		"AtomicExch":   atomic(ir.AtomExch),
		"AtomicMax":    atomic(ir.AtomMax),
		"AtomicMin":    atomic(ir.AtomMin),
		"AtomicCAS":    atomicCAS,
		"AtomicAnd":    atomic(ir.AtomAnd),
		"AtomicOr":     atomic(ir.AtomOr),
		"AtomicXor":    atomic(ir.AtomXor),
		"AtomicInc":    atomic(ir.AtomInc),
		"AtomicDec":    atomic(ir.AtomDec),
	}
}

func one(v *ir.Value) ([]*ir.Value, bool) { return []*ir.Value{v}, true }

// perDim returns the handler of an intrinsic whose results are one int
// per dimension x, y, z of n: at(b, d) builds dimension d's value.
func perDim(n int, at func(b *ir.Builder, d ir.SReg) *ir.Value) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
		out := make([]*ir.Value, n)
		for d := range out {
			out[d] = at(c.b, ir.SReg(d))
		}
		return out, true
	}
}

// dim3 returns the handler of a Dim3 of the special registers r, r+1,
// r+2 (x, y, z), each as an int.
func dim3(r ir.SReg) handler {
	return perDim(3, func(b *ir.Builder, d ir.SReg) *ir.Value { return b.Cvt(b.Special(r+d), ir.S64) })
}

// grid returns the handler of Grid1..3: ctaid*ntid + tid per dimension,
// computed in 64 bits.
func grid(n int) handler {
	return perDim(n, func(b *ir.Builder, d ir.SReg) *ir.Value {
		p := b.MulWide(b.Special(ir.RegCtaidX+d), b.Special(ir.RegNtidX+d))
		return b.Cvt(b.Add(p, b.Cvt(b.Special(ir.RegTidX+d), ir.U64)), ir.S64)
	})
}

// gridSize returns the handler of GridSize1..3: ntid*nctaid per
// dimension.
func gridSize(n int) handler {
	return perDim(n, func(b *ir.Builder, d ir.SReg) *ir.Value {
		return b.Cvt(b.MulWide(b.Special(ir.RegNtidX+d), b.Special(ir.RegNctaidX+d)), ir.S64)
	})
}

// barRed returns the handler of SyncThreadsCount (an int), And and Or.
func barRed(op ir.RedOp) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		r := c.b.BarRed(op, a[1][0])
		if op == ir.RedPopc {
			r = c.b.Cvt(r, ir.S64)
		}
		return one(r)
	}
}

func fence(s ir.Scope) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
		c.b.Fence(s)
		return nil, true
	}
}

// vote returns the handler of BallotSync, AllSync and AnySync: (mask, p).
func vote(m ir.VoteMode) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		return one(c.b.Vote(m, a[2][0], a[1][0]))
	}
}

// shfl returns the handler of the shuffles: (t, mask, v, lane).
func shfl(m ir.ShflMode) handler {
	return func(c *compiler, _ *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		return one(c.b.Shfl(m, a[2][0], c.b.Cvt(a[3][0], ir.U32), a[1][0]))
	}
}

// shared declares the static shared array of a kernel.Shared call: one
// per call instance, as on the CPU one per call site.
func shared(c *compiler, in *ssa.Call, targs []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
	k, ok := in.Common().Args[1].(*ssa.Const)
	if !ok || k.Value == nil {
		c.diag(in.Pos(), "kernel.Shared needs a constant size; for a size chosen at launch use kernel.DynShared and Config.SharedBytes")
		return nil, false
	}
	n, exact := constant.Int64Val(constant.ToInt(k.Value))
	if !exact || n <= 0 {
		c.diag(in.Pos(), "kernel.Shared of %s elements: the size must be positive", k.Value)
		return nil, false
	}
	mt, ok := memIR(targs[0])
	if !ok {
		c.diagType(in.Pos(), targs[0], "kernel.Shared")
		return nil, false
	}
	total := n * int64(mt.Size())
	for _, a := range c.f.Shared {
		total += int64(a.Bytes())
	}
	if total > maxStaticShared {
		c.diag(in.Pos(), "kernel.Shared: the kernel's static shared memory reaches %d bytes, more than the %d of a block; use kernel.DynShared for more", total, maxStaticShared)
		return nil, false
	}
	p := c.f.AddShared("shared", mt, int(n))
	nv := c.f.ConstInt(ir.S64, n)
	return []*ir.Value{p, nv, nv}, true
}

// dynShared views the dynamic shared memory as a slice of T: its length
// is the launch's dynamic shared bytes over the size of T.
func dynShared(c *compiler, in *ssa.Call, targs []types.Type, _ [][]*ir.Value) ([]*ir.Value, bool) {
	mt, ok := memIR(targs[0])
	if !ok {
		c.diagType(in.Pos(), targs[0], "kernel.DynShared")
		return nil, false
	}
	p := c.f.AddDynShared("dynshared", mt)
	n := c.b.Cvt(c.b.Div(c.b.DynSmemSize(), c.b.U32(uint32(mt.Size()))), ir.S64)
	return []*ir.Value{p, n, n}, true
}

// atomAddr returns the checked address of s[i] for an atomic: global or
// shared memory.
func (c *compiler) atomAddr(in *ssa.Call, s, i []*ir.Value) (*ir.Value, bool) {
	switch s[0].Type.Space() {
	case ir.SpaceLocal:
		c.diag(in.Pos(), "atomics on local arrays are not supported (a local array belongs to one thread); use plain reads and writes")
		return nil, false
	case ir.SpaceConst:
		c.diag(in.Pos(), "package-level arrays are constant in kernels; an atomic cannot write one")
		return nil, false
	}
	c.check(c.lessU(i[0], s[1]), "index out of range")
	return c.b.Index(s[0], c.indexType(i[0])), true
}

// atomic returns the handler of an atomic (s, i, v).
func atomic(op ir.AtomOp) handler {
	return func(c *compiler, in *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
		p, ok := c.atomAddr(in, a[0], a[1])
		if !ok {
			return nil, false
		}
		return one(c.b.Atomic(op, p, a[2][0]))
	}
}

// atomicSub adds the negated operand.
func atomicSub(c *compiler, in *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
	p, ok := c.atomAddr(in, a[0], a[1])
	if !ok {
		return nil, false
	}
	v := a[2][0]
	if v.Type.IsFloat() {
		v = c.b.Neg(v)
	} else {
		v = c.b.Sub(c.f.Const(v.Type, 0), v)
	}
	return one(c.b.Atomic(ir.AtomAdd, p, v))
}

// atomicCAS handles (s, i, cmp, new).
func atomicCAS(c *compiler, in *ssa.Call, _ []types.Type, a [][]*ir.Value) ([]*ir.Value, bool) {
	p, ok := c.atomAddr(in, a[0], a[1])
	if !ok {
		return nil, false
	}
	return one(c.b.AtomicCAS(p, a[2][0], a[3][0]))
}
