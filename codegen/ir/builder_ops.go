// This file implements the Builder's typed instruction methods: arithmetic,
// compare, select, conversions, memory, address arithmetic, special
// registers, synchronization, atomics, warp operations and math calls.

package ir

// Add returns x + y.
func (b *Builder) Add(x, y *Value) *Value { return b.emit1(OpAdd, Invalid, x, y) }

// Sub returns x - y.
func (b *Builder) Sub(x, y *Value) *Value { return b.emit1(OpSub, Invalid, x, y) }

// Mul returns x * y (the low half for integers).
func (b *Builder) Mul(x, y *Value) *Value { return b.emit1(OpMul, Invalid, x, y) }

// Div returns x / y (integer division truncates; float division is IEEE).
func (b *Builder) Div(x, y *Value) *Value { return b.emit1(OpDiv, Invalid, x, y) }

// DivApprox returns x / y for floats allowing a fast approximation.
func (b *Builder) DivApprox(x, y *Value) *Value {
	in := b.Emit(OpDiv, Invalid, x, y)
	in.Approx = true
	return in.Result()
}

// Rem returns the integer remainder x % y (sign of x).
func (b *Builder) Rem(x, y *Value) *Value { return b.emit1(OpRem, Invalid, x, y) }

// Neg returns -x.
func (b *Builder) Neg(x *Value) *Value { return b.emit1(OpNeg, Invalid, x) }

// Abs returns |x|.
func (b *Builder) Abs(x *Value) *Value { return b.emit1(OpAbs, Invalid, x) }

// Min returns min(x, y); for floats a NaN operand yields the other.
func (b *Builder) Min(x, y *Value) *Value { return b.emit1(OpMin, Invalid, x, y) }

// Max returns max(x, y); for floats a NaN operand yields the other.
func (b *Builder) Max(x, y *Value) *Value { return b.emit1(OpMax, Invalid, x, y) }

// FMA returns x*y + z with a single rounding (floats).
func (b *Builder) FMA(x, y, z *Value) *Value { return b.emit1(OpFMA, Invalid, x, y, z) }

// MulHi returns the high half of the double-width product x*y.
func (b *Builder) MulHi(x, y *Value) *Value { return b.emit1(OpMulHi, Invalid, x, y) }

// MulWide returns the full product of two 16- or 32-bit integers as an
// integer twice as wide with the same signedness.
func (b *Builder) MulWide(x, y *Value) *Value {
	t := Invalid
	if x != nil {
		t = IntOf(2*x.Type.Bits(), x.Type.IsSigned())
	}
	return b.emit1(OpMulWide, t, x, y)
}

// Shl returns x << n (n is u32).
func (b *Builder) Shl(x, n *Value) *Value { return b.emit1(OpShl, Invalid, x, n) }

// Shr returns x >> n (n is u32): arithmetic for signed x, logical otherwise.
func (b *Builder) Shr(x, n *Value) *Value { return b.emit1(OpShr, Invalid, x, n) }

// And returns x & y (integers or preds).
func (b *Builder) And(x, y *Value) *Value { return b.emit1(OpAnd, Invalid, x, y) }

// Or returns x | y (integers or preds).
func (b *Builder) Or(x, y *Value) *Value { return b.emit1(OpOr, Invalid, x, y) }

// Xor returns x ^ y (integers or preds).
func (b *Builder) Xor(x, y *Value) *Value { return b.emit1(OpXor, Invalid, x, y) }

// Not returns the bitwise (or logical, for pred) complement of x.
func (b *Builder) Not(x *Value) *Value { return b.emit1(OpNot, Invalid, x) }

// Popc returns the number of set bits of x as u32.
func (b *Builder) Popc(x *Value) *Value { return b.emit1(OpPopc, Invalid, x) }

// Clz returns the number of leading zero bits of x as u32.
func (b *Builder) Clz(x *Value) *Value { return b.emit1(OpClz, Invalid, x) }

// Cmp returns the pred x <c> y.
func (b *Builder) Cmp(c CmpPred, x, y *Value) *Value {
	in := b.Emit(OpCmp, Invalid, x, y)
	in.Cmp = c
	return in.Result()
}

// Eq returns x == y (ordered for floats).
func (b *Builder) Eq(x, y *Value) *Value { return b.Cmp(CmpEQ, x, y) }

// Ne returns x != y (for floats ordered: false when either is NaN; use
// Cmp(CmpNEU, ...) for Go's !=).
func (b *Builder) Ne(x, y *Value) *Value { return b.Cmp(CmpNE, x, y) }

// Lt returns x < y.
func (b *Builder) Lt(x, y *Value) *Value { return b.Cmp(CmpLT, x, y) }

// Le returns x <= y.
func (b *Builder) Le(x, y *Value) *Value { return b.Cmp(CmpLE, x, y) }

// Gt returns x > y.
func (b *Builder) Gt(x, y *Value) *Value { return b.Cmp(CmpGT, x, y) }

// Ge returns x >= y.
func (b *Builder) Ge(x, y *Value) *Value { return b.Cmp(CmpGE, x, y) }

// Select returns x if c else y.
func (b *Builder) Select(c, x, y *Value) *Value { return b.emit1(OpSelect, Invalid, c, x, y) }

// Cvt converts x to type to with the default rounding (nearest-even for
// float results, toward zero for float to integer). Converting to x's own
// type returns x unchanged without emitting anything.
func (b *Builder) Cvt(x *Value, to Type) *Value { return b.CvtRnd(x, to, RndDefault) }

// CvtRnd converts x to type to with rounding mode r.
func (b *Builder) CvtRnd(x *Value, to Type, r Rounding) *Value {
	if x != nil && x.Type == to && r == RndDefault {
		return x
	}
	in := b.Emit(OpCvt, to, x)
	in.Rnd = r
	return in.Result()
}

// Bitcast reinterprets the bits of x as type to (same width).
func (b *Builder) Bitcast(x *Value, to Type) *Value {
	if x != nil && x.Type == to {
		return x
	}
	return b.emit1(OpBitcast, to, x)
}

// F32ToF16 returns f32 x rounded to binary16, as its u16 bit pattern
// (OpF32ToF16).
func (b *Builder) F32ToF16(x *Value) *Value { return b.emit1(OpF32ToF16, U16, x) }

// F16ToF32 returns the binary16 pattern h (u16) as an f32 (OpF16ToF32).
func (b *Builder) F16ToF32(h *Value) *Value { return b.emit1(OpF16ToF32, F32, h) }

// F32ToBF16 returns f32 x rounded to bfloat16, as its u16 bit pattern
// (OpF32ToBF16).
func (b *Builder) F32ToBF16(x *Value) *Value { return b.emit1(OpF32ToBF16, U16, x) }

// Load reads one element at p.
func (b *Builder) Load(p *Value) *Value { return b.LoadVec(p, 1)[0] }

// LoadNC reads one element at a global pointer through the read-only
// cache (ld.global.nc): only for memory the kernel never writes.
func (b *Builder) LoadNC(p *Value) *Value {
	in := b.loadInstr(p, 1)
	in.Cache = CacheNC
	return in.Results[0]
}

// LoadVec reads width (1, 2 or 4) consecutive elements at p, which must be
// aligned to width*sizeof(elem) bytes.
func (b *Builder) LoadVec(p *Value, width int) []*Value { return b.loadInstr(p, width).Results }

func (b *Builder) loadInstr(p *Value, width int) *Instr {
	in := b.Emit(OpLoad, Invalid, p)
	in.Width = width
	if len(in.Results) == 1 {
		for i := 1; i < width; i++ {
			b.addResult(in, in.Results[0].Type)
		}
	}
	return in
}

// Store writes v at p.
func (b *Builder) Store(p, v *Value) { b.StoreVec(p, v) }

// StoreVec writes the values (1, 2 or 4 of the element type) consecutively
// at p, which must be aligned to len(vals)*sizeof(elem) bytes.
func (b *Builder) StoreVec(p *Value, vals ...*Value) {
	in := b.Emit(OpStore, Invalid, append([]*Value{p}, vals...)...)
	in.Width = len(vals)
}

// PtrAdd returns p advanced by off bytes (off an s32, u32, s64 or u64).
func (b *Builder) PtrAdd(p, off *Value) *Value { return b.emit1(OpPtrAdd, Invalid, p, off) }

// Index returns p advanced by i elements, that is p + i*sizeof(elem).
func (b *Builder) Index(p, i *Value) *Value { return b.emit1(OpIndex, Invalid, p, i) }

// PtrCast returns p as a pointer to elem in the same space.
func (b *Builder) PtrCast(p *Value, elem Type) *Value {
	t := Invalid
	if p != nil {
		t = PtrTo(p.Type.Space(), elem)
	}
	return b.emit1(OpPtrCast, t, p)
}

// Special reads a special register (u32), named after it.
func (b *Builder) Special(r SReg) *Value {
	in := b.Emit(OpSpecial, Invalid)
	in.Reg = r
	return b.f.SetName(in.Result(), r.String())
}

// TidX reads %tid.x.
func (b *Builder) TidX() *Value { return b.Special(RegTidX) }

// NtidX reads %ntid.x.
func (b *Builder) NtidX() *Value { return b.Special(RegNtidX) }

// CtaidX reads %ctaid.x.
func (b *Builder) CtaidX() *Value { return b.Special(RegCtaidX) }

// NctaidX reads %nctaid.x.
func (b *Builder) NctaidX() *Value { return b.Special(RegNctaidX) }

// LaneID reads %laneid.
func (b *Builder) LaneID() *Value { return b.Special(RegLaneID) }

// WarpSize reads WARP_SZ (32).
func (b *Builder) WarpSize() *Value { return b.Special(RegWarpSize) }

// Barrier emits bar.sync 0.
func (b *Builder) Barrier() { b.Emit(OpBarrier, Invalid) }

// BarRed emits a barrier of the block that reduces p (pred) over its
// threads with op: popc yields the u32 count of threads whose p is true,
// and and or yield a pred. Every thread gets the same result.
func (b *Builder) BarRed(op RedOp, p *Value) *Value {
	t := Pred
	if op == RedPopc {
		t = U32
	}
	in := b.Emit(OpBarRed, t, p)
	in.Red = op
	return in.Result()
}

// WarpSync emits bar.warp.sync: the lanes of mask (u32) wait for each
// other.
func (b *Builder) WarpSync(mask *Value) { b.Emit(OpWarpSync, Invalid, mask) }

// Trap aborts the kernel (the launch fails). The current block goes on
// after it; code there is never reached at run time.
func (b *Builder) Trap() { b.Emit(OpTrap, Invalid) }

// ActiveMask reads the mask of the lanes of the warp executing together
// (activemask.b32).
func (b *Builder) ActiveMask() *Value { return b.Special(RegActiveMask) }

// DynSmemSize reads the bytes of dynamic shared memory of the launch.
func (b *Builder) DynSmemSize() *Value { return b.Special(RegDynSmemSize) }

// Fence emits a memory fence with scope s.
func (b *Builder) Fence(s Scope) { b.Emit(OpFence, Invalid).Scope = s }

// Atomic applies op with operand v at p and returns the old value. Use
// AtomicCAS for compare-and-swap.
func (b *Builder) Atomic(op AtomOp, p, v *Value) *Value {
	in := b.Emit(OpAtomic, Invalid, p, v)
	in.Atom = op
	return in.Result()
}

// AtomicCAS stores nw at p if the value there equals cmp, and returns the
// old value.
func (b *Builder) AtomicCAS(p, cmp, nw *Value) *Value {
	in := b.Emit(OpAtomic, Invalid, p, cmp, nw)
	in.Atom = AtomCAS
	return in.Result()
}

// Shfl returns v from another lane of the warp: mode with lane (the source
// lane, delta or xor mask, u32) among the lanes of mask (u32).
func (b *Builder) Shfl(mode ShflMode, v, lane, mask *Value) *Value {
	in := b.Emit(OpShfl, Invalid, v, lane, mask)
	in.Shfl = mode
	return in.Result()
}

// Vote evaluates p across the lanes of mask (u32): all and any give pred,
// ballot a u32 of lane bits.
func (b *Builder) Vote(mode VoteMode, p, mask *Value) *Value {
	t := Pred
	if mode == VoteBallot {
		t = U32
	}
	in := b.Emit(OpVote, t, p, mask)
	in.Vote = mode
	return in.Result()
}

// Math calls fn on args (one, or two for Pow and Atan2), accurately.
func (b *Builder) Math(fn MathFn, args ...*Value) *Value {
	in := b.Emit(OpMath, Invalid, args...)
	in.Fn = fn
	return in.Result()
}

// MathApprox calls fn on args allowing a fast approximation.
func (b *Builder) MathApprox(fn MathFn, args ...*Value) *Value {
	in := b.Emit(OpMath, Invalid, args...)
	in.Fn = fn
	in.Approx = true
	return in.Result()
}

// Br ends the current block with a branch to target binding args to its
// parameters.
func (b *Builder) Br(target *Block, args ...*Value) {
	in := b.Emit(OpBr, Invalid)
	in.Succs = []Edge{{Block: target, Args: args}}
}

// CondBr ends the current block with a branch to t if c else to f (neither
// takes arguments).
func (b *Builder) CondBr(c *Value, t, f *Block) {
	b.CondBrArgs(c, Edge{Block: t}, Edge{Block: f})
}

// CondBrArgs ends the current block with a branch along t if c else along
// f, each edge with arguments for its block's parameters.
func (b *Builder) CondBrArgs(c *Value, t, f Edge) {
	in := b.Emit(OpCondBr, Invalid, c)
	in.Succs = []Edge{t, f}
}

// Ret ends the current block by returning from the kernel.
func (b *Builder) Ret() { b.Emit(OpRet, Invalid) }
