// GPU benchmarks of explicit kernels (run with FUSEFLOW_DEVICE=cuda,
// skipped otherwise): saxpy and a shared-memory tiled matrix product
// launched through the kernel device against the same work as lazy
// expressions, and the host time of one launch of a small explicit
// kernel beside BenchmarkGPURawLaunch's bare cuLaunchKernel.
// bench/gpu_peers.py runs Numba's versions of the same kernels at the
// same sizes.

package cuda

import (
	"testing"

	kt "github.com/fuseflow/fuseflow/exec/cuda/internal/kerneltest"
	"github.com/fuseflow/fuseflow/graph"
	ct "github.com/fuseflow/fuseflow/internal/calltest"
	"github.com/fuseflow/fuseflow/kernel"
)

// Sizes of the explicit-kernel workloads (bench/gpu_peers.py uses the
// same).
const (
	benchSaxpy    = 1 << 26 // elements
	benchTiledMM  = 2048    // M = N = K
	benchKLaunchN = 1024    // elements of the launch benchmark
)

// deviceF32 returns a device array of n float32 on dev holding a fixed
// pattern, freed when the benchmark ends.
func deviceF32(b *testing.B, dev kernel.Device, n int) *kernel.Array[float32] {
	b.Helper()
	h := make([]float32, n)
	for i := range h {
		h[i] = 0.5 + float32(i%1021)/1021
	}
	a, err := kernel.ToDevice(dev, h)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = a.Free() })
	return a
}

// benchLaunch launches k with cfg over args once (loading the module),
// then b.N times.
func benchKernel(b *testing.B, k *kernel.Kernel, cfg kernel.Config, args ...any) {
	b.Helper()
	if err := k.Launch(cfg, args...); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := k.Launch(cfg, args...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPUExplicitSaxpy: y = a*x + y over 2^26 float32, explicit
// (the grid-stride kernel, 16 blocks of 256 per SM) and lazy.
func BenchmarkGPUExplicitSaxpy(b *testing.B) {
	be := benchBackend(b)
	b.Run("explicit", func(b *testing.B) {
		dev := be.KernelDevice()
		x, y := deviceF32(b, dev, benchSaxpy), deviceF32(b, dev, benchSaxpy)
		b.SetBytes(12 * benchSaxpy)
		sms := be.Device().SMs
		benchKernel(b, ct.SaxpyKernel, kernel.Config{Grid: kernel.D1(16 * sms), Block: kernel.D1(256), Device: dev}, float32(2), x, y)
	})
	b.Run("lazy", func(b *testing.B) {
		x := graph.Input(graph.Float32, graph.Shape{benchSaxpy}, "x")
		y := graph.Input(graph.Float32, graph.Shape{benchSaxpy}, "y")
		out := graph.Binary(graph.OpAdd, graph.Binary(graph.OpMul, f32c(2), x), y)
		benchEval(b, be, 12*benchSaxpy, []*graph.Node{out}, bindings{
			x: benchInput(b, be, "x", benchSaxpy), y: benchInput(b, be, "y", benchSaxpy)})
	})
}

// BenchmarkGPUExplicitTiledMatMul: a 2048³ float32 product, by the
// explicit 16×16 shared-memory tiled kernel and lazily (the planner's
// GEMM).
func BenchmarkGPUExplicitTiledMatMul(b *testing.B) {
	be := benchBackend(b)
	const n = benchTiledMM
	b.Run("explicit", func(b *testing.B) {
		dev := be.KernelDevice()
		x, y, c := deviceF32(b, dev, n*n), deviceF32(b, dev, n*n), deviceF32(b, dev, n*n)
		benchKernel(b, kt.TiledMatMulKernel, kernel.Config{Grid: kernel.D2(n/16, n/16), Block: kernel.D2(16, 16), Device: dev}, x, y, c, n)
		b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e12, "TFLOP/s")
	})
	b.Run("lazy", func(b *testing.B) {
		x := graph.Input(graph.Float32, graph.Shape{n, n}, "a")
		y := graph.Input(graph.Float32, graph.Shape{n, n}, "b")
		benchEval(b, be, 0, []*graph.Node{graph.MatMul(x, y)}, bindings{
			x: benchInput(b, be, "x", n, n), y: benchInput(b, be, "y", n, n)})
		b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e12, "TFLOP/s")
	})
}

// BenchmarkGPUExplicitLaunch: host time of one synchronized launch of
// saxpy over 1024 elements of device arrays (target: at most 2 us above
// BenchmarkGPURawLaunch/bare).
func BenchmarkGPUExplicitLaunch(b *testing.B) {
	be := benchBackend(b)
	dev := be.KernelDevice()
	x, y := deviceF32(b, dev, benchKLaunchN), deviceF32(b, dev, benchKLaunchN)
	b.ReportAllocs()
	benchKernel(b, ct.SaxpyKernel, kernel.Config{Grid: kernel.D1(benchKLaunchN / 256), Block: kernel.D1(256), Device: dev}, float32(2), x, y)
}
