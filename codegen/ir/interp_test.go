package ir

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var gptrF32 = PtrTo(SpaceGlobal, F32)
var gptrS32 = PtrTo(SpaceGlobal, S32)
var gptrU32 = PtrTo(SpaceGlobal, U32)

func launch(grid, block int) Config { return Config{Grid: [3]int{grid}, Block: [3]int{block}} }

// vaddKernel builds y[i] = a*x[i] + y[i] over a grid-stride loop with an
// index of type it.
func vaddKernel(it Type) *Func {
	f := NewFunc("axpy")
	x := f.AddParam("x", gptrF32)
	y := f.AddParam("y", gptrF32)
	a := f.AddParam("a", F32)
	n := f.AddParam("n", it)
	b := NewBuilder(f)
	b.GridStride(n, func(i *Value) {
		py := b.Index(y, i)
		b.Store(py, b.FMA(a, b.Load(b.Index(x, i)), b.Load(py)))
	})
	b.Ret()
	return f
}

func TestRunGridStrideAxpy(t *testing.T) {
	for _, tc := range []struct {
		it          Type
		n           int
		grid, block int
	}{
		{S32, 1000, 3, 128}, // not a multiple of the block, several iterations
		{U32, 1, 2, 64},
		{S64, 4099, 4, 256},
		{U64, 70, 1, 96}, // partial last warp
	} {
		p, err := Compile(vaddKernel(tc.it))
		require.NoError(t, err)
		xs, ys := make([]float32, tc.n), make([]float32, tc.n)
		for i := range xs {
			xs[i], ys[i] = float32(i)*0.25, float32(tc.n-i)
		}
		my := MemOf(ys)
		var n any = tc.n
		if tc.it.IsUnsigned() {
			n = uint64(tc.n)
		}
		require.NoError(t, p.Run(launch(tc.grid, tc.block), MemOf(xs), my, float32(1.5), n))
		got := View[float32](my)
		for i := range got {
			if want := fma32(1.5, xs[i], ys[i]); got[i] != want {
				t.Fatalf("%v n=%d: y[%d] got:%v want:%v", tc.it, tc.n, i, got[i], want)
			}
		}
	}
}

// warpSum adds v over the warp with down shuffles.
func warpSum(b *Builder, v *Value) *Value {
	for off := uint32(16); off > 0; off /= 2 {
		v = b.Add(v, b.Shfl(ShflDown, v, b.U32(off), b.FullMask()))
	}
	return v
}

// blockSumKernel sums x over the grid: a grid-stride partial sum per
// thread, a warp shuffle reduction, per-warp partials in shared memory,
// a barrier, a final warp reduction and one store per block.
func blockSumKernel(threads int) *Func {
	f := NewFunc("block_sum")
	x := f.AddParam("x", gptrF32)
	out := f.AddParam("out", gptrF32)
	n := f.AddParam("n", S32)
	nw := threads / 32
	sh := f.AddShared("partial", F32, nw)
	b := NewBuilder(f)
	acc := b.GridStrideCarry(n, []*Value{b.F32(0)}, func(i *Value, c []*Value) []*Value {
		return []*Value{b.Add(c[0], b.Load(b.Index(x, i)))}
	})[0]
	tid := b.TidX()
	lane := b.LaneID()
	warp := b.Shr(tid, b.U32(5))
	s := warpSum(b, acc)
	b.If(b.Eq(lane, b.U32(0)), func() { b.Store(b.Index(sh, warp), s) })
	b.Barrier()
	b.If(b.Eq(warp, b.U32(0)), func() {
		v := b.IfElseValues(b.Lt(lane, b.U32(uint32(nw))),
			func() []*Value { return []*Value{b.Load(b.Index(sh, lane))} },
			func() []*Value { return []*Value{b.F32(0)} })[0]
		tot := warpSum(b, v)
		b.If(b.Eq(lane, b.U32(0)), func() { b.Store(b.Index(out, b.CtaidX()), tot) })
	})
	b.Ret()
	return f
}

func TestRunSharedReduction(t *testing.T) {
	const n, grid, threads = 3001, 4, 256
	p, err := Compile(blockSumKernel(threads))
	require.NoError(t, err)
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i%17) - 8 // small integers: every order sums exactly
	}
	out := NewMem(4 * grid)
	require.NoError(t, p.Run(launch(grid, threads), MemOf(xs), out, n))
	var got, want float32
	for _, v := range View[float32](out) {
		got += v
	}
	for _, v := range xs {
		want += v
	}
	require.Equal(t, want, got, "got:%v want:%v", got, want)
}

func TestRunDivergentLoops(t *testing.T) {
	// Each thread runs tid%7 iterations of a loop with a nested
	// thread-dependent if; after the loop every lane swaps its sum with
	// its neighbour (a shuffle needs the warp reconverged).
	f := NewFunc("divloop")
	out := f.AddParam("out", gptrU32)
	b := NewBuilder(f)
	tid := b.TidX()
	trips := b.Rem(tid, b.U32(7))
	acc := b.ForCarry(b.U32(0), trips, b.U32(1), []*Value{b.U32(0)}, func(i *Value, c []*Value) []*Value {
		odd := b.Eq(b.And(b.Add(i, tid), b.U32(1)), b.U32(1))
		v := b.IfElseValues(odd,
			func() []*Value { return []*Value{b.Add(c[0], b.Mul(i, tid))} },
			func() []*Value { return []*Value{b.Add(c[0], b.U32(1))} })
		return v
	})[0]
	other := b.Shfl(ShflBfly, acc, b.U32(1), b.FullMask())
	b.Store(b.Index(out, tid), b.Add(b.Mul(acc, b.U32(1000)), other))
	b.Ret()
	require.NoError(t, f.Verify())

	const threads = 64
	m := NewMem(4 * threads)
	require.NoError(t, Run(f, launch(1, threads), m))
	sum := func(t uint32) uint32 {
		var a uint32
		for i := uint32(0); i < t%7; i++ {
			if (i+t)&1 == 1 {
				a += i * t
			} else {
				a++
			}
		}
		return a
	}
	got := View[uint32](m)
	for tt := uint32(0); tt < threads; tt++ {
		if want := sum(tt)*1000 + sum(tt^1); got[tt] != want {
			t.Fatalf("out[%d] got:%v want:%v", tt, got[tt], want)
		}
	}
}

func TestRunAtomics(t *testing.T) {
	f := NewFunc("atomics")
	x := f.AddParam("x", gptrS32)
	acc := f.AddParam("acc", gptrS32) // [sum, max, min, cas counter]
	fs := f.AddParam("fsum", gptrF32)
	n := f.AddParam("n", S32)
	b := NewBuilder(f)
	b.GridStride(n, func(i *Value) {
		v := b.Load(b.Index(x, i))
		b.Atomic(AtomAdd, acc, v)
		b.Atomic(AtomMax, b.Index(acc, b.S32(1)), v)
		b.Atomic(AtomMin, b.Index(acc, b.S32(2)), v)
		b.Atomic(AtomAdd, fs, b.Cvt(v, F32))
		// increment a counter through a CAS retry loop
		ctr := b.Index(acc, b.S32(3))
		b.While([]*Value{b.Load(ctr)}, func(vals []*Value) *Value {
			old := b.AtomicCAS(ctr, vals[0], b.Add(vals[0], b.S32(1)))
			return b.Ne(old, vals[0])
		}, func(vals []*Value) []*Value { return []*Value{b.Load(ctr)} })
	})
	b.Ret()
	const cnt = 2500
	xs := make([]int32, cnt)
	var sum, mx, mn int64 = 0, math.MinInt32, math.MaxInt32
	for i := range xs {
		xs[i] = int32((i*7919)%2001 - 1000)
		sum += int64(xs[i])
		mx, mn = max(mx, int64(xs[i])), min(mn, int64(xs[i]))
	}
	accm := MemOf([]int32{0, math.MinInt32, math.MaxInt32, 0})
	fsm := NewMem(4)
	require.NoError(t, Run(f, launch(3, 128), MemOf(xs), accm, fsm, cnt))
	got := View[int32](accm)
	require.Equal(t, []int32{int32(sum), int32(mx), int32(mn), cnt}, got)
	require.Equal(t, float32(sum), View[float32](fsm)[0])
}

func TestRunVote(t *testing.T) {
	f := NewFunc("vote")
	out := f.AddParam("out", gptrU32)
	b := NewBuilder(f)
	tid := b.TidX()
	p := b.Eq(b.Rem(tid, b.U32(3)), b.U32(0))
	ballot := b.Vote(VoteBallot, p, b.FullMask())
	all := b.Vote(VoteAll, b.Lt(tid, b.U32(40)), b.FullMask())
	anyv := b.Vote(VoteAny, b.Eq(tid, b.U32(5)), b.FullMask())
	flags := b.Or(b.Select(all, b.U32(1), b.U32(0)), b.Select(anyv, b.U32(2), b.U32(0)))
	o := b.Mul(tid, b.U32(2))
	b.Store(b.Index(out, o), ballot)
	b.Store(b.Index(out, b.Add(o, b.U32(1))), flags)
	b.Ret()
	const threads = 48 // a full warp and a partial one
	m := NewMem(8 * threads)
	require.NoError(t, Run(f, launch(1, threads), m))
	got := View[uint32](m)
	for tt := 0; tt < threads; tt++ {
		base := tt / 32 * 32
		var want uint32
		for k := 0; k < 32 && base+k < threads; k++ {
			if (base+k)%3 == 0 {
				want |= 1 << uint(k)
			}
		}
		wantFlags := uint32(2) // any: tid 5 is in warp 0
		if base == 0 {
			wantFlags = 3 // warp 0: all tids < 40
		} else {
			wantFlags = 0 // warp 1: tids 40..47 fail, no tid 5
		}
		require.Equal(t, want, got[2*tt], "ballot of thread %d", tt)
		require.Equal(t, wantFlags, got[2*tt+1], "all/any of thread %d", tt)
	}
}

func TestRunLocalAndVectors(t *testing.T) {
	// Each thread fills a local array, reverses it through vector loads and
	// stores of width 4 and 2, and writes the result.
	f := NewFunc("local_vec")
	out := f.AddParam("out", gptrF32)
	b := NewBuilder(f)
	loc := f.AddLocal("buf", F32, 8)
	tid := b.TidX()
	base := b.Cvt(b.Mul(tid, b.U32(8)), F32)
	b.For(b.S32(0), b.S32(8), b.S32(1), func(i *Value) {
		b.Store(b.Index(loc, i), b.Add(base, b.Cvt(i, F32)))
	})
	v := b.LoadVec(loc, 4)
	w := b.LoadVec(b.Index(loc, b.S32(4)), 4)
	po := b.Index(out, b.Mul(tid, b.U32(8)))
	b.StoreVec(po, w[3], w[2], w[1], w[0])
	b.StoreVec(b.Index(po, b.S32(4)), v[3], v[2])
	b.StoreVec(b.Index(po, b.S32(6)), v[1], v[0])
	b.Ret()
	m := NewMem(4 * 8 * 40)
	require.NoError(t, Run(f, launch(1, 40), m))
	got := View[float32](m)
	for i, g := range got {
		if want := float32(i/8*8 + 7 - i%8); g != want {
			t.Fatalf("out[%d] got:%v want:%v", i, g, want)
		}
	}
}

func TestRunSpecialRegisters(t *testing.T) {
	f := NewFunc("ids")
	out := f.AddParam("out", gptrU32)
	b := NewBuilder(f)
	tx, ty, tz := b.TidX(), b.Special(RegTidY), b.Special(RegTidZ)
	bx, by := b.CtaidX(), b.Special(RegCtaidY)
	nx, ny := b.NtidX(), b.Special(RegNtidY)
	gx := b.NctaidX()
	local := b.Add(b.Mul(b.Add(b.Mul(tz, ny), ty), nx), tx)
	blk := b.Add(b.Mul(by, gx), bx)
	threads := b.Mul(b.Mul(nx, ny), b.Special(RegNtidZ))
	g := b.Add(b.Mul(blk, threads), local)
	code := b.Add(b.Mul(b.LaneID(), b.U32(100)), b.WarpSize())
	b.Store(b.Index(out, g), b.Add(b.Mul(g, b.U32(10000)), code))
	b.Ret()
	cfg := Config{Grid: [3]int{2, 3}, Block: [3]int{4, 3, 5}}
	const total = 2 * 3 * 60
	m := NewMem(4 * total)
	require.NoError(t, Run(f, cfg, m))
	got := View[uint32](m)
	for i := range total {
		want := uint32(i*10000 + (i%60%32)*100 + 32)
		require.Equal(t, want, got[i], "thread %d", i)
	}
}

// errRun runs f and returns the error text.
func errRun(t *testing.T, p *Program, cfg Config, args ...any) string {
	t.Helper()
	err := p.Run(cfg, args...)
	require.Error(t, err)
	return err.Error()
}

func TestRunErrors(t *testing.T) {
	mustCompile := func(f *Func) *Program {
		p, err := Compile(f)
		require.NoError(t, err)
		return p
	}

	// Out of bounds: the size does not match the buffer.
	msg := errRun(t, mustCompile(vaddKernel(S32)), launch(2, 64), NewMem(400), NewMem(404), float32(1), 101)
	require.Contains(t, msg, `out-of-bounds load of parameter "x": offset 400, size 4, the buffer is 400 bytes`)
	require.Contains(t, msg, "ld.global.f32")

	// Misaligned vector load.
	f := NewFunc("misaligned")
	x := f.AddParam("x", gptrF32)
	b := NewBuilder(f)
	b.LoadVec(b.Index(x, b.S32(1)), 2)
	b.Ret()
	require.Contains(t, errRun(t, mustCompile(f), launch(1, 1), NewMem(64)), "misaligned load of parameter \"x\": offset 4 is not a multiple of the access size 8")

	// Store through a read-only parameter.
	f = NewFunc("readonly")
	x = f.AddParam("x", gptrF32)
	f.Params[0].ReadOnly = true
	b = NewBuilder(f)
	b.Store(x, b.F32(1))
	b.Ret()
	require.Contains(t, errRun(t, mustCompile(f), launch(1, 1), NewMem(4)), `store through read-only parameter "x"`)

	// Uninitialized shared memory: only the first half of the block writes.
	f = NewFunc("uninit")
	out := f.AddParam("out", gptrF32)
	b = NewBuilder(f)
	sh := f.AddShared("tile", F32, 64)
	tid := b.TidX()
	b.If(b.Lt(tid, b.U32(32)), func() { b.Store(b.Index(sh, tid), b.F32(1)) })
	b.Barrier()
	b.Store(b.Index(out, tid), b.Load(b.Index(sh, b.Xor(tid, b.U32(32)))))
	b.Ret()
	msg = errRun(t, mustCompile(f), launch(1, 64), NewMem(256))
	require.Contains(t, msg, `read of uninitialized shared memory: shared array "tile" at offset 128`)
	require.Contains(t, msg, "thread (0,0,0)")

	// Local memory is per thread: thread 1 never wrote element 1.
	f = NewFunc("uninit_local")
	out = f.AddParam("out", gptrF32)
	b = NewBuilder(f)
	loc := f.AddLocal("tmp", F32, 4)
	tid = b.TidX()
	b.If(b.Eq(tid, b.U32(0)), func() { b.Store(b.Index(loc, b.S32(1)), b.F32(2)) })
	b.Store(b.Index(out, tid), b.Load(b.Index(loc, b.S32(1))))
	b.Ret()
	msg = errRun(t, mustCompile(f), launch(1, 2), NewMem(8))
	require.Contains(t, msg, `thread (1,0,0)`)
	require.Contains(t, msg, `read of uninitialized local memory: local array "tmp" at offset 4 (never written by this thread)`)

	// Shared memory does not carry over between blocks of threads.
	f = NewFunc("stale")
	out = f.AddParam("out", gptrF32)
	b = NewBuilder(f)
	sh = f.AddShared("s", F32, 1)
	b.If(b.Eq(b.CtaidX(), b.U32(0)), func() { b.Store(sh, b.F32(3)) })
	b.Store(out, b.Load(sh))
	b.Ret()
	require.Contains(t, errRun(t, mustCompile(f), launch(2, 1), NewMem(4)), "block (1,0,0)")

	// Runaway loop.
	f = NewFunc("spin")
	b = NewBuilder(f)
	b.While(nil, func([]*Value) *Value { return b.Bool(true) }, func([]*Value) []*Value { return nil })
	b.Ret()
	p := mustCompile(f)
	require.Contains(t, errRun(t, p, Config{Block: [3]int{32}, MaxSteps: 10000}), "step limit of 10000 exceeded")

	// A shuffle that half the warp never reaches.
	f = NewFunc("halfshfl")
	out = f.AddParam("out", gptrU32)
	b = NewBuilder(f)
	lane := b.LaneID()
	b.If(b.Lt(lane, b.U32(16)), func() {
		b.Store(b.Index(out, lane), b.Shfl(ShflDown, lane, b.U32(1), b.FullMask()))
	})
	b.Ret()
	require.Contains(t, errRun(t, mustCompile(f), launch(1, 32), NewMem(128)),
		"warp divergence: shfl with member mask 0xffffffff waits for lane 16 (thread [16 0 0]), which has returned")

	// Reading a lane that does not exist in a partial warp.
	f = NewFunc("partial")
	out = f.AddParam("out", gptrU32)
	b = NewBuilder(f)
	lane = b.LaneID()
	b.Store(b.Index(out, lane), b.Shfl(ShflDown, lane, b.U32(8), b.FullMask()))
	b.Ret()
	require.Contains(t, errRun(t, mustCompile(f), launch(1, 20), NewMem(80)), "shfl.down: source lane 20 is not taking part")

	// Bad arguments.
	p = mustCompile(vaddKernel(S32))
	require.Contains(t, p.Run(launch(1, 1), NewMem(4), NewMem(4), 1, 1).Error(), "want a float32 or float64, got int")
	require.Contains(t, p.Run(launch(1, 1), NewMem(4), 3, float32(1), 1).Error(), "parameter y (ptr.global.f32): want a *Mem, got int")
	require.Contains(t, p.Run(launch(1, 1), NewMem(4), NewMem(4), float32(1), int64(1)<<40).Error(), "does not fit s32")
	require.Contains(t, p.Run(launch(1, 2000), NewMem(4), NewMem(4), float32(1), 1).Error(), "2000 threads per block, at most 1024")
}

// TestRunBarrierDivergence runs kernels the verifier rejects (compiled
// without verification) to check that the interpreter catches barrier
// divergence on its own.
func TestRunBarrierDivergence(t *testing.T) {
	f := NewFunc("early_exit")
	b := NewBuilder(f)
	tid := b.TidX()
	b.If(b.Lt(tid, b.U32(16)), func() { b.Ret() })
	b.Barrier()
	b.Ret()
	require.ErrorContains(t, f.Verify(), "bar.sync in thread-dependent control flow")
	err := compileProgram(f).Run(launch(1, 64))
	require.ErrorContains(t, err, "bar.sync reached by only 48 of 64 threads of the block; 16 threads already returned (first: thread [0 0 0])")

	f = NewFunc("two_barriers")
	b = NewBuilder(f)
	tid = b.TidX()
	b.IfElse(b.Lt(tid, b.U32(40)), func() { b.Barrier() }, func() { b.Barrier() })
	b.Ret()
	require.Error(t, f.Verify())
	err = compileProgram(f).Run(launch(1, 64))
	require.ErrorContains(t, err, "barrier divergence: threads wait at different barriers")

	// A uniform branch around a barrier is fine.
	f = NewFunc("uniform")
	n := f.AddParam("n", S32)
	b = NewBuilder(f)
	b.If(b.Gt(n, b.S32(0)), func() { b.Barrier() })
	b.Ret()
	require.NoError(t, f.Verify())
	require.NoError(t, Run(f, launch(2, 64), 1))
}

func TestRunErrorIsRunError(t *testing.T) {
	p, err := Compile(vaddKernel(S32))
	require.NoError(t, err)
	err = p.Run(launch(1, 32), NewMem(4), NewMem(4), float32(1), 2)
	var re *RunError
	require.ErrorAs(t, err, &re)
	require.Equal(t, "axpy", re.Kernel)
	require.Equal(t, [3]int{1, 0, 0}, re.Thread)
	require.True(t, strings.HasPrefix(re.Block, "for_body"), "block %q", re.Block)
}

// TestRunMemLo checks that a Mem's bytes below Lo are out of bounds while
// the bytes from Lo on are reached through the same pointer.
func TestRunMemLo(t *testing.T) {
	f := NewFunc("at")
	x := f.AddParam("x", gptrF32)
	i := f.AddParam("i", S32)
	b := NewBuilder(f)
	p := b.Index(x, i)
	b.Store(p, b.Add(b.Load(p), b.F32(1)))
	b.Ret()
	prog, err := Compile(f)
	require.NoError(t, err)
	m := MemOf([]float32{10, 20, 30, 40})
	m.Lo = 8
	require.NoError(t, prog.Run(launch(1, 1), m, 2))
	require.NoError(t, prog.Run(launch(1, 1), m, 3))
	require.Equal(t, []float32{10, 20, 31, 41}, View[float32](m))
	msg := errRun(t, prog, launch(1, 1), m, 1)
	require.Contains(t, msg, `out-of-bounds load of parameter "x": offset 4, size 4, the buffer spans bytes 8 to 16`)
	m.Lo = 17
	require.Contains(t, errRun(t, prog, launch(1, 1), m, 3), "Mem.Lo is 17 for 16 bytes")
}
