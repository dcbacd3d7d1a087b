// Tests of kernel launches: argument packing, recorded geometry, kernels
// the fake runs, launch errors and zero allocations per launch.

package cuda

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// loadFake loads fakePTX and returns the named kernels; the module is
// unloaded when the test ends.
func loadFake(t testing.TB, ctx *Context, names ...string) []Function {
	t.Helper()
	m, _, err := ctx.LoadModule(fakePTX, JITOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, ctx.ModuleUnload(m)) })
	fns := make([]Function, len(names))
	for i, name := range names {
		fns[i], err = ctx.ModuleFunction(m, name)
		require.NoError(t, err, name)
	}
	return fns
}

func TestLaunchEveryKind(t *testing.T) {
	f, ctx := fakeContext(t)
	fn := loadFake(t, ctx, "every_kind")[0]
	args := NewArgs(ArgPtr, ArgI32, ArgU32, ArgF32, ArgI64, ArgU64, ArgF64)
	require.Equal(t, 7, args.Len())
	for round, tc := range []struct {
		p DevicePtr
		i int32
		u uint32
		f float32
		l int64
		q uint64
		d float64
	}{
		{0x7f0000001000, -5, 0xfffffffe, 1.5, -1 << 40, 1<<64 - 1, math.Pi},
		{0x10, math.MinInt32, 0, float32(math.Inf(-1)), math.MaxInt64, 0, -0.25},
	} {
		args.SetPtr(0, tc.p)
		args.SetI32(1, tc.i)
		args.SetU32(2, tc.u)
		args.SetF32(3, tc.f)
		args.SetI64(4, tc.l)
		args.SetU64(5, tc.q)
		args.SetF64(6, tc.d)
		require.NoError(t, ctx.Launch(fn, Dim3{X: 3, Y: 2}, Dim3{X: 128}, 1024, 0, args))
		rec := f.lastLaunch()
		want := []uint64{uint64(tc.p), uint64(uint32(tc.i)), uint64(tc.u), uint64(math.Float32bits(tc.f)),
			uint64(tc.l), tc.q, math.Float64bits(tc.d)}
		require.Equal(t, want, rec.params, "round %d", round)
		require.Equal(t, "every_kind", rec.name)
		require.Equal(t, Dim3{3, 2, 1}, rec.grid)
		require.Equal(t, Dim3{128, 1, 1}, rec.block)
		require.Equal(t, uint32(1024), rec.shared)
	}
}

func TestLaunchRunsKernels(t *testing.T) {
	_, ctx := fakeContext(t)
	fns := loadFake(t, ctx, "fake_add", "fake_axpy")
	const n = 777
	a := make([]int32, n)
	b := make([]int32, n)
	for i := range a {
		a[i], b[i] = int32(i), int32(1000-3*i)
	}
	da, err := ctx.MemAlloc(4 * n)
	require.NoError(t, err)
	db, err := ctx.MemAlloc(4 * n)
	require.NoError(t, err)
	dc, err := ctx.MemAlloc(4 * n)
	require.NoError(t, err)
	defer func() {
		for _, p := range []DevicePtr{da, db, dc} {
			require.NoError(t, ctx.MemFree(p))
		}
	}()
	require.NoError(t, ctx.MemcpyHtoDAsync(da, hostPtr(a), 4*n, 0))
	require.NoError(t, ctx.MemcpyHtoDAsync(db, hostPtr(b), 4*n, 0))

	add := NewArgs(ArgPtr, ArgPtr, ArgPtr, ArgU32)
	add.SetPtr(0, da)
	add.SetPtr(1, db)
	add.SetPtr(2, dc)
	add.SetU32(3, n)
	require.NoError(t, ctx.Launch(fns[0], Dim3{X: (n + 255) / 256}, Dim3{X: 256}, 0, 0, add))
	c := make([]int32, n)
	require.NoError(t, ctx.MemcpyDtoHAsync(hostPtr(c), dc, 4*n, 0))
	for i := range c {
		if c[i] != a[i]+b[i] {
			t.Fatalf("fake_add c[%d] got:%v want:%v", i, c[i], a[i]+b[i])
		}
	}

	// fake_axpy over the same bytes read as float32: y = 2.5*x + y.
	x := make([]float32, n)
	y := make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i)*0.5, 1
	}
	require.NoError(t, ctx.MemcpyHtoDAsync(da, hostPtr(x), 4*n, 0))
	require.NoError(t, ctx.MemcpyHtoDAsync(db, hostPtr(y), 4*n, 0))
	axpy := NewArgs(ArgF32, ArgPtr, ArgPtr, ArgU32)
	axpy.SetF32(0, 2.5)
	axpy.SetPtr(1, da)
	axpy.SetPtr(2, db)
	axpy.SetU32(3, n)
	require.NoError(t, ctx.Launch(fns[1], Dim3{X: 4}, Dim3{X: 256}, 0, 0, axpy))
	require.NoError(t, ctx.MemcpyDtoHAsync(hostPtr(y), db, 4*n, 0))
	for i := range y {
		if want := 2.5*x[i] + 1; y[i] != want {
			t.Fatalf("fake_axpy y[%d] got:%v want:%v", i, y[i], want)
		}
	}
}

func TestLaunchWithoutParams(t *testing.T) {
	f, ctx := fakeContext(t)
	fn := loadFake(t, ctx, "no_params")[0]
	before := f.LaunchCount()
	require.NoError(t, ctx.Launch(fn, Dim3{}, Dim3{}, 0, 0, nil))
	require.NoError(t, ctx.Launch(fn, Dim3{X: 2}, Dim3{X: 32}, 0, 0, NewArgs()))
	require.Equal(t, before+2, f.LaunchCount())
	rec := f.lastLaunch()
	require.Equal(t, Dim3{2, 1, 1}, rec.grid)
	require.Empty(t, rec.params)
}

func TestLaunchErrors(t *testing.T) {
	f, ctx := fakeContext(t)
	fn := loadFake(t, ctx, "no_params")[0]
	err := ctx.Launch(fn, Dim3{X: 1}, Dim3{X: 2048}, 0, 0, nil)
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
	require.Contains(t, err.Error(), "grid {1 1 1}, block {2048 1 1}, shared 0")

	err = ctx.Launch(fn, Dim3{X: 1}, Dim3{X: 32}, 64<<10, 0, nil) // over the 48 KiB default
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)

	// 719 is a sticky fault: the binding records it for the device, which
	// the fake (injecting it once) does not make sticky itself.
	t.Cleanup(func() { f.drv.ClearFault(0) })
	f.FailNext("cuLaunchKernel", int32(ResultLaunchFailed))
	err = ctx.Launch(fn, Dim3{X: 1}, Dim3{X: 32}, 0, 0, nil)
	require.True(t, IsResult(err, ResultLaunchFailed), "got:%v", err)
	require.Contains(t, err.Error(), "cuLaunchKernel(function ")
	require.Contains(t, err.Error(), "CUDA_ERROR_LAUNCH_FAILED: unspecified launch failure")
}

func TestArgsKindMismatchPanics(t *testing.T) {
	args := NewArgs(ArgPtr, ArgF32)
	require.PanicsWithValue(t, "cuda: Args: parameter 1 is f32, set as u32", func() { args.SetU32(1, 3) })
	require.Panics(t, func() { args.SetPtr(2, 0) })
	require.Panics(t, func() { NewArgs(ArgKind(42)) })
	require.Equal(t, "ArgKind(42)", ArgKind(42).String())
	args.SetF32(1, -2)
	require.Equal(t, uint64(math.Float32bits(-2)), args.Raw(1))
	require.Equal(t, ArgF32, args.Kind(1))
}

func TestLaunchAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race (sync.Pool drops items)")
	}
	f, ctx := fakeContext(t)
	fn := loadFake(t, ctx, "every_kind")[0]
	args := NewArgs(ArgPtr, ArgI32, ArgU32, ArgF32, ArgI64, ArgU64, ArgF64)
	var i uint32
	allocs := testing.AllocsPerRun(200, func() {
		i++
		args.SetPtr(0, DevicePtr(i))
		args.SetI32(1, int32(i))
		args.SetU32(2, i)
		args.SetF32(3, float32(i))
		if err := ctx.Launch(fn, Dim3{X: 1}, Dim3{X: 32}, 0, 0, args); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("allocations per launch got:%v want:0", allocs)
	}
	require.Equal(t, []uint64{uint64(i), uint64(i), uint64(i), uint64(math.Float32bits(float32(i))), 0, 0, 0}, f.lastLaunch().params)
}

// BenchmarkLaunch measures the Go host time of one launch against the fake
// driver, whose cuLaunchKernel only records the launch.
func BenchmarkLaunch(b *testing.B) {
	_, ctx := fakeContext(b)
	fn := loadFake(b, ctx, "every_kind")[0]
	args := NewArgs(ArgPtr, ArgI32, ArgU32, ArgF32, ArgI64, ArgU64, ArgF64)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		args.SetI32(1, int32(i))
		if err := ctx.Launch(fn, Dim3{X: 1024}, Dim3{X: 256}, 0, 0, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRawLaunch is the same launch called straight through purego on a
// thread where the context is already current: the floor Launch adds to.
func BenchmarkRawLaunch(b *testing.B) {
	_, ctx := fakeContext(b)
	fn := loadFake(b, ctx, "every_kind")[0]
	args := NewArgs(ArgPtr, ArgI32, ArgU32, ArgF32, ArgI64, ArgU64, ArgF64)
	b.ReportAllocs()
	require.NoError(b, ctx.Do(func() error {
		params := args.pinParams()
		defer args.unpin()
		b.ResetTimer()
		for range b.N {
			if r := ctx.d.call(fnLaunchKernel, uintptr(fn), 1024, 1, 1, 256, 1, 1, 0, 0, uintptr(params), 0); r != ResultSuccess {
				b.Fatal(r)
			}
		}
		return nil
	}))
}
