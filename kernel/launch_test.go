// This file tests launches on the CPU device of kernels whose threads do
// not synchronize: indices over 1-D, 2-D and 3-D grids, argument and
// geometry checks, panics turned into launch errors, device arrays,
// ForAll and cancellation.

package kernel_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

func saxpy(t kernel.Thread, a float32, x, y []float32) {
	i := t.Grid1()
	if i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

var saxpyKernel = kernel.New(kernel.Spec{
	Name: "saxpy",
	Params: []kernel.Param{{Name: "a", Type: kernel.Float32}, {Name: "x", Type: kernel.Float32, Slice: true},
		{Name: "y", Type: kernel.Float32, Slice: true, Written: true}},
	Bind: kernel.Bind3(saxpy),
})

func TestLaunchSaxpy(t *testing.T) {
	for _, n := range []int{1, 255, 256, 1000, 5000} {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(i), float32(2*i)
		}
		require.NoError(t, saxpyKernel.Launch(kernel.Launch1D((n+127)/128, 128), 3, x, y))
		for i := range y {
			if want := float32(5 * i); y[i] != want {
				t.Fatalf("n=%d y[%d] got:%v want:%v", n, i, y[i], want)
			}
		}
	}
}

// record writes, for every thread, its indices and the grid's into out.
func record(t kernel.Thread, out []int) {
	x, y, z := t.Grid3()
	sx, sy, sz := t.GridSize3()
	i := x + sx*(y+sy*z)
	tid, bid, bd, gd := t.ThreadIdx(), t.BlockIdx(), t.BlockDim(), t.GridDim()
	g2x, g2y := t.Grid2()
	s2x, s2y := t.GridSize2()
	ok := g2x == x && g2y == y && s2x == sx && s2y == sy && t.Grid1() == x && t.GridSize1() == sx &&
		x == bid.X*bd.X+tid.X && y == bid.Y*bd.Y+tid.Y && z == bid.Z*bd.Z+tid.Z &&
		sx == bd.X*gd.X && sy == bd.Y*gd.Y && sz == bd.Z*gd.Z && t.WarpSize() == 32 &&
		t.LaneID() == (tid.X+bd.X*(tid.Y+bd.Y*tid.Z))%32
	v := 1
	if !ok {
		v = -1 << 20
	}
	out[i] += v
}

var recordKernel = kernel.New(kernel.Spec{
	Name: "record", Params: []kernel.Param{{Name: "out", Type: kernel.Int, Slice: true, Written: true}},
	Bind: kernel.Bind1(record),
})

func TestLaunchIndices(t *testing.T) {
	for _, tc := range []struct{ grid, block kernel.Dim3 }{
		{kernel.D1(7), kernel.D1(33)},
		{kernel.D2(3, 4), kernel.D2(8, 5)},
		{kernel.D3(2, 3, 2), kernel.D3(4, 2, 3)},
		{kernel.Dim3{X: 5}, kernel.Dim3{X: 2, Y: 3}}, // zero components count as 1
	} {
		g, b := tc.grid, tc.block
		n := max(g.X, 1) * max(g.Y, 1) * max(g.Z, 1) * max(b.X, 1) * max(b.Y, 1) * max(b.Z, 1)
		out := make([]int, n)
		require.NoError(t, recordKernel.Launch(kernel.Config{Grid: g, Block: b}, out))
		for i, v := range out {
			require.Equal(t, 1, v, "grid %v block %v: element %d got:%v want:1", g, b, i, v)
		}
	}
}

func TestLaunchArgumentChecks(t *testing.T) {
	x, y := make([]float32, 4), make([]float32, 4)
	cfg := kernel.Launch1D(1, 4)
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{float32(1), x}, "kernel saxpy: 2 arguments for the 3 parameters (a float32, x []float32, y []float32)"},
		{[]any{float32(1), x, make([]float64, 4)}, "argument 3 for parameter y []float32: got []float64, want []float32 or a device array of float32"},
		{[]any{"a", x, y}, "argument 1 for parameter a float32: got string, want a number"},
		{[]any{nil, x, y}, "argument 1 for parameter a float32: got nil, want a float32"},
		{[]any{float32(1), 3, y}, "argument 2 for parameter x []float32: got int"},
	} {
		err := saxpyKernel.Launch(cfg, tc.args...)
		require.Error(t, err)
		require.Contains(t, err.Error(), tc.want)
	}
	// Go numbers convert to the parameter's type: untyped constants
	// arrive as int and float64.
	for _, a := range []any{2, 2.0, int8(2), uint64(2), float32(2)} {
		y := []float32{1, 1, 1, 1}
		require.NoError(t, saxpyKernel.Launch(cfg, a, []float32{1, 2, 3, 4}, y))
		require.Equal(t, []float32{3, 5, 7, 9}, y, "a=%T", a)
	}
	// A nil slice is an empty one.
	require.NoError(t, saxpyKernel.Launch(cfg, 1, nil, nil))
}

func TestConvertIntegerScalars(t *testing.T) {
	var got []any
	k := kernel.New(kernel.Spec{
		Name: "ints",
		Params: []kernel.Param{{Name: "a", Type: kernel.Int32}, {Name: "b", Type: kernel.Uint32},
			{Name: "c", Type: kernel.Uint64}, {Name: "d", Type: kernel.Bool}, {Name: "e", Type: kernel.Float64}},
		Bind: func(a []any) func(kernel.Thread) {
			got = a
			return func(kernel.Thread) {}
		},
	})
	cfg := kernel.Launch1D(1, 1)
	require.NoError(t, k.Launch(cfg, -5, uint8(7), int64(1<<40), true, int32(3)))
	require.Equal(t, []any{int32(-5), uint32(7), uint64(1 << 40), true, float64(3)}, got)
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{1 << 31, 0, 0, false, 0}, "parameter a int32: 2147483648 does not fit int32"},
		{[]any{0, -1, 0, false, 0}, "parameter b uint32: -1 does not fit uint32"},
		{[]any{0, uint64(1 << 33), 0, false, 0}, "parameter b uint32: 8589934592 does not fit uint32"},
		{[]any{uint64(1 << 63), 0, 0, false, 0}, "parameter a int32: 9223372036854775808 does not fit int32"},
		{[]any{1.5, 0, 0, false, 0}, "parameter a int32: got float64, want an integer that fits int32"},
		{[]any{0, 0, 0, 1, 0}, "parameter d bool: got int, want a bool"},
	} {
		err := k.Launch(cfg, tc.args...)
		require.Error(t, err)
		require.Contains(t, err.Error(), tc.want)
	}
}

func TestLaunchGeometryChecks(t *testing.T) {
	x := make([]float32, 1)
	for _, tc := range []struct {
		cfg  kernel.Config
		want string
	}{
		{kernel.Launch1D(1, 2048), "block (2048,1,1) exceeds the largest block (1024,1024,64)"},
		{kernel.Config{Grid: kernel.D1(1), Block: kernel.D3(32, 32, 2)}, "block (32,32,2) has 2048 threads, at most 1024"},
		{kernel.Launch1D(-1, 1), "grid (-1,1,1) has a negative dimension"},
		{kernel.Config{Grid: kernel.D2(1, 70000), Block: kernel.D1(1)}, "grid (1,70000,1) exceeds the largest grid"},
		{kernel.Config{Grid: kernel.D1(1), Block: kernel.D1(1), SharedBytes: -4}, "-4 bytes of dynamic shared memory"},
	} {
		err := saxpyKernel.Launch(tc.cfg, 1, x, x)
		require.Error(t, err)
		require.Contains(t, err.Error(), "kernel saxpy: "+tc.want)
	}
}

// oob reads past the end of x in thread 3 of block 2.
func oob(t kernel.Thread, x []float32) {
	i := t.Grid1()
	x[i+1] = x[i] // line of the panic
}

func TestLaunchPanicIsError(t *testing.T) {
	k := kernel.New(kernel.Spec{
		Name: "oob", Params: []kernel.Param{{Name: "x", Type: kernel.Float32, Slice: true, Written: true}},
		Bind: kernel.Bind1(oob),
	})
	x := make([]float32, 12)
	err := k.Launch(kernel.Launch1D(4, 4), x)
	var le *kernel.LaunchError
	require.True(t, errors.As(err, &le), "got:%v", err)
	require.Equal(t, "oob", le.Kernel)
	require.Equal(t, kernel.Dim3{X: 2, Y: 0, Z: 0}, le.Block)
	require.Equal(t, kernel.Dim3{X: 3, Y: 0, Z: 0}, le.Thread)
	require.Equal(t, "launch_test.go:"+fmt.Sprint(lineOf(t, "x[i+1] = x[i] // line of the panic")), le.Pos)
	require.Contains(t, err.Error(), "kernel oob: block (2,0,0) thread (3,0,0) at launch_test.go:")
	require.Contains(t, err.Error(), "panic: runtime error: index out of range [12] with length 12")
	var re runtime.Error
	require.True(t, errors.As(err, &re), "the panic value unwraps")
}

// lineOf returns the line of this file holding text.
func lineOf(t *testing.T, text string) int {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := readFile(t, file)
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, text) && !strings.Contains(l, "lineOf") {
			return i + 1
		}
	}
	t.Fatalf("%q not found", text)
	return 0
}

func TestDeviceArrays(t *testing.T) {
	cpu := kernel.CPU()
	hx := []float32{1, 2, 3}
	dx, err := kernel.ToDevice(cpu, hx)
	require.NoError(t, err)
	hx[0] = 100 // the device array holds a copy
	dy, err := kernel.ArrayLike(cpu, hx)
	require.NoError(t, err)
	require.Equal(t, 3, dy.Len())
	require.Equal(t, "cpu", dy.Device().Name())
	require.NoError(t, saxpyKernel.Launch(kernel.Launch1D(1, 32), float32(2), dx, dy))
	got, err := dy.CopyToHost()
	require.NoError(t, err)
	require.Equal(t, []float32{2, 4, 6}, got)

	// Mixed host slice and device array.
	hy := []float32{1, 1, 1}
	require.NoError(t, saxpyKernel.Launch(kernel.Launch1D(1, 32), 1, dx, hy))
	require.Equal(t, []float32{2, 3, 4}, hy)

	di, err := kernel.NewArray[int32](nil, 3)
	require.NoError(t, err)
	err = saxpyKernel.Launch(kernel.Launch1D(1, 32), 1, dx, di)
	require.ErrorContains(t, err, "parameter y []float32: got a device array of int32")

	require.ErrorContains(t, dx.CopyFrom([]float32{1}), "CopyFrom: 1 elements into an array of 3")
	require.ErrorContains(t, dx.CopyTo(make([]float32, 2)), "CopyTo: an array of 3 elements into 2")
	require.NoError(t, dx.Free())
	require.Equal(t, 0, dx.Len())
	require.ErrorContains(t, dx.Free(), "freed already")
	_, err = dx.CopyToHost()
	require.ErrorContains(t, err, "freed")
	err = saxpyKernel.Launch(kernel.Launch1D(1, 32), 1, dx, hy)
	require.ErrorContains(t, err, "the device array was freed")
	_, err = kernel.NewArray[float64](cpu, -1)
	require.ErrorContains(t, err, "NewArray of -1 float64 on cpu")
}

func TestForAll(t *testing.T) {
	for _, n := range []int{0, 1, 300, 1025} {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = 1
		}
		require.NoError(t, saxpyKernel.ForAll(n, 2, x, y))
		for i := range y {
			require.Equal(t, float32(2), y[i], "n=%d i=%d", n, i)
		}
		cfg, err := saxpyKernel.ForAllConfig(kernel.CPU(), n)
		require.NoError(t, err)
		require.Equal(t, 256, cfg.Block.X)
		require.Equal(t, max(1, (n+255)/256), cfg.Grid.X)
	}
	require.ErrorContains(t, saxpyKernel.ForAll(-1, 2, nil, nil), "ForAll of -1 tasks")
}

func TestLaunchCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := make([]float32, 1<<16)
	err := saxpyKernel.LaunchContext(ctx, kernel.Launch1D(256, 256), 1, x, x)
	require.ErrorIs(t, err, context.Canceled)
}

func TestUnboundKernel(t *testing.T) {
	k := kernel.New(kernel.Spec{Name: "ptxonly"})
	require.ErrorContains(t, k.Launch(kernel.Launch1D(1, 1)), "kernel ptxonly: no Go function is bound")
}

func TestTypes(t *testing.T) {
	require.Equal(t, kernel.Float32, kernel.TypeOf[float32]())
	require.Equal(t, kernel.Int, kernel.TypeOf[int]())
	require.Equal(t, kernel.Invalid, kernel.TypeOf[string]())
	require.Equal(t, "uint64", kernel.Uint64.String())
	require.Equal(t, 1, kernel.Bool.Size())
	require.Equal(t, "x []int32", kernel.Param{Name: "x", Type: kernel.Int32, Slice: true}.String())
	require.Equal(t, "cpu", kernel.DefaultDevice().Name())
	require.Equal(t, []kernel.Device{kernel.CPU()}, kernel.Devices())
}
