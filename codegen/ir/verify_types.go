// This file implements the verifier's per-instruction checks: operand
// counts and types, result types, attributes and address spaces, one check
// function per op in a table.

package ir

// ck is the context of one instruction check.
type ck struct {
	v  *verifier
	b  *Block
	i  int
	in *Instr
}

func (c *ck) bad(format string, args ...any) {
	c.v.instrProblem(c.b, c.i, c.in, format, args...)
}

func (c *ck) arg(k int) Type {
	if k < len(c.in.Args) && c.in.Args[k] != nil {
		return c.in.Args[k].Type
	}
	return Invalid
}

func (c *ck) res() Type {
	if r := c.in.Result(); r != nil {
		return r.Type
	}
	return Invalid
}

// opChecks holds the op-specific check of every op.
var opChecks [numOps]func(c *ck)

func init() {
	opChecks = [numOps]func(c *ck){
		OpAdd: checkArith, OpSub: checkArith, OpMul: checkArith, OpDiv: checkDiv,
		OpMin: checkArith, OpMax: checkArith,
		OpRem:     checkIntArith,
		OpMulHi:   checkIntArith,
		OpNeg:     checkSignedOrFloat,
		OpAbs:     checkSignedOrFloat,
		OpFMA:     checkFMA,
		OpMulWide: checkMulWide,
		OpShl:     checkShift, OpShr: checkShift,
		OpAnd: checkLogic, OpOr: checkLogic, OpXor: checkLogic, OpNot: checkLogic,
		OpPopc: checkBitCount, OpClz: checkBitCount,
		OpCmp:     checkCmp,
		OpSelect:  checkSelect,
		OpCvt:     checkCvt,
		OpBitcast: checkBitcast,
		OpLoad:    checkLoad,
		OpStore:   checkStore,
		OpPtrAdd:  checkPtrOffset, OpIndex: checkPtrOffset,
		OpPtrCast: checkPtrCast,
		OpSpecial: checkSpecial,
		OpBarrier: func(*ck) {},
		OpFence:   checkFence,
		OpAtomic:  checkAtomic,
		OpShfl:    checkShfl,
		OpVote:    checkVote,
		OpMath:    checkMath,
		OpTrap:    func(*ck) {},
		OpBarRed:  checkBarRed,
		OpWarpSync: func(c *ck) {
			if c.arg(0) != U32 {
				c.bad("bar.warp.sync: the member mask must be u32, got %s", c.arg(0))
			}
		},
		OpF32ToF16: checkHalfCvt(F32, U16), OpF32ToBF16: checkHalfCvt(F32, U16),
		OpF16ToF32: checkHalfCvt(U16, F32), OpHAdd: checkHalf, OpHSub: checkHalf, OpHMul: checkHalf, OpHCmp: checkHalf,
		OpBr:     checkBr,
		OpCondBr: checkCondBr,
		OpRet:    checkRet,
	}
}

// checkInstr runs the common checks and the op's own check.
func (v *verifier) checkInstr(b *Block, i int, in *Instr) {
	c := &ck{v: v, b: b, i: i, in: in}
	if in.Op == OpInvalid || in.Op >= numOps {
		c.bad("unknown op %d", in.Op)
		return
	}
	info := in.Op.Info()
	if info.NArgs >= 0 && len(in.Args) != info.NArgs {
		c.bad("%s takes %d operands, got %d", in.Op, info.NArgs, len(in.Args))
		return
	}
	for k, a := range in.Args {
		if a == nil {
			c.bad("operand %d is nil", k)
			return
		}
		if !v.typeOK(a.Type) {
			c.bad("operand %d (%s) has unsupported type %s", k, a, a.Type)
			return
		}
	}
	if !info.Terminator && len(in.Succs) > 0 {
		c.bad("%s is not a terminator but has successors", in.Op)
	}
	want := 0
	if info.Result != ResultNone {
		want = 1
		if in.Op == OpLoad {
			want = in.Width
		}
	}
	if len(in.Results) != want {
		c.bad("%s has %d results, want %d", in.Op, len(in.Results), want)
		return
	}
	before := len(v.problems)
	opChecks[in.Op](c)
	if len(v.problems) > before {
		return
	}
	for k, r := range in.Results {
		if r.Def != in || r.Index != k || r.Kind != ValResult {
			c.bad("result %d (%s) does not record this instruction", k, r)
		}
		if !v.typeOK(r.Type) {
			c.bad("result %s has unsupported type %s", r, r.Type)
			return
		}
	}
	if rt, ok := resultType(in.Op, c.res(), in.Args); ok && info.Result != ResultExplicit && info.Result != ResultVote && rt != c.res() {
		c.bad("result type %s, want %s", c.res(), rt)
	}
}

// no8 reports 8-bit integer operands, which only memory ops and
// conversions accept.
func (c *ck) no8(t Type) bool {
	if t.IsInt() && t.Bits() == 8 {
		c.bad("%s: 8-bit integers are only loaded, stored and converted; convert to a wider type first", c.in.Op)
		return false
	}
	return true
}

// same checks that operands 0..n-1 share one type and returns it.
func (c *ck) same(n int) (Type, bool) {
	t := c.arg(0)
	for k := 1; k < n; k++ {
		if c.arg(k) != t {
			c.bad("%s: operand types differ: %s and %s", c.in.Op, t, c.arg(k))
			return t, false
		}
	}
	return t, true
}

func checkArith(c *ck) {
	t, ok := c.same(c.in.Op.Info().NArgs)
	if !ok || !c.no8(t) {
		return
	}
	if !t.IsNumeric() {
		c.bad("%s needs s, u or f operands, got %s", c.in.Op, t)
	}
}

func checkDiv(c *ck) {
	checkArith(c)
	if c.in.Approx && c.arg(0) != F32 {
		c.bad("div.approx is only for f32, got %s", c.arg(0))
	}
}

func checkIntArith(c *ck) {
	t, ok := c.same(2)
	if !ok || !c.no8(t) {
		return
	}
	if !t.IsArith() {
		c.bad("%s needs s or u integer operands, got %s", c.in.Op, t)
	}
}

func checkSignedOrFloat(c *ck) {
	t := c.arg(0)
	if !c.no8(t) {
		return
	}
	if !t.IsSigned() && !t.IsFloat() {
		c.bad("%s needs a signed integer or float operand, got %s", c.in.Op, t)
	}
}

func checkFMA(c *ck) {
	t, ok := c.same(3)
	if ok && !t.IsFloat() {
		c.bad("fma needs f32 or f64 operands, got %s", t)
	}
}

func checkMulWide(c *ck) {
	t, ok := c.same(2)
	if !ok {
		return
	}
	if !t.IsArith() || (t.Bits() != 16 && t.Bits() != 32) {
		c.bad("mul.wide needs 16- or 32-bit s or u operands, got %s", t)
		return
	}
	if want := IntOf(2*t.Bits(), t.IsSigned()); c.res() != want {
		c.bad("mul.wide of %s yields %s, not %s", t, want, c.res())
	}
}

func checkShift(c *ck) {
	t := c.arg(0)
	if !c.no8(t) {
		return
	}
	if !t.IsInt() {
		c.bad("%s needs an integer operand, got %s", c.in.Op, t)
	}
	if c.arg(1) != U32 {
		c.bad("%s: the shift amount must be u32, got %s", c.in.Op, c.arg(1))
	}
}

func checkLogic(c *ck) {
	t, ok := c.same(c.in.Op.Info().NArgs)
	if !ok || !c.no8(t) {
		return
	}
	if !t.IsInt() && t != Pred {
		c.bad("%s needs integer or pred operands, got %s", c.in.Op, t)
	}
}

func checkBitCount(c *ck) {
	t := c.arg(0)
	if !t.IsInt() || (t.Bits() != 32 && t.Bits() != 64) {
		c.bad("%s needs a 32- or 64-bit integer, got %s", c.in.Op, t)
	}
}

func checkCmp(c *ck) {
	t, ok := c.same(2)
	if !ok {
		return
	}
	if c.in.Cmp >= numCmps {
		c.bad("unknown compare predicate %d", c.in.Cmp)
		return
	}
	switch {
	case !c.no8(t):
	case t.IsFloat():
	case t.IsBits():
		if c.in.Cmp != CmpEQ && c.in.Cmp != CmpNE {
			c.bad("cmp.%s on %s: bit types compare only eq and ne; use an s or u type", c.in.Cmp, t)
		}
	case t.IsArith():
		if c.in.Cmp.IsFloatOnly() {
			c.bad("cmp.%s applies to floats only, operands are %s", c.in.Cmp, t)
		}
	default:
		c.bad("cmp needs integer or float operands, got %s", t)
	}
}

func checkSelect(c *ck) {
	if c.arg(0) != Pred {
		c.bad("select: the condition must be pred, got %s", c.arg(0))
	}
	if c.arg(1) != c.arg(2) {
		c.bad("select: operand types differ: %s and %s", c.arg(1), c.arg(2))
	}
}

func checkCvt(c *ck) {
	from, to := c.arg(0), c.res()
	scalar := func(t Type) bool { return t != Pred && !t.IsPtr() }
	switch {
	case !scalar(from) || !scalar(to):
		c.bad("cvt converts between integers and floats, not %s to %s (use select for pred, ptrcast for pointers)", from, to)
	case from == to:
		c.bad("cvt from %s to the same type", from)
	case c.in.Rnd >= numRnds:
		c.bad("unknown rounding mode %d", c.in.Rnd)
	case c.in.Rnd != RndDefault && !from.IsFloat() && !to.IsFloat():
		c.bad("cvt.%s: integer-to-integer conversions take no rounding mode", c.in.Rnd)
	}
}

func checkBitcast(c *ck) {
	from, to := c.arg(0), c.res()
	if from == Pred || to == Pred || from.IsPtr() || to.IsPtr() {
		c.bad("bitcast needs scalar non-pred types, got %s to %s", from, to)
		return
	}
	if from.Bits() != to.Bits() {
		c.bad("bitcast from %s (%d bits) to %s (%d bits): widths differ", from, from.Bits(), to, to.Bits())
	}
}

// checkHalfCvt returns the check of a 16-bit float conversion from type
// from to type to.
func checkHalfCvt(from, to Type) func(c *ck) {
	return func(c *ck) {
		if c.arg(0) != from || c.res() != to {
			c.bad("%s converts %s to %s, got %s to %s", c.in.Op, from, to, c.arg(0), c.res())
		}
	}
}

// checkPtr checks operand 0 is a pointer whose space is in spaces.
func (c *ck) checkPtr(what string, spaces ...Space) (Type, bool) {
	p := c.arg(0)
	if !p.IsPtr() {
		c.bad("%s needs a pointer operand, got %s", what, p)
		return p, false
	}
	for _, s := range spaces {
		if p.Space() == s {
			return p, true
		}
	}
	c.bad("%s is not allowed in the %s space", what, p.Space())
	return p, false
}

// checkWidth checks a vector width and the vector's size.
func (c *ck) checkWidth(elem Type) {
	w := c.in.Width
	if w != 1 && w != 2 && w != 4 {
		c.bad("%s: vector width %d, want 1, 2 or 4", c.in.Op, w)
		return
	}
	if w*elem.Size() > 16 {
		c.bad("%s: a vector of %d %s is %d bytes, at most 16", c.in.Op, w, elem, w*elem.Size())
	}
}

func checkLoad(c *ck) {
	p, ok := c.checkPtr("ld", SpaceGlobal, SpaceShared, SpaceLocal, SpaceConst, SpaceParam)
	if !ok {
		return
	}
	c.checkWidth(p.Elem())
	if c.in.Cache == CacheNC && p.Space() != SpaceGlobal {
		c.bad("ld.nc is only for the global space, not %s", p.Space())
	}
	for _, r := range c.in.Results {
		if r.Type != p.Elem() {
			c.bad("ld result %s is %s, the element type is %s", r, r.Type, p.Elem())
		}
	}
}

func checkStore(c *ck) {
	if len(c.in.Args) < 2 {
		c.bad("st needs a pointer and at least one value")
		return
	}
	p, ok := c.checkPtr("st", SpaceGlobal, SpaceShared, SpaceLocal)
	if !ok {
		return
	}
	if c.in.Width != len(c.in.Args)-1 {
		c.bad("st: width %d but %d values", c.in.Width, len(c.in.Args)-1)
		return
	}
	c.checkWidth(p.Elem())
	for k, a := range c.in.Args[1:] {
		if a.Type != p.Elem() {
			c.bad("st value %d (%s) is %s, the element type is %s", k, a, a.Type, p.Elem())
		}
	}
}

// isOffset reports whether t may be an offset or index.
func isOffset(t Type) bool { return t == S32 || t == U32 || t == S64 || t == U64 }

func checkPtrOffset(c *ck) {
	if !c.arg(0).IsPtr() {
		c.bad("%s needs a pointer operand, got %s", c.in.Op, c.arg(0))
	}
	if !isOffset(c.arg(1)) {
		c.bad("%s: the offset must be s32, u32, s64 or u64, got %s", c.in.Op, c.arg(1))
	}
}

func checkPtrCast(c *ck) {
	p, r := c.arg(0), c.res()
	if !p.IsPtr() || !r.IsPtr() {
		c.bad("ptrcast converts pointers, got %s to %s", p, r)
		return
	}
	if p.Space() != r.Space() {
		c.bad("ptrcast cannot change the space (%s to %s)", p.Space(), r.Space())
	}
}

func checkSpecial(c *ck) {
	if c.in.Reg >= numSRegs {
		c.bad("unknown special register %d", c.in.Reg)
	}
}

func checkFence(c *ck) {
	if c.in.Scope >= numScopes {
		c.bad("unknown fence scope %d", c.in.Scope)
	}
}

// atomTypes says which element types each atomic operation accepts.
var atomTypes = [numAtoms]func(t Type) bool{
	AtomAdd:  func(t Type) bool { return (t.IsArith() && t.Bits() >= 32) || t == F32 || t == F64 },
	AtomMin:  func(t Type) bool { return t.IsArith() && t.Bits() >= 32 },
	AtomMax:  func(t Type) bool { return t.IsArith() && t.Bits() >= 32 },
	AtomExch: func(t Type) bool { return t.Bits() == 32 || t.Bits() == 64 },
	AtomCAS:  func(t Type) bool { return t.Bits() == 32 || t.Bits() == 64 },
	AtomAnd:  func(t Type) bool { return t.IsInt() && t.Bits() >= 32 },
	AtomOr:   func(t Type) bool { return t.IsInt() && t.Bits() >= 32 },
	AtomXor:  func(t Type) bool { return t.IsInt() && t.Bits() >= 32 },
	AtomInc:  func(t Type) bool { return t == U32 },
	AtomDec:  func(t Type) bool { return t == U32 },
}

func checkAtomic(c *ck) {
	if c.in.Atom >= numAtoms {
		c.bad("unknown atomic operation %d", c.in.Atom)
		return
	}
	want := 2
	if c.in.Atom == AtomCAS {
		want = 3
	}
	if len(c.in.Args) != want {
		c.bad("atom.%s takes %d operands, got %d", c.in.Atom, want, len(c.in.Args))
		return
	}
	p, ok := c.checkPtr("atom", SpaceGlobal, SpaceShared)
	if !ok {
		return
	}
	e := p.Elem()
	for k := 1; k < want; k++ {
		if c.arg(k) != e {
			c.bad("atom.%s operand %d is %s, the element type is %s", c.in.Atom, k, c.arg(k), e)
		}
	}
	if !atomTypes[c.in.Atom](e) {
		c.bad("atom.%s does not support %s", c.in.Atom, e)
	}
}

func checkShfl(c *ck) {
	t := c.arg(0)
	if c.in.Shfl >= numShfls {
		c.bad("unknown shuffle mode %d", c.in.Shfl)
	}
	if t == Pred || t.IsPtr() || (t.Bits() != 32 && t.Bits() != 64) {
		c.bad("shfl moves 32- or 64-bit scalars, got %s", t)
	}
	if c.arg(1) != U32 || c.arg(2) != U32 {
		c.bad("shfl: lane and mask must be u32, got %s and %s", c.arg(1), c.arg(2))
	}
}

func checkVote(c *ck) {
	if c.in.Vote >= numVotes {
		c.bad("unknown vote mode %d", c.in.Vote)
		return
	}
	if c.arg(0) != Pred || c.arg(1) != U32 {
		c.bad("vote needs a pred and a u32 mask, got %s and %s", c.arg(0), c.arg(1))
	}
	c.predOrU32(c.in.Vote == VoteBallot, "vote."+c.in.Vote.String())
}

func checkBarRed(c *ck) {
	if c.in.Red >= numReds {
		c.bad("unknown barrier reduction %d", c.in.Red)
		return
	}
	if c.arg(0) != Pred {
		c.bad("bar.red needs a pred operand, got %s", c.arg(0))
	}
	c.predOrU32(c.in.Red == RedPopc, "bar.red."+c.in.Red.String())
}

// predOrU32 requires the result of instruction what to be u32 when u32 is
// set and pred otherwise.
func (c *ck) predOrU32(u32 bool, what string) {
	want := Pred
	if u32 {
		want = U32
	}
	if c.res() != want {
		c.bad("%s yields %s, not %s", what, want, c.res())
	}
}

func checkMath(c *ck) {
	if c.in.Fn >= numMathFns {
		c.bad("unknown math function %d", c.in.Fn)
		return
	}
	if n := c.in.Fn.Arity(); len(c.in.Args) != n {
		c.bad("math.%s takes %d operands, got %d", c.in.Fn, n, len(c.in.Args))
		return
	}
	t, ok := c.same(len(c.in.Args))
	if ok && t != F32 && t != F64 {
		c.bad("math.%s needs f32 or f64 operands, got %s", c.in.Fn, t)
	}
}

func checkBr(c *ck) {
	if len(c.in.Succs) != 1 {
		c.bad("br needs 1 successor, got %d", len(c.in.Succs))
	}
}

func checkCondBr(c *ck) {
	if len(c.in.Succs) != 2 {
		c.bad("condbr needs 2 successors, got %d", len(c.in.Succs))
	}
	if c.arg(0) != Pred {
		c.bad("condbr: the condition must be pred, got %s", c.arg(0))
	}
}

func checkRet(c *ck) {
	if len(c.in.Succs) != 0 {
		c.bad("ret has successors")
	}
}
