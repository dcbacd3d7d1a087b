// This file implements the instruction set: the Op enum and its metadata
// table (name, operand count, result-type rule, side effects).

package ir

import "fmt"

// Op is an instruction opcode. Its metadata (name, operand count, result
// rule, side effects) is in a table reachable through Info.
type Op uint8

// The opcodes. Operand order and types are documented per op; the verifier
// enforces them (see verify_types.go).
const (
	OpInvalid Op = iota

	// Integer and float arithmetic. Operands and result share one type.
	OpAdd   // a + b
	OpSub   // a - b
	OpMul   // a * b (low half for integers)
	OpDiv   // a / b (integers truncate; float div is IEEE round-to-nearest unless Approx)
	OpRem   // a % b, integers only, sign of the dividend
	OpNeg   // -a
	OpAbs   // |a|
	OpMin   // min(a, b); floats: a NaN operand yields the other operand
	OpMax   // max(a, b); floats as Min
	OpFMA   // a*b + c, floats: one rounding
	OpMulHi // high half of the double-width product a*b, integers 16..64 bits
	// OpMulWide is the full product of two 16- or 32-bit integers, result
	// twice as wide with the same signedness (s32*s32 -> s64).
	OpMulWide
	OpShl // a << b; b is u32; amounts >= the width give 0
	OpShr // a >> b; arithmetic for signed types, logical otherwise; b is u32
	OpAnd // a & b; integers and pred
	OpOr  // a | b; integers and pred
	OpXor // a ^ b; integers and pred
	OpNot // ^a; integers and pred
	OpPopc
	OpClz // count of leading zeros, result u32

	// OpCmp compares a and b with Instr.Cmp and yields pred.
	OpCmp
	// OpSelect yields a if c else b: operands (c pred, a, b).
	OpSelect
	// OpCvt converts a to the instruction's result type with Instr.Rnd.
	OpCvt
	// OpBitcast reinterprets the bits of a as the result type (same width).
	OpBitcast

	// OpLoad reads Instr.Width consecutive elements at a pointer (operand
	// 0); it has Width results of the pointer's element type.
	OpLoad
	// OpStore writes Width values (operands 1..Width) at a pointer
	// (operand 0). No result.
	OpStore
	// OpPtrAdd is pointer + byte offset: operands (p, off) with off an s32,
	// u32, s64 or u64 (sign- or zero-extended); the result has p's type.
	OpPtrAdd
	// OpIndex is pointer + element index: operands (p, i), the result is
	// p + i*sizeof(elem), i an s32, u32, s64 or u64.
	OpIndex
	// OpPtrCast changes a pointer's element type, keeping its space and
	// address (result type given by the instruction).
	OpPtrCast

	// OpSpecial reads the special register Instr.Reg, result u32.
	OpSpecial
	// OpBarrier is bar.sync 0: all threads of the block wait for each other.
	OpBarrier
	// OpFence is a memory fence at Instr.Scope.
	OpFence
	// OpAtomic applies Instr.Atom at a pointer (global or shared) and yields
	// the old value. Operands (p, v), or (p, cmp, new) for AtomCAS.
	OpAtomic
	// OpShfl is a warp shuffle with Instr.Shfl: operands (v, lane, mask)
	// where lane is the source lane, delta or xor mask (u32) and mask the
	// member mask (u32). The result has v's type.
	OpShfl
	// OpVote is a warp vote with Instr.Vote: operands (p pred, mask u32);
	// the result is pred for all/any and u32 for ballot.
	OpVote
	// OpMath calls the math function Instr.Fn on one or two float operands
	// of one type (f32 or f64); Instr.Approx selects fast approximations.
	OpMath
	// OpTrap aborts the kernel: the launch fails. It is not a terminator:
	// the block goes on (never reached at run time), so that a failed
	// check can rejoin the code it guards and control flow stays
	// structured for the barrier check.
	OpTrap
	// OpBarRed is a barrier of the whole block (like OpBarrier) that also
	// reduces a predicate over its threads with Instr.Red: operand (p
	// pred); the result, the same in every thread, is u32 for popc (the
	// number of threads whose p is true) and pred for and/or.
	OpBarRed
	// OpWarpSync waits until every lane named in the member mask (operand
	// 0, u32) has reached it, and orders their memory accesses
	// (bar.warp.sync). No result.
	OpWarpSync

	// OpF32ToF16 rounds f32 a to IEEE binary16, nearest even, and yields
	// its 16-bit pattern as a u16: overflow gives an infinity, NaN the
	// quiet NaN sign | 0x7e00 | the top 9 payload bits.
	OpF32ToF16
	// OpF16ToF32 yields the binary16 pattern a (u16) exactly as an f32; a
	// NaN keeps its sign and payload (sign | 0x7f800000 | payload << 13).
	OpF16ToF32
	// OpF32ToBF16 rounds f32 a to bfloat16, nearest even, and yields its
	// 16-bit pattern as a u16: overflow gives an infinity, NaN the top
	// half of a with the quiet bit set.
	OpF32ToBF16

	// OpHAdd, OpHSub and OpHMul are a + b, a - b and a * b of two 16-bit
	// float patterns (u16) of the format Instr.Fmt (float16 or bfloat16),
	// rounded to nearest even in that format: exactly the f32 path that
	// widens both operands exactly, computes in f32 and narrows (f32 has
	// more than twice the precision plus two bits, so rounding twice
	// gives the correctly rounded result). Signed zeros, infinities and
	// subnormals are IEEE's; a NaN result is a quiet NaN whose payload,
	// as for f32 arithmetic, is not specified (the interpreter gives the
	// f32 path's). See half.go.
	OpHAdd
	OpHSub
	OpHMul
	// OpHCmp compares two 16-bit float patterns (u16) of the format
	// Instr.Fmt with Instr.Cmp as OpCmp compares floats, and yields pred.
	OpHCmp

	// Terminators.
	OpBr     // unconditional branch: Succs[0] with its arguments
	OpCondBr // operand (c pred): Succs[0] if c else Succs[1]
	OpRet    // return from the kernel

	numOps
)

// ResultRule says how an op's result type is determined.
type ResultRule uint8

// The result rules.
const (
	ResultNone     ResultRule = iota // no result
	ResultSameAsA                    // the type of operand 0
	ResultSameAsB                    // the type of operand 1 (Select)
	ResultPred                       // pred
	ResultU32                        // u32
	ResultExplicit                   // given by the builder (Cvt, Bitcast, PtrCast, MulWide, BarRed)
	ResultElem                       // the element type of the pointer operand 0 (Load, Atomic)
	ResultVote                       // pred for all/any, u32 for ballot
)

// OpInfo is the metadata of an op.
type OpInfo struct {
	Name       string     // mnemonic used by the text dump
	NArgs      int        // operand count; -1 when variable (Store, Math)
	Result     ResultRule // how the result type is determined
	SideEffect bool       // writes memory, synchronizes, or transfers control
	ReadsMem   bool       // reads memory
	Terminator bool       // ends a block
	Commutes   bool       // a op b == b op a
}

var opTable = [numOps]OpInfo{
	OpInvalid:   {Name: "invalid"},
	OpAdd:       {Name: "add", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpSub:       {Name: "sub", NArgs: 2, Result: ResultSameAsA},
	OpMul:       {Name: "mul", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpDiv:       {Name: "div", NArgs: 2, Result: ResultSameAsA},
	OpRem:       {Name: "rem", NArgs: 2, Result: ResultSameAsA},
	OpNeg:       {Name: "neg", NArgs: 1, Result: ResultSameAsA},
	OpAbs:       {Name: "abs", NArgs: 1, Result: ResultSameAsA},
	OpMin:       {Name: "min", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpMax:       {Name: "max", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpFMA:       {Name: "fma", NArgs: 3, Result: ResultSameAsA},
	OpMulHi:     {Name: "mul.hi", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpMulWide:   {Name: "mul.wide", NArgs: 2, Result: ResultExplicit, Commutes: true},
	OpShl:       {Name: "shl", NArgs: 2, Result: ResultSameAsA},
	OpShr:       {Name: "shr", NArgs: 2, Result: ResultSameAsA},
	OpAnd:       {Name: "and", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpOr:        {Name: "or", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpXor:       {Name: "xor", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpNot:       {Name: "not", NArgs: 1, Result: ResultSameAsA},
	OpPopc:      {Name: "popc", NArgs: 1, Result: ResultU32},
	OpClz:       {Name: "clz", NArgs: 1, Result: ResultU32},
	OpCmp:       {Name: "cmp", NArgs: 2, Result: ResultPred},
	OpSelect:    {Name: "select", NArgs: 3, Result: ResultSameAsB},
	OpCvt:       {Name: "cvt", NArgs: 1, Result: ResultExplicit},
	OpBitcast:   {Name: "bitcast", NArgs: 1, Result: ResultExplicit},
	OpLoad:      {Name: "ld", NArgs: 1, Result: ResultElem, ReadsMem: true},
	OpStore:     {Name: "st", NArgs: -1, SideEffect: true},
	OpPtrAdd:    {Name: "ptradd", NArgs: 2, Result: ResultSameAsA},
	OpIndex:     {Name: "index", NArgs: 2, Result: ResultSameAsA},
	OpPtrCast:   {Name: "ptrcast", NArgs: 1, Result: ResultExplicit},
	OpSpecial:   {Name: "special", NArgs: 0, Result: ResultU32},
	OpBarrier:   {Name: "bar.sync", NArgs: 0, SideEffect: true},
	OpFence:     {Name: "fence", NArgs: 0, SideEffect: true},
	OpAtomic:    {Name: "atom", NArgs: -1, Result: ResultElem, SideEffect: true, ReadsMem: true},
	OpShfl:      {Name: "shfl", NArgs: 3, Result: ResultSameAsA, SideEffect: true},
	OpVote:      {Name: "vote", NArgs: 2, Result: ResultVote, SideEffect: true},
	OpMath:      {Name: "math", NArgs: -1, Result: ResultSameAsA},
	OpTrap:      {Name: "trap", NArgs: 0, SideEffect: true},
	OpBarRed:    {Name: "bar.red", NArgs: 1, Result: ResultExplicit, SideEffect: true},
	OpWarpSync:  {Name: "bar.warp.sync", NArgs: 1, SideEffect: true},
	OpF32ToF16:  {Name: "f32tof16", NArgs: 1, Result: ResultExplicit},
	OpF16ToF32:  {Name: "f16tof32", NArgs: 1, Result: ResultExplicit},
	OpF32ToBF16: {Name: "f32tobf16", NArgs: 1, Result: ResultExplicit},
	OpHAdd:      {Name: "hadd", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpHSub:      {Name: "hsub", NArgs: 2, Result: ResultSameAsA},
	OpHMul:      {Name: "hmul", NArgs: 2, Result: ResultSameAsA, Commutes: true},
	OpHCmp:      {Name: "hcmp", NArgs: 2, Result: ResultPred},
	OpBr:        {Name: "br", NArgs: 0, SideEffect: true, Terminator: true},
	OpCondBr:    {Name: "condbr", NArgs: 1, SideEffect: true, Terminator: true},
	OpRet:       {Name: "ret", NArgs: 0, SideEffect: true, Terminator: true},
}

// Info returns the op's metadata; an unknown op yields the OpInvalid entry.
func (o Op) Info() OpInfo {
	if o < numOps {
		return opTable[o]
	}
	return opTable[OpInvalid]
}

// String returns the op's mnemonic.
func (o Op) String() string {
	if o < numOps && o != OpInvalid {
		return opTable[o].Name
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// IsTerminator reports whether the op ends a block.
func (o Op) IsTerminator() bool { return o.Info().Terminator }

// NumOps is the number of opcodes, for tables indexed by Op.
const NumOps = int(numOps)
