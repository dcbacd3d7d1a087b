package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVerifyRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(f *Func, b *Builder)
		want  string
	}{
		{"mixed operand types", func(f *Func, b *Builder) {
			b.Add(f.AddParam("a", S32), f.AddParam("x", F32))
		}, "add: operand types differ: s32 and f32"},
		{"arith on pred", func(f *Func, b *Builder) { b.Add(b.Bool(true), b.Bool(false)) }, "add needs s, u or f operands, got pred"},
		{"arith on bits", func(f *Func, b *Builder) { b.Mul(b.Const(B32, 1), b.Const(B32, 2)) }, "mul needs s, u or f operands, got b32"},
		{"8-bit arith", func(f *Func, b *Builder) { b.Add(b.Int(U8, 1), b.Int(U8, 2)) }, "8-bit integers are only loaded, stored and converted"},
		{"rem on float", func(f *Func, b *Builder) { b.Rem(b.F32(1), b.F32(2)) }, "rem needs s or u integer operands, got f32"},
		{"neg unsigned", func(f *Func, b *Builder) { b.Neg(b.U32(1)) }, "neg needs a signed integer or float operand, got u32"},
		{"fma ints", func(f *Func, b *Builder) { b.FMA(b.S32(1), b.S32(2), b.S32(3)) }, "fma needs f32 or f64 operands, got s32"},
		{"mul.wide 64", func(f *Func, b *Builder) { b.MulWide(b.S64(1), b.S64(2)) }, "mul.wide needs 16- or 32-bit s or u operands, got s64"},
		{"shift amount", func(f *Func, b *Builder) { b.Shl(b.S32(1), b.S32(2)) }, "shl: the shift amount must be u32, got s32"},
		{"popc 16", func(f *Func, b *Builder) { b.Popc(b.Int(U16, 3)) }, "popc needs a 32- or 64-bit integer, got u16"},
		{"unordered int cmp", func(f *Func, b *Builder) { b.Cmp(CmpLTU, b.S32(1), b.S32(2)) }, "cmp.ltu applies to floats only, operands are s32"},
		{"ordered bits cmp", func(f *Func, b *Builder) { b.Lt(b.Const(B32, 1), b.Const(B32, 2)) }, "cmp.lt on b32: bit types compare only eq and ne"},
		{"select cond", func(f *Func, b *Builder) { b.Select(b.S32(1), b.F32(1), b.F32(2)) }, "select: the condition must be pred, got s32"},
		{"select arms", func(f *Func, b *Builder) { b.Select(b.Bool(true), b.F32(1), b.F64(2)) }, "select: operand types differ: f32 and f64"},
		{"cvt int rounding", func(f *Func, b *Builder) { b.CvtRnd(b.S32(1), S64, RndRN) }, "cvt.rn: integer-to-integer conversions take no rounding mode"},
		{"cvt pred", func(f *Func, b *Builder) { b.Cvt(b.Bool(true), S32) }, "cvt converts between integers and floats, not pred to s32"},
		{"bitcast width", func(f *Func, b *Builder) { b.Bitcast(b.F32(1), U64) }, "bitcast from f32 (32 bits) to u64 (64 bits): widths differ"},
		{"load width 3", func(f *Func, b *Builder) { b.LoadVec(f.AddParam("p", gptrF32), 3) }, "ld: vector width 3, want 1, 2 or 4"},
		{"load too wide", func(f *Func, b *Builder) { b.LoadVec(f.AddParam("p", PtrTo(SpaceGlobal, F64)), 4) }, "a vector of 4 f64 is 32 bytes, at most 16"},
		{"load scalar", func(f *Func, b *Builder) { b.Load(b.U64(0)) }, "ld needs a pointer operand, got u64"},
		{"nc on shared", func(f *Func, b *Builder) { b.LoadNC(f.AddShared("s", F32, 4)) }, "ld.nc is only for the global space, not shared"},
		{"store const", func(f *Func, b *Builder) { b.Store(f.AddParam("c", PtrTo(SpaceConst, F32)), b.F32(1)) }, "st is not allowed in the const space"},
		{"store type", func(f *Func, b *Builder) { b.Store(f.AddParam("p", gptrF32), b.F64(1)) }, "st value 0 (1:f64) is f64, the element type is f32"},
		{"index by float", func(f *Func, b *Builder) { b.Index(f.AddParam("p", gptrF32), b.F32(1)) }, "index: the offset must be s32, u32, s64 or u64, got f32"},
		{"atomic local", func(f *Func, b *Builder) { b.Atomic(AtomAdd, f.AddLocal("l", S32, 2), b.S32(1)) }, "atom is not allowed in the local space"},
		{"atomic min float", func(f *Func, b *Builder) { b.Atomic(AtomMin, f.AddParam("p", gptrF32), b.F32(1)) }, "atom.min does not support f32"},
		{"atomic value type", func(f *Func, b *Builder) { b.Atomic(AtomAdd, f.AddParam("p", gptrS32), b.U32(1)) }, "atom.add operand 1 is u32, the element type is s32"},
		{"shfl pred", func(f *Func, b *Builder) { b.Shfl(ShflIdx, b.Bool(true), b.U32(0), b.FullMask()) }, "shfl moves 32- or 64-bit scalars, got pred"},
		{"shfl lane type", func(f *Func, b *Builder) { b.Shfl(ShflIdx, b.F32(1), b.S32(0), b.FullMask()) }, "shfl: lane and mask must be u32, got s32 and u32"},
		{"vote operand", func(f *Func, b *Builder) { b.Vote(VoteAny, b.U32(1), b.FullMask()) }, "vote needs a pred and a u32 mask, got u32 and u32"},
		{"math arity", func(f *Func, b *Builder) { b.Math(MathPow, b.F32(1)) }, "math.pow takes 2 operands, got 1"},
		{"math int", func(f *Func, b *Builder) { b.Math(MathExp, b.S32(1)) }, "math.exp needs f32 or f64 operands, got s32"},
		{"div approx f64", func(f *Func, b *Builder) { b.DivApprox(b.F64(1), b.F64(3)) }, "div.approx is only for f32, got f64"},
		{"f16", func(f *Func, b *Builder) { b.Add(b.Const(F16, 0), b.Const(F16, 0)) }, "operand 0 (0:f16) has unsupported type f16"},
		{"nil operand", func(f *Func, b *Builder) { b.Add(nil, b.S32(1)) }, "add: operand 0 is nil"},
		{"shared param", func(f *Func, b *Builder) { f.AddParam("s", PtrTo(SpaceShared, F32)) }, "parameter s: pointer parameters must be in the global or const space, not shared"},
		{"empty shared", func(f *Func, b *Builder) { f.AddShared("s", F32, 0) }, "shared array s has 0 elements, want at least 1"},
		{"pred param", func(f *Func, b *Builder) { f.AddParam("p", Pred) }, "pred parameters are not allowed"},
		{"after terminator", func(f *Func, b *Builder) {
			b.Ret()
			b.Add(b.S32(1), b.S32(2))
		}, "add: appended after the terminator of block entry"},
		{"unterminated", func(f *Func, b *Builder) {
			blk := b.NewBlock("next")
			b.Br(blk)
			b.SetBlock(blk)
			b.Add(b.S32(1), b.S32(2))
			b.SetBlock(b.NewBlock("tail"))
		}, "block next: block does not end with a terminator (br, condbr or ret)"},
		{"unplaced target", func(f *Func, b *Builder) { b.Br(b.NewBlock("limbo")) }, "branch to block limbo, which is not in the function's layout"},
		{"branch arity", func(f *Func, b *Builder) {
			blk := b.NewBlock("next")
			b.Br(blk, b.S32(1))
			b.SetBlock(blk)
		}, "branch to next passes 1 arguments, the block has 0 parameters"},
		{"branch arg type", func(f *Func, b *Builder) {
			blk := b.NewBlock("next", F32)
			b.Br(blk, b.S32(1))
			b.SetBlock(blk)
		}, "branch to next: argument 0 (1:s32) is s32, parameter %0 is f32"},
		{"dominance", func(f *Func, b *Builder) {
			var v *Value
			b.If(b.Eq(b.TidX(), b.U32(0)), func() { v = b.Add(b.U32(1), b.TidX()) })
			b.Add(v, b.U32(1))
		}, "operand %5 (defined in block if_then) does not dominate this use"},
		{"other function", func(f *Func, b *Builder) {
			g := NewFunc("other")
			b.Add(g.AddParam("q", S32), b.S32(1))
		}, "operand %q belongs to another function"},
		{"barrier under tid", func(f *Func, b *Builder) {
			b.If(b.Lt(b.TidX(), b.U32(5)), func() { b.Barrier() })
		}, "bar.sync in thread-dependent control flow: block if_then is reached through the branch at the end of block entry"},
		{"barrier in grid-stride loop", func(f *Func, b *Builder) {
			b.GridStride(b.S32(100), func(*Value) { b.Barrier() })
		}, "bar.sync in thread-dependent control flow: block for_body is reached through the branch at the end of block for_head"},
		{"barrier after early exit", func(f *Func, b *Builder) {
			b.If(b.Eq(b.LaneID(), b.U32(3)), func() { b.Ret() })
			b.Barrier()
		}, "bar.sync in thread-dependent control flow: block if_end"},
		{"barrier under loop-carried value", func(f *Func, b *Builder) {
			n := b.ForCarry(b.U32(0), b.TidX(), b.U32(1), []*Value{b.U32(0)}, func(i *Value, c []*Value) []*Value {
				return []*Value{b.Add(c[0], b.U32(2))}
			})[0]
			b.If(b.Eq(n, b.U32(4)), func() { b.Barrier() })
		}, "bar.sync in thread-dependent control flow"},
		{"barrier under atomic result", func(f *Func, b *Builder) {
			old := b.Atomic(AtomAdd, f.AddParam("ctr", gptrU32), b.U32(1))
			b.If(b.Eq(old, b.U32(0)), func() { b.Barrier() })
		}, "bar.sync in thread-dependent control flow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFunc("k")
			b := NewBuilder(f)
			tc.build(f, b)
			if !b.Terminated() {
				b.Ret()
			}
			err := f.Verify()
			require.Error(t, err)
			want := tc.want
			if i := strings.Index(want, "..."); i >= 0 { // match around a value name
				require.Contains(t, err.Error(), want[:i])
				want = want[i+3:]
			}
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("got:%v\nwant:%v", err, tc.want)
			}
		})
	}
}

func TestVerifyPositionsAndAllProblems(t *testing.T) {
	f := NewFunc("k")
	a := f.AddParam("a", S32)
	x := f.AddParam("x", F32)
	b := NewBuilder(f)
	b.Add(a, x)
	b.Shl(a, a)
	b.Cmp(CmpNAN, a, a)
	b.Ret()
	err := f.Verify()
	var ve *VerifyError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Problems, 3)
	require.Equal(t, "@k: block entry, instr 0 (%2 = add.s32 %a, %x): add: operand types differ: s32 and f32", ve.Problems[0].String())
	require.Equal(t, Problem{Func: "k", Block: "entry", Index: 1, Instr: "%3 = shl.s32 %a, %a", Msg: "shl: the shift amount must be u32, got s32"}, ve.Problems[1])
	require.Equal(t, 2, ve.Problems[2].Index)
	require.Contains(t, err.Error(), "ir: 3 problem(s):")
}

func TestVerifyUseBeforeDef(t *testing.T) {
	f := NewFunc("k")
	b := NewBuilder(f)
	v := b.Add(b.S32(1), b.S32(2))
	b.Add(v, v)
	b.Ret()
	blk := f.Entry()
	blk.Instrs[0], blk.Instrs[1] = blk.Instrs[1], blk.Instrs[0]
	require.ErrorContains(t, f.Verify(), "operand %2 is used before its definition (instr 1)")
}

func TestVerifyAccepts(t *testing.T) {
	for _, f := range []*Func{vaddKernel(S32), vaddKernel(U64), blockSumKernel(256)} {
		require.NoError(t, f.Verify(), "%s", f.Name)
	}
	// A barrier under a uniform condition, after a divergent if that has
	// merged, and after a loop over a uniform bound.
	f := NewFunc("k")
	n := f.AddParam("n", S32)
	b := NewBuilder(f)
	sh := f.AddShared("s", S32, 32)
	b.If(b.Lt(b.TidX(), b.U32(32)), func() { b.Store(b.Index(sh, b.TidX()), n) })
	b.Barrier()
	b.For(b.S32(0), n, b.S32(1), func(*Value) { b.Barrier() })
	b.If(b.Gt(n, b.S32(3)), func() { b.Barrier() })
	b.Ret()
	require.NoError(t, f.Verify())
}
