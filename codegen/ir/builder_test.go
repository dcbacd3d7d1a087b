package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTypes(t *testing.T) {
	for _, tc := range []struct {
		t                    Type
		name                 string
		bits, size           int
		valid, isInt, signed bool
	}{
		{Pred, "pred", 1, 1, true, false, false},
		{B16, "b16", 16, 2, true, true, false},
		{S8, "s8", 8, 1, true, true, true},
		{U64, "u64", 64, 8, true, true, false},
		{F32, "f32", 32, 4, true, false, false},
		{PtrTo(SpaceGlobal, F64), "ptr.global.f64", 64, 8, true, false, false},
		{PtrTo(SpaceShared, Pred), "ptr.shared.pred", 64, 8, false, false, false},
		{PtrTo(SpaceNone, F32), "ptr.none.f32", 64, 8, false, false, false},
		{Invalid, "invalid", 0, 0, false, false, false},
	} {
		require.Equal(t, tc.name, tc.t.String())
		got := []any{tc.t.Bits(), tc.t.Size(), tc.t.IsValid(), tc.t.IsInt(), tc.t.IsSigned()}
		want := []any{tc.bits, tc.size, tc.valid, tc.isInt, tc.signed}
		require.Equal(t, want, got, "%s", tc.name)
	}
	p := PtrTo(SpaceShared, S32)
	require.Equal(t, []any{SpaceShared, S32, true}, []any{p.Space(), p.Elem(), p.IsPtr()})
	require.Equal(t, S16, IntOf(16, true))
	require.Equal(t, B64, BitsOf(64))
	require.Equal(t, Invalid, IntOf(7, false))
}

func TestOpTableComplete(t *testing.T) {
	for op := OpInvalid + 1; op < numOps; op++ {
		info := op.Info()
		require.NotEmpty(t, info.Name, "op %d", op)
		require.NotNil(t, opChecks[op], "%s has no verifier check", op)
		isExec := execCompilers[op] != nil
		special := op == OpBarrier || op == OpBarRed || op == OpShfl || op == OpVote || op == OpWarpSync || op.IsTerminator()
		require.True(t, isExec != special, "%s: interpreter coverage", op)
	}
	for fn := MathFn(0); fn < numMathFns; fn++ {
		require.NotNil(t, mathFuncs[fn], "%s", fn)
	}
}

func TestBuilderControlFlowDump(t *testing.T) {
	f := NewFunc("flow")
	n := f.AddParam("n", S32)
	out := f.AddParam("out", gptrS32)
	b := NewBuilder(f)
	b.SetComment("sum of squares")
	sum := b.ForCarry(b.S32(0), n, b.S32(1), []*Value{b.S32(0)}, func(i *Value, c []*Value) []*Value {
		return []*Value{b.Add(c[0], b.Mul(i, i))}
	})[0]
	b.SetComment("")
	r := b.IfElseValues(b.Gt(sum, b.S32(100)),
		func() []*Value { return []*Value{b.Name(b.Sub(sum, b.S32(100)), "over")} },
		func() []*Value { return []*Value{b.S32(0)} })
	b.Store(out, r[0])
	b.Ret()
	require.NoError(t, f.Verify())
	want := `kernel @flow(%n: s32, %out: ptr.global.s32) {
entry:
  br for_head(0:s32, 0:s32)  ; sum of squares
for_head(%i: s32, %5: s32):
  %6 = cmp.lt.s32 %i, %n  ; sum of squares
  condbr %6, for_body, for_end
for_body:
  %7 = mul.s32 %i, %i  ; sum of squares
  %8 = add.s32 %5, %7
  %9 = add.s32 %i, 1:s32
  br for_head(%9, %8)
for_end:
  %11 = cmp.gt.s32 %5, 100:s32
  condbr %11, if_then, if_else
if_then:
  %over = sub.s32 %5, 100:s32
  br if_end(%over)
if_else:
  br if_end(0:s32)
if_end(%13: s32):
  st.global.s32 %out, %13
  ret
}
`
	if got := f.String(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestBuilderNamesAndConstants(t *testing.T) {
	f := NewFunc("names")
	b := NewBuilder(f)
	x := f.AddParam("x", S32)
	a := b.Name(b.Add(x, x), "acc")
	c := b.Name(b.Add(a, x), "acc")
	d := b.Name(b.Add(c, x), "acc")
	e := b.Name(b.Add(d, x), "my value!")
	require.Equal(t, []string{"%acc", "%acc1", "%acc2", "%my_value_"}, []string{a.String(), c.String(), d.String(), e.String()})
	require.Same(t, b.S32(7), b.Int(S32, 7))
	require.NotSame(t, b.S32(7), b.U32(7))
	require.Equal(t, int64(-1), b.Int(S16, -1).ConstInt())
	require.Equal(t, uint64(0xffff), b.Int(S16, -1).ConstUint())
	require.Equal(t, 0.5, b.F32(0.5).ConstFloat())
	require.Equal(t, "-1.5:f64", b.F64(-1.5).String())
	require.Equal(t, "true", b.One(Pred).String())
	require.Equal(t, "0xff:b8", b.Const(B8, 0x1ff).String())
	require.Same(t, x, b.Cvt(x, S32), "converting to the own type is the identity")
	blk1, blk2 := f.NewBlock("loop"), f.NewBlock("loop")
	require.Equal(t, []string{"loop", "loop1"}, []string{blk1.Name, blk2.Name})
	require.Equal(t, "%12", b.Name(b.Add(x, x), "").String())
}

func TestBuilderVectorAndWarpDump(t *testing.T) {
	f := NewFunc("misc")
	p := f.AddParam("p", PtrTo(SpaceGlobal, F32))
	b := NewBuilder(f)
	v := b.LoadVec(p, 4)
	b.StoreVec(p, v[1], v[0])
	s := b.Shfl(ShflBfly, v[0], b.U32(1), b.FullMask())
	bal := b.Vote(VoteBallot, b.Lt(s, v[1]), b.FullMask())
	b.Atomic(AtomAdd, b.PtrCast(p, U32), bal)
	b.Fence(ScopeGPU)
	b.MathApprox(MathExp2, s)
	b.Barrier()
	b.Ret()
	require.NoError(t, f.Verify())
	got := f.String()
	for _, want := range []string{
		"%1, %2, %3, %4 = ld.global.v4.f32 %p",
		"st.global.v2.f32 %p, %2, %1",
		"%7 = shfl.bfly.f32 %1, 1:u32, 4294967295:u32",
		"vote.ballot %8, 4294967295:u32",
		"ptrcast.ptr.global.u32 %p",
		"atom.global.add.u32",
		"fence.gpu",
		"math.exp2.approx.f32 %7",
		"bar.sync",
	} {
		require.True(t, strings.Contains(got, want), "missing %q in\n%s", want, got)
	}
}

func TestFuncPreds(t *testing.T) {
	f := NewFunc("preds")
	b := NewBuilder(f)
	b.If(b.Eq(b.TidX(), b.U32(0)), func() {})
	b.Ret()
	p := f.Preds()
	entry, then, end := f.Blocks[0], f.Blocks[1], f.Blocks[2]
	require.Equal(t, []*Block{entry}, p[then])
	require.Equal(t, []*Block{entry, then}, p[end])
	require.Empty(t, p[entry])
}
