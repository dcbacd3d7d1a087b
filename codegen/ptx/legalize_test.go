// This file tests the legalization pass: the copy computes what the
// original computes (both run on the IR interpreter), the original is left
// alone, and math calls go to the expansion hook or fail clearly.

package ptx

import (
	"errors"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/stretchr/testify/require"
)

// runOut runs fn on one block of threads with an s32 output of n elements
// as its first argument, followed by extra, and returns the output.
func runOut(t *testing.T, fn *ir.Func, threads, n int, extra ...any) []int32 {
	t.Helper()
	out := ir.MemOf(make([]int32, n))
	args := append([]any{out}, extra...)
	require.NoError(t, ir.Run(fn, ir.Config{Grid: [3]int{1}, Block: [3]int{threads}}, args...))
	return ir.View[int32](out)
}

// predSelectKernel writes select(c, a, b) for the pred bits c, a, b of
// each thread's index.
func predSelectKernel() *ir.Func {
	f := ir.NewFunc("pred_select")
	out := f.AddParam("out", gptr(ir.S32))
	b := ir.NewBuilder(f)
	tid := b.TidX()
	bit := func(k uint32) *ir.Value { return b.Ne(b.And(tid, b.U32(1<<k)), b.U32(0)) }
	r := b.Select(bit(0), bit(1), bit(2))
	b.Store(b.Index(out, tid), b.Select(r, b.S32(1), b.S32(0)))
	b.Ret()
	return f
}

// condBrArgsKernel joins (tid, 100) on the true edge and (100, tid) on the
// false edge of a branch on tid's low bit and writes x - y.
func condBrArgsKernel() *ir.Func {
	f := ir.NewFunc("condbr_args")
	out := f.AddParam("out", gptr(ir.S32))
	b := ir.NewBuilder(f)
	tid := b.Cvt(b.TidX(), ir.S32)
	join := b.NewBlock("join", ir.S32, ir.S32)
	c := b.Ne(b.And(tid, b.S32(1)), b.S32(0))
	b.CondBrArgs(c, ir.Edge{Block: join, Args: []*ir.Value{tid, b.S32(100)}}, ir.Edge{Block: join, Args: []*ir.Value{b.S32(100), tid}})
	b.SetBlock(join)
	b.Store(b.Index(out, tid), b.Sub(join.Params[0], join.Params[1]))
	b.Ret()
	return f
}

func TestLegalizeKeepsSemantics(t *testing.T) {
	// The swap loop's results follow the permutation applied n times.
	n := 7
	v := []int32{1, 2, 3, 4, 5, 0, 1}
	for range n {
		v = []int32{v[1], v[0], v[3], v[4], v[2], v[6], v[5] + v[6]}
	}
	predWant := make([]int32, 8)
	for i := range predWant {
		c, a, bb := i&1 != 0, i&2 != 0, i&4 != 0
		if c && a || !c && bb {
			predWant[i] = 1
		}
	}
	brWant := make([]int32, 8)
	for i := range brWant {
		if i&1 != 0 {
			brWant[i] = int32(i) - 100
		} else {
			brWant[i] = 100 - int32(i)
		}
	}
	tests := []struct {
		name    string
		build   func() *ir.Func
		threads int
		extra   []any
		want    []int32
	}{
		{"swap_loop", swapLoopKernel, 1, []any{int32(n)}, v},
		{"pred_select", predSelectKernel, 8, nil, predWant},
		{"condbr_args", condBrArgsKernel, 8, nil, brWant},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fn := tc.build()
			lf, err := Legalize(fn, Options{})
			require.NoError(t, err)
			got := runOut(t, fn, tc.threads, len(tc.want), tc.extra...)
			require.Equal(t, tc.want, got, "original")
			got = runOut(t, lf, tc.threads, len(tc.want), tc.extra...)
			require.Equal(t, tc.want, got, "legalized")
		})
	}
}

func TestLegalizeRewrites(t *testing.T) {
	lf, err := Legalize(predSelectKernel(), Options{})
	require.NoError(t, err)
	for _, b := range lf.Blocks {
		for _, in := range b.Instrs {
			if in.Op == ir.OpSelect && in.Result().Type == ir.Pred {
				t.Errorf("select of pred left in place: %s", in)
			}
		}
	}
	lf, err = Legalize(condBrArgsKernel(), Options{})
	require.NoError(t, err)
	splits := 0
	for _, b := range lf.Blocks {
		if term := b.Term(); term.Op == ir.OpCondBr {
			for _, e := range term.Succs {
				if len(e.Args) > 0 {
					t.Errorf("conditional branch edge to %s still carries arguments", e.Block)
				}
				splits++
			}
		}
	}
	if splits != 2 {
		t.Errorf("split edges: got:%v want:%v", splits, 2)
	}
}

func TestEmitLeavesInputAlone(t *testing.T) {
	for _, tc := range goldenCases {
		fn := tc.build()
		before := fn.String()
		_, err := Emit(fn, tc.opts)
		require.NoError(t, err)
		require.Equal(t, before, fn.String(), "Emit modified %s", fn.Name)
	}
}

// expKernel stores exp(x) for f32 or f64.
func expKernel(t ir.Type, fn ir.MathFn) *ir.Func {
	f := ir.NewFunc("exp_" + t.String())
	x := f.AddParam("x", gptr(t))
	b := ir.NewBuilder(f)
	b.Store(x, b.Math(fn, b.Load(x)))
	b.Ret()
	return f
}

func TestMathExpansionHook(t *testing.T) {
	// Without a hook an accurate exp is an error naming kernel and call.
	_, err := Emit(expKernel(ir.F32, ir.MathExp), Options{})
	require.Error(t, err)
	for _, s := range []string{"exp_f32", "math.exp.f32", "ExpandMath"} {
		require.Contains(t, err.Error(), s)
	}
	// FastMath takes the f32 approximation and needs no hook.
	text, err := Emit(expKernel(ir.F32, ir.MathExp), Options{FastMath: true})
	require.NoError(t, err)
	require.Contains(t, text, "ex2.approx.ftz.f32")
	// f64 has no approximation: FastMath still needs the math library.
	_, err = Emit(expKernel(ir.F64, ir.MathExp), Options{FastMath: true})
	require.ErrorContains(t, err, "math.exp.f64")

	// The hook runs on the legalized copy; what it leaves is emitted.
	orig := expKernel(ir.F32, ir.MathErf)
	before := orig.String()
	calls := 0
	hook := func(f *ir.Func) error {
		calls++
		require.NotSame(t, orig, f)
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if in.Op == ir.OpMath && in.Fn == ir.MathErf {
					in.Fn = ir.MathSqrt // a stand-in rewrite the test can see
				}
			}
		}
		return nil
	}
	text, err = Emit(orig, Options{ExpandMath: hook})
	require.NoError(t, err)
	require.Equal(t, 1, calls)
	require.Contains(t, text, "sqrt.rn.f32")
	require.Equal(t, before, orig.String())

	// Calls PTX does exactly never reach the hook.
	calls = 0
	_, err = Emit(expKernel(ir.F64, ir.MathFloor), Options{ExpandMath: hook})
	require.NoError(t, err)
	require.Zero(t, calls)

	// A hook that leaves the call, or fails, is an error.
	_, err = Emit(expKernel(ir.F64, ir.MathErf), Options{ExpandMath: func(*ir.Func) error { return nil }})
	require.ErrorContains(t, err, "left them in place")
	_, err = Emit(expKernel(ir.F64, ir.MathErf), Options{ExpandMath: func(*ir.Func) error { return errors.New("no erf") }})
	require.ErrorContains(t, err, "no erf")
	require.ErrorContains(t, err, "exp_f64")
}

func TestEmitErrors(t *testing.T) {
	bad := ir.NewFunc("bad")
	b := ir.NewBuilder(bad)
	b.Add(b.S32(1), b.F32(1))
	b.Ret()
	tests := []struct {
		name string
		fns  []*ir.Func
		opts Options
		want string
	}{
		{"invalid IR", []*ir.Func{bad}, Options{}, "kernel bad is not valid IR"},
		{"no kernels", nil, Options{}, "no kernels"},
		{"nil kernel", []*ir.Func{nil}, Options{}, "kernel 0 is nil"},
		{"bad name", []*ir.Func{ir.NewFunc("a-b")}, Options{}, "not a PTX identifier"},
		{"duplicate", []*ir.Func{vaddKernel(), vaddKernel()}, Options{}, "two kernels are named vadd"},
		{"address size", []*ir.Func{vaddKernel()}, Options{AddressSize: 32}, "address size 32"},
		{"arch too new", []*ir.Func{vaddKernel()}, Options{Arch: Capability{10, 0}}, "sm_100 needs PTX ISA 8.6"},
		{"ptx too old", []*ir.Func{vaddKernel()}, Options{PTX: Version{6, 5}}, "sm_80 needs PTX ISA 7.0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := EmitModule(tc.fns, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got:%v want:%v", err, tc.want)
			}
		})
	}
}

func TestEmitConcurrent(t *testing.T) {
	fn := blockSumKernel()
	want, err := Emit(fn, Options{})
	require.NoError(t, err)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := Emit(fn, Options{})
			if err == nil && got != want {
				err = errors.New("concurrent Emit gave different text")
			}
			errs <- err
		}()
	}
	for range 4 {
		require.NoError(t, <-errs)
	}
}

func TestUnnamedSymbols(t *testing.T) {
	f := ir.NewFunc("unnamed")
	p := f.AddParam("", gptr(ir.F32))
	s := f.AddShared("", ir.F32, 4)
	b := ir.NewBuilder(f)
	b.Store(s, b.F32(1))
	b.Store(p, b.Load(s))
	b.Ret()
	text, err := Emit(f, Options{})
	require.NoError(t, err)
	require.Contains(t, text, ".param .u64 p$0")
	require.Contains(t, text, ".shared .align 16 .b8 s$0[16]")
	assembleModule(t, text)
}

func TestApproxNeedsItsISA(t *testing.T) {
	// tanh.approx.f32 needs sm_75 and PTX ISA 7.0: a driver whose JIT
	// reads an older ISA would reject the module, so the call goes to the
	// math library (here a hook that counts it) instead.
	tests := []struct {
		name       string
		arch       Capability
		cuda       Version
		wantApprox bool
	}{
		{"sm_80, CUDA 11.8", Capability{8, 0}, Version{11, 8}, true},
		{"sm_75, CUDA 11.0", Capability{7, 5}, Version{11, 0}, true},
		{"sm_75, CUDA 10.2 (ISA 6.5)", Capability{7, 5}, Version{10, 2}, false},
		{"sm_70, CUDA 11.8", Capability{7, 0}, Version{11, 8}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expanded := 0
			hook := func(f *ir.Func) error {
				for _, b := range f.Blocks {
					for _, in := range b.Instrs {
						if in.Op == ir.OpMath && in.Fn == ir.MathTanh {
							expanded++
							in.Fn = ir.MathSqrt // a stand-in the emitter takes
						}
					}
				}
				return nil
			}
			text, err := Emit(expKernel(ir.F32, ir.MathTanh), Options{Arch: tt.arch, CUDA: tt.cuda, FastMath: true, ExpandMath: hook})
			require.NoError(t, err)
			if got := strings.Contains(text, "tanh.approx.f32"); got != tt.wantApprox {
				t.Errorf("tanh.approx.f32 emitted got:%v want:%v\n%s", got, tt.wantApprox, text)
			}
			if got := expanded == 0; got != tt.wantApprox {
				t.Errorf("kept out of the math library got:%v want:%v", got, tt.wantApprox)
			}
		})
	}
}
