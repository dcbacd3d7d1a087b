// This file tests the IR's support for explicit kernels on the
// interpreter, the verifier and the text dump: source positions, trap,
// atomic inc and dec, bar.red, bar.warp.sync, activemask, dynamic shared
// memory and constant arrays.

package ir

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunTrapNamesPosition(t *testing.T) {
	// Thread 37 of block 1 traps; the error names it and the position.
	f := NewFunc("checked")
	out := f.AddParam("out", gptrU32)
	b := NewBuilder(f)
	tid := b.TidX()
	b.SetPos(Pos{File: "k.go", Line: 12, Col: 5})
	bad := b.And(b.Eq(tid, b.U32(37)), b.Eq(b.CtaidX(), b.U32(1)))
	b.If(bad, func() { b.Trap() })
	b.SetPos(Pos{})
	b.Store(b.Index(out, tid), tid)
	b.Ret()
	require.NoError(t, f.Verify())

	err := Run(f, launch(2, 64), NewMem(4*64))
	var re *RunError
	require.True(t, errors.As(err, &re), "got:%v", err)
	require.Equal(t, [3]int{1, 0, 0}, re.CTA)
	require.Equal(t, [3]int{37, 0, 0}, re.Thread)
	require.Equal(t, Pos{File: "k.go", Line: 12, Col: 5}, re.Pos)
	require.Contains(t, err.Error(), "at k.go:12:5: trap")

	// Without the faulty block the kernel runs to the end.
	m := NewMem(4 * 64)
	require.NoError(t, Run(f, launch(1, 64), m))
	require.Equal(t, uint32(63), View[uint32](m)[63])
}

func TestRunAtomicIncDec(t *testing.T) {
	// 10 threads apply inc (limit 3) and dec (limit 3) in thread order:
	// inc cycles 0 1 2 3 0 ..., dec from 0 goes to 3 then counts down.
	f := NewFunc("incdec")
	ctr := f.AddParam("ctr", gptrU32)
	olds := f.AddParam("olds", gptrU32)
	b := NewBuilder(f)
	tid := b.TidX()
	oi := b.Atomic(AtomInc, ctr, b.U32(3))
	od := b.Atomic(AtomDec, b.Index(ctr, b.U32(1)), b.U32(3))
	b.Store(b.Index(olds, b.Mul(tid, b.U32(2))), oi)
	b.Store(b.Index(olds, b.Add(b.Mul(tid, b.U32(2)), b.U32(1))), od)
	b.Ret()
	c := MemOf([]uint32{0, 0})
	o := NewMem(4 * 20)
	require.NoError(t, Run(f, launch(1, 10), c, o))
	got := View[uint32](o)
	var inc, dec []uint32
	for i := 0; i < 10; i++ {
		inc, dec = append(inc, got[2*i]), append(dec, got[2*i+1])
	}
	require.Equal(t, []uint32{0, 1, 2, 3, 0, 1, 2, 3, 0, 1}, inc)
	require.Equal(t, []uint32{0, 3, 2, 1, 0, 3, 2, 1, 0, 3}, dec)
	require.Equal(t, []uint32{2, 2}, View[uint32](c))

	// A value above the limit: dec stores the limit.
	c = MemOf([]uint32{9, 9})
	require.NoError(t, Run(f, launch(1, 1), c, NewMem(8)))
	require.Equal(t, []uint32{0, 3}, View[uint32](c))
}

func TestRunBarRed(t *testing.T) {
	for _, op := range []RedOp{RedPopc, RedAnd, RedOr} {
		f := NewFunc("barred")
		out := f.AddParam("out", gptrU32)
		k := f.AddParam("k", U32)
		b := NewBuilder(f)
		tid := b.TidX()
		r := b.BarRed(op, b.Lt(tid, k))
		if r.Type == Pred {
			r = b.Select(r, b.U32(1), b.U32(0))
		}
		b.Store(b.Index(out, tid), r)
		b.Ret()
		require.NoError(t, f.Verify())
		for _, kv := range []uint32{0, 5, 70} {
			m := NewMem(4 * 70)
			require.NoError(t, Run(f, launch(1, 70), m, kv))
			want := map[RedOp]uint32{RedPopc: kv, RedAnd: b2u32(kv == 70), RedOr: b2u32(kv > 0)}[op]
			for i, v := range View[uint32](m) {
				require.Equal(t, want, v, "%s k=%d thread %d got:%v want:%v", op, kv, i, v, want)
			}
		}
	}
}

func b2u32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func TestVerifyBarRed(t *testing.T) {
	// bar.red under a thread-dependent branch is flagged; a barrier under
	// a branch on a bar.red result is not (it is the same everywhere).
	f := NewFunc("barred_div")
	b := NewBuilder(f)
	tid := b.TidX()
	b.If(b.Lt(tid, b.U32(4)), func() { b.BarRed(RedOr, b.Bool(true)) })
	b.Ret()
	err := f.Verify()
	require.Error(t, err)
	require.Contains(t, err.Error(), "bar.red in thread-dependent control flow")

	g := NewFunc("barred_uniform")
	b = NewBuilder(g)
	any := b.BarRed(RedOr, b.Lt(b.TidX(), b.U32(4)))
	b.If(any, func() { b.Barrier() })
	b.Ret()
	require.NoError(t, g.Verify())

	h := NewFunc("barred_bad")
	b = NewBuilder(h)
	in := b.Emit(OpBarRed, U32, b.U32(1))
	in.Red = RedAnd
	b.Ret()
	err = h.Verify()
	require.Error(t, err)
	require.Contains(t, err.Error(), "bar.red needs a pred operand")
	require.Contains(t, err.Error(), "bar.red.and yields pred, not u32")
}

func TestRunWarpSyncAndActiveMask(t *testing.T) {
	// Odd lanes of each warp write shared memory, sync their half of the
	// warp, and read their neighbour's slot; activemask inside the branch
	// is the odd lanes, outside the whole (partial) warp.
	f := NewFunc("warpsync")
	out := f.AddParam("out", gptrU32)
	masks := f.AddParam("masks", gptrU32)
	sh := f.AddShared("buf", U32, 64)
	b := NewBuilder(f)
	tid := b.TidX()
	b.Store(b.Index(masks, b.Add(tid, b.U32(48))), b.ActiveMask())
	odd := b.Eq(b.And(tid, b.U32(1)), b.U32(1))
	b.If(odd, func() {
		b.Store(b.Index(masks, tid), b.ActiveMask())
		b.Store(b.Index(sh, tid), b.Mul(tid, b.U32(10)))
		b.WarpSync(b.U32(0xaaaaaaaa))
		nb := b.Xor(tid, b.U32(2))
		b.Store(b.Index(out, tid), b.Load(b.Index(sh, nb)))
	})
	b.Ret()
	require.NoError(t, f.Verify())
	const n = 48 // a full warp and a half one
	o, m := NewMem(4*n), NewMem(4*2*n)
	require.NoError(t, Run(f, launch(1, n), o, m))
	got := View[uint32](o)
	for i := 1; i < n; i += 2 {
		require.Equal(t, uint32((i^2)*10), got[i], "lane %d", i)
	}
	ms := View[uint32](m)
	require.Equal(t, uint32(0xaaaaaaaa), ms[1])
	require.Equal(t, uint32(0x0000aaaa), ms[33])
	require.Equal(t, uint32(0xffffffff), ms[48])
	require.Equal(t, uint32(0x0000ffff), ms[48+33])

	// A lane named in the mask that never arrives is reported.
	g := NewFunc("warpsync_dead")
	b = NewBuilder(g)
	b.If(b.Lt(b.TidX(), b.U32(31)), func() { b.WarpSync(b.FullMask()) })
	b.Ret()
	err := Run(g, launch(1, 32))
	require.Error(t, err)
	require.Contains(t, err.Error(), "bar.warp.sync")
}

func TestRunDynShared(t *testing.T) {
	// Two views (f32 and u32) of the same dynamic shared memory: thread i
	// writes float i to slot i, reads the bits through the u32 view of its
	// neighbour's slot after a barrier, and thread 0 stores the size.
	f := NewFunc("dyn")
	out := f.AddParam("out", gptrU32)
	size := f.AddParam("size", gptrU32)
	fv := f.AddDynShared("dynf", F32)
	uv := f.AddDynShared("dynu", U32)
	b := NewBuilder(f)
	tid := b.TidX()
	b.Store(b.Index(fv, tid), b.Cvt(tid, F32))
	b.Barrier()
	nb := b.Rem(b.Add(tid, b.U32(1)), b.NtidX())
	b.Store(b.Index(out, tid), b.Load(b.Index(uv, nb)))
	b.If(b.Eq(tid, b.U32(0)), func() { b.Store(size, b.DynSmemSize()) })
	b.Ret()
	require.NoError(t, f.Verify())
	require.Contains(t, f.String(), "dynshared %dynf: f32[]")

	const n = 16
	o, sz := NewMem(4*n), NewMem(4)
	cfg := launch(1, n)
	cfg.SharedBytes = 4 * n
	require.NoError(t, Run(f, cfg, o, sz))
	for i, v := range View[uint32](o) {
		want := View[uint32](MemOf([]float32{float32((i + 1) % n)}))[0]
		require.Equal(t, want, v, "thread %d", i)
	}
	require.Equal(t, uint32(4*n), View[uint32](sz)[0])

	// Too little dynamic shared memory for the block: out of bounds.
	cfg.SharedBytes = 4 * (n - 1)
	err := Run(f, cfg, o, sz)
	require.Error(t, err)
	require.Contains(t, err.Error(), `out-of-bounds store of shared array "dynf"`)
	cfg.SharedBytes = -1
	require.ErrorContains(t, Run(f, cfg, o, sz), "-1 bytes of dynamic shared memory")
}

func TestRunConstArray(t *testing.T) {
	f := NewFunc("consts")
	out := f.AddParam("out", gptrF32)
	c := f.AddConstArray("coef", F32, []uint64{bf32(1.5), bf32(-2), bf32(0.25)})
	b := NewBuilder(f)
	tid := b.TidX()
	b.Store(b.Index(out, tid), b.Load(b.Index(c, tid)))
	b.Ret()
	require.NoError(t, f.Verify())
	require.Contains(t, f.String(), "const %coef: f32[3] = {1.5:f32, -2:f32, 0.25:f32}")
	o := NewMem(12)
	require.NoError(t, Run(f, launch(1, 3), o))
	require.Equal(t, []float32{1.5, -2, 0.25}, View[float32](o))
	err := Run(f, launch(1, 4), NewMem(16))
	require.Error(t, err)
	require.Contains(t, err.Error(), `out-of-bounds load of const array "coef"`)

	// Stores and atomics to a const array do not verify; neither does an
	// array whose count and contents disagree.
	g := NewFunc("consts_bad")
	p := g.AddConstArray("k", U32, []uint64{1, 2})
	b = NewBuilder(g)
	b.Store(p, b.U32(3))
	b.Atomic(AtomAdd, p, b.U32(1))
	b.Ret()
	g.ConstArrays[0].Init = g.ConstArrays[0].Init[:1]
	err = g.Verify()
	require.Error(t, err)
	for _, want := range []string{"st is not allowed in the const space", "atom is not allowed in the const space", "const array k has 2 elements and 1 initial values"} {
		require.Contains(t, err.Error(), want)
	}
}

func TestPositionsInDumpAndProblems(t *testing.T) {
	f := NewFunc("pos")
	x := f.AddParam("x", gptrF32)
	b := NewBuilder(f)
	b.SetPos(Pos{File: "a.go", Line: 3, Col: 2})
	v := b.Load(x)
	w := b.Add(v, v)
	b.SetPos(Pos{File: "a.go", Line: 4})
	b.Store(x, b.Add(w, b.U32(1))) // ill-typed on purpose
	b.Ret()
	dump := f.String()
	require.Contains(t, dump, "ld.global.f32 %x  ; at a.go:3:2\n")
	require.Equal(t, 1, strings.Count(dump, "a.go:3:2"), "a position prints once until it changes:\n%s", dump)
	require.Contains(t, dump, "at a.go:4\n")
	err := f.Verify()
	require.Error(t, err)
	var ve *VerifyError
	require.True(t, errors.As(err, &ve))
	require.Equal(t, Pos{File: "a.go", Line: 4}, ve.Problems[0].Pos)
	require.True(t, strings.HasPrefix(ve.Problems[0].String(), "a.go:4: @pos: block entry"), "got:%s", ve.Problems[0])
	require.Equal(t, "", Pos{}.String())
}
