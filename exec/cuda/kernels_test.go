// Explicit kernels through Backend.KernelDevice: every kernel of
// internal/kerneltest launched on the emulated device (its PTX on the
// PTX simulator, behind the fake driver's module loading, argument
// packing and copies) and, under FUSEFLOW_DEVICE=cuda, on the GPU,
// agreeing bit for bit with the same launch run natively on the CPU
// device; host slices and device arrays; a failing bounds check naming
// its source line; bad arguments.

package cuda

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	kt "github.com/fuseflow/fuseflow/exec/cuda/internal/kerneltest"
	ct "github.com/fuseflow/fuseflow/internal/calltest"
	"github.com/fuseflow/fuseflow/kernel"
)

// explicitCase is one launch of an explicit kernel.
type explicitCase struct {
	name string
	k    *kernel.Kernel
	cfg  kernel.Config
	args func(r *rand.Rand) []any
}

func explicitCases() []explicitCase {
	f32s := func(r *rand.Rand, n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		return s
	}
	return []explicitCase{
		{"scalars", kt.ScalarsKernel, kernel.Launch1D(1, 32), func(*rand.Rand) []any {
			return []any{true, -5, int32(-7), int64(1) << 40, uint32(4e9), uint64(1)<<63 + 5, float32(1.5), 2.25,
				make([]float64, 7), make([]uint64, 2)}
		}},
		{"saxpy", ct.SaxpyKernel, kernel.Launch1D(3, 64), func(r *rand.Rand) []any {
			return []any{float32(2.5), f32s(r, 1000), f32s(r, 1000)}
		}},
		{"volume", kt.VolumeKernel, kernel.Config{Grid: kernel.D3(2, 2, 2), Block: kernel.D3(4, 2, 2)}, func(*rand.Rand) []any {
			return []any{make([]int32, 5*4*3), 5, 4, 3}
		}},
		{"block sum", kt.BlockSumKernel, kernel.Launch1D(8, 128), func(r *rand.Rand) []any {
			return []any{f32s(r, 1000), make([]float32, 8)}
		}},
		{"reverse", kt.ReverseKernel, kernel.Config{Grid: kernel.D1(4), Block: kernel.D1(64), SharedBytes: 64 * 8}, func(r *rand.Rand) []any {
			x := make([]int64, 256)
			for i := range x {
				x[i] = r.Int64()
			}
			return []any{x}
		}},
		{"histogram", kt.HistogramKernel, kernel.Launch1D(4, 128), func(r *rand.Rand) []any {
			x := make([]int32, 5000)
			for i := range x {
				x[i] = int32(r.IntN(43) - 3)
			}
			return []any{x, make([]uint32, 32)}
		}},
		{"tiled matmul", kt.TiledMatMulKernel, kernel.Config{Grid: kernel.D2(3, 3), Block: kernel.D2(16, 16)}, func(r *rand.Rand) []any {
			const n = 37
			return []any{f32s(r, n*n), f32s(r, n*n), make([]float32, n*n), n}
		}},
		{"weigh", kt.WeighKernel, kernel.Launch1D(2, 64), func(r *rand.Rand) []any {
			x := make([]float64, 100)
			for i := range x {
				x[i] = r.NormFloat64()
			}
			x[3], x[7] = math.Inf(-1), math.NaN()
			return []any{x}
		}},
	}
}

// cloneSlices deep-copies the slices of args.
func cloneSlices(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		if v := reflect.ValueOf(a); v.Kind() == reflect.Slice {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			a = c.Interface()
		}
		out[i] = a
	}
	return out
}

// requireSameBits fails unless every slice of got equals want's, floats
// bit for bit.
func requireSameBits(t *testing.T, what string, want, got []any) {
	t.Helper()
	for i := range want {
		w, g := reflect.ValueOf(want[i]), reflect.ValueOf(got[i])
		if w.Kind() != reflect.Slice {
			continue
		}
		for j := range w.Len() {
			a, b := w.Index(j), g.Index(j)
			same := a.Equal(b)
			switch a.Kind() {
			case reflect.Float32:
				same = math.Float32bits(float32(a.Float())) == math.Float32bits(float32(b.Float()))
			case reflect.Float64:
				same = math.Float64bits(a.Float()) == math.Float64bits(b.Float())
			}
			if !same {
				t.Fatalf("%s: argument %d element %d got:%v want:%v", what, i+1, j, b, a)
			}
		}
	}
}

// runExplicitCases launches every case on the CPU device and on dev,
// once with host slices and once with the slices as device arrays, and
// compares.
func runExplicitCases(t *testing.T, dev kernel.Device) {
	for _, c := range explicitCases() {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(len(c.name))))
			in := c.args(r)
			want := cloneSlices(in)
			cpu := c.cfg
			cpu.Device = kernel.CPU()
			require.NoError(t, c.k.Launch(cpu, want...))

			got := cloneSlices(in)
			gpu := c.cfg
			gpu.Device = dev
			require.NoError(t, c.k.Launch(gpu, got...))
			requireSameBits(t, "host slices", want, got)

			// The same with every slice a device array.
			dargs := make([]any, len(in))
			fetch := make([]func() any, len(in))
			for i, a := range in {
				dargs[i], fetch[i] = deviceArg(t, dev, a)
			}
			require.NoError(t, c.k.Launch(gpu, dargs...))
			got = make([]any, len(in))
			for i := range in {
				got[i] = fetch[i]()
			}
			requireSameBits(t, "device arrays", want, got)
		})
	}
}

// deviceArg returns a slice argument as a device array on dev holding a
// copy of it, and a function that copies it back and frees it; any
// other argument unchanged, with a function returning it.
func deviceArg(t *testing.T, dev kernel.Device, a any) (any, func() any) {
	switch s := a.(type) {
	case []float32:
		return onDevice(t, dev, s)
	case []float64:
		return onDevice(t, dev, s)
	case []int32:
		return onDevice(t, dev, s)
	case []int64:
		return onDevice(t, dev, s)
	case []uint32:
		return onDevice(t, dev, s)
	case []uint64:
		return onDevice(t, dev, s)
	}
	return a, func() any { return a }
}

func onDevice[T kernel.Elem](t *testing.T, dev kernel.Device, s []T) (any, func() any) {
	arr, err := kernel.ToDevice(dev, s)
	require.NoError(t, err)
	return arr, func() any {
		h, err := arr.CopyToHost()
		require.NoError(t, err)
		require.NoError(t, arr.Free())
		return h
	}
}

// fileExplicit files every kernel of internal/kerneltest with the
// emulator when b is emulated.
func fileExplicit(t *testing.T) {
	t.Helper()
	if emu == nil || gpuOrdinal >= 0 {
		return
	}
	for _, k := range []*kernel.Kernel{kt.ScalarsKernel, ct.SaxpyKernel, kt.VolumeKernel, kt.BlockSumKernel,
		kt.ReverseKernel, kt.HistogramKernel, kt.WeighKernel, kt.GatherKernel, kt.TiledMatMulKernel} {
		require.NoError(t, emu.emuExplicit(k))
	}
}

// explicitEmuBackend opens emulated device dev for a test of explicit
// kernels, with the kernels of kerneltest filed for it; explicit kernels
// run only on the PTX simulator, so it skips under -emu.mode=ir as well
// as without the emulated device.
func explicitEmuBackend(t *testing.T, dev emuDevice) *Backend {
	t.Helper()
	needEmu(t)
	if !emuSimulates() {
		t.Skip("explicit kernels run on the PTX simulator, not with -emu.mode=ir")
	}
	b := emuBackend(t, dev, Options{})
	fileExplicit(t)
	return b
}

// TestEmulatedExplicitKernels runs the explicit kernels on the emulated
// device.
func TestEmulatedExplicitKernels(t *testing.T) {
	b := explicitEmuBackend(t, emuH100)
	runExplicitCases(t, b.KernelDevice())
}

// TestGPUExplicitKernels runs the explicit kernels on the GPU (or, with
// -emulate, the emulated device).
func TestGPUExplicitKernels(t *testing.T) {
	b := gpuBackend(t, Options{})
	fileExplicit(t)
	runExplicitCases(t, b.KernelDevice())
}

// gatherLine is the line of kerneltest's kernels.go where Gather reads
// x[idx[i]].
const gatherLine = "kernels.go:137"

// explicitFailure launches Gather with an index out of range on b's
// kernel device and checks the error: a LaunchError at the kernel's line,
// and the backend unusable after it.
func explicitFailure(t *testing.T, b *Backend) {
	x := make([]float32, 10)
	idx := []int32{0, 1, 2, 99, 4}
	out := make([]float32, len(idx))
	err := kt.GatherKernel.Launch(kernel.Config{Grid: kernel.D1(1), Block: kernel.D1(32), Device: b.KernelDevice()}, x, idx, out)
	var le *kernel.LaunchError
	require.ErrorAs(t, err, &le)
	require.Equal(t, "Gather", le.Kernel)
	require.True(t, strings.HasPrefix(le.Pos, gatherLine), "got:%s want:%s", le.Pos, gatherLine)
	require.Contains(t, le.Msg, "index out of range")

	// The CPU device fails at the same line.
	err = kt.GatherKernel.Launch(kernel.Config{Grid: kernel.D1(1), Block: kernel.D1(32), Device: kernel.CPU()}, x, idx, out)
	require.ErrorAs(t, err, &le)
	require.Equal(t, gatherLine, le.Pos)

	// A trap ends the device context: later calls say so.
	_, err = b.KernelDevice().Alloc(kernel.Float32, 4)
	require.ErrorIs(t, err, ErrDeviceFault)
}

func TestEmulatedExplicitFailure(t *testing.T) {
	b := explicitEmuBackend(t, emuSmall)
	breakable(t, b)
	explicitFailure(t, b)
}

// TestGPUExplicitFailure is the last GPU test to run on its backend: the
// trap breaks the context.
func TestGPUExplicitFailure(t *testing.T) {
	if gpuOrdinal < 0 {
		t.Skip("needs FUSEFLOW_DEVICE=cuda; TestEmulatedExplicitFailure covers the emulated device")
	}
	b, err := New(gpuOrdinal, Options{})
	require.NoError(t, err)
	defer b.Close()
	explicitFailure(t, b)
}

func TestExplicitArguments(t *testing.T) {
	b := explicitEmuBackend(t, emuH100)
	dev := b.KernelDevice()
	require.Same(t, dev, b.KernelDevice())
	require.Equal(t, b.Name(), dev.Name())

	var notices []string
	old := hostSliceNotice
	hostSliceNotice = func(msg string) { notices = append(notices, msg) }
	defer func() { hostSliceNotice = old }()
	cfg := kernel.Config{Grid: kernel.D1(1), Block: kernel.D1(32), Device: dev}
	x, y := []float32{1, 2, 3}, []float32{1, 1, 1}
	require.NoError(t, ct.SaxpyKernel.Launch(cfg, float32(2), x, y))
	require.NoError(t, ct.SaxpyKernel.Launch(cfg, float32(2), x, y))
	require.Equal(t, []float32{5, 9, 13}, y)
	require.Len(t, notices, 1, "one notice per kernel")
	require.Contains(t, notices[0], "kernel Saxpy: host slice x")

	// A device array of another device, of the wrong type, freed.
	cpuArr, err := kernel.ToDevice(kernel.CPU(), x)
	require.NoError(t, err)
	err = ct.SaxpyKernel.Launch(cfg, float32(2), cpuArr, y)
	require.ErrorContains(t, err, "parameter x []float32")
	require.ErrorContains(t, err, "is on cpu")
	arr, err := kernel.ToDevice(dev, []float64{1})
	require.NoError(t, err)
	err = ct.SaxpyKernel.Launch(cfg, float32(2), x, arr)
	require.ErrorContains(t, err, "device array of float64")
	require.NoError(t, arr.Free())
	require.Error(t, arr.Free())

	// Geometry: ForAll picks a block size from the occupancy.
	fa, err := ct.SaxpyKernel.ForAllConfig(dev, 5000)
	require.NoError(t, err)
	require.Zero(t, fa.Block.X%32, "block %v", fa.Block)
	require.GreaterOrEqual(t, fa.Grid.X*fa.Block.X, 5000)

	// More dynamic shared memory than a block may have.
	err = kt.ReverseKernel.Launch(kernel.Config{Grid: kernel.D1(1), Block: kernel.D1(32), SharedBytes: 1 << 30, Device: dev}, make([]int64, 32))
	require.Error(t, err)
	require.ErrorContains(t, err, "Reverse")
}
