// This file holds the benchmarks: every function, type and path over
// 2^20 elements (beyond the caches, as NumPy's peers in
// bench/vecmath_peers.py), every function and type in L1 and L2 in the
// CPU suite's ranges, and over 2048 elements held in cache as exec/cpu's
// BenchmarkLoops runs them (its exp and sigmoid loops call these
// functions). Each reports ns/elem.

package vecmath

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// benchRange is the operands' range of each function (the same as the
// peer script's).
func benchRange(fn ir.MathFn) (lo, hi, ylo, yhi float64) {
	switch fn {
	case ir.MathLog, ir.MathLog2, ir.MathSqrt, ir.MathRsqrt:
		return 0.01, 100, 0, 0
	case ir.MathLog1p:
		return -0.9, 100, 0, 0
	case ir.MathPow:
		return 0.1, 10, -5, 5
	case ir.MathSin, ir.MathCos, ir.MathTan:
		return -100, 100, 0, 0
	}
	return -10, 10, -10, 10
}

func benchData[T floats](n int, lo, hi float64, seed uint64) []T {
	r := rand.New(rand.NewPCG(seed, 7))
	v := make([]T, n)
	for i := range v {
		v[i] = T(lo + (hi-lo)*r.Float64())
	}
	return v
}

// withNaN sets every every-th element of v to NaN (none for 0).
func withNaN[T floats](v []T, every int) {
	for i := 0; every > 0 && i < len(v); i += every {
		v[i] = T(math.NaN())
	}
}

// benchKernel benchmarks one kernel on one path over n elements.
func benchKernel(b *testing.B, e kernelEntry, p path, n int) {
	lo, hi, ylo, yhi := benchRange(mathFnOf(b, e.fn))
	benchKernelIn(b, e, p, n, lo, hi, ylo, yhi)
}

// benchKernelIn benchmarks one kernel on one path over n elements drawn
// from [lo, hi) (and [ylo, yhi) for the second operand).
func benchKernelIn(b *testing.B, e kernelEntry, p path, n int, lo, hi, ylo, yhi float64) {
	benchKernelNaN(b, e, p, n, lo, hi, ylo, yhi, 0)
}

// benchKernelNaN is benchKernelIn with a NaN in the first operand every
// so many elements (none for 0).
func benchKernelNaN(b *testing.B, e kernelEntry, p path, n int, lo, hi, ylo, yhi float64, every int) {
	size := 8
	if e.typ() == ir.F32 {
		size = 4
	}
	ops := 2
	if e.k2f32 != nil || e.k2f64 != nil {
		ops = 3
	}
	b.SetBytes(int64(n * size * ops))
	var run func()
	switch {
	case e.k1f32 != nil:
		x, d := benchData[float32](n, lo, hi, 1), make([]float32, n)
		withNaN(x, every)
		run = func() { e.k1f32.runOn(p, d, x) }
	case e.k1f64 != nil:
		x, d := benchData[float64](n, lo, hi, 1), make([]float64, n)
		withNaN(x, every)
		run = func() { e.k1f64.runOn(p, d, x) }
	case e.k2f32 != nil:
		x, y, d := benchData[float32](n, lo, hi, 1), benchData[float32](n, ylo, yhi, 2), make([]float32, n)
		withNaN(x, every)
		run = func() { e.k2f32.runOn(p, d, x, y) }
	default:
		x, y, d := benchData[float64](n, lo, hi, 1), benchData[float64](n, ylo, yhi, 2), make([]float64, n)
		withNaN(x, every)
		run = func() { e.k2f64.runOn(p, d, x, y) }
	}
	b.ResetTimer()
	for range b.N {
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
}

// BenchmarkFuncs runs every function, type and path at 2^20 elements:
// BenchmarkFuncs/exp/f32/avx512.
func BenchmarkFuncs(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"", 1 << 20}} {
		_ = size.name
		for _, e := range kernels {
			for _, p := range paths() {
				b.Run(fmt.Sprintf("%s/%s/%s", e.fn, e.typ(), p), func(b *testing.B) { benchKernel(b, e, p, size.n) })
			}
		}
	}
}

// suiteRange is the operands' range of each function in the in-cache
// rows of the CPU suite (bench/workloads.txt and its 2^20 variants),
// which the NumPy peers run on the same data.
func suiteRange(fn ir.MathFn) (lo, hi, ylo, yhi float64) {
	switch fn {
	case ir.MathLog, ir.MathLog2, ir.MathSqrt, ir.MathRsqrt:
		return 0.001, 1000, 0, 0
	case ir.MathLog1p:
		return -0.5, 1000, 0, 0
	case ir.MathPow:
		return 0.1, 10, 1, 3
	case ir.MathSin, ir.MathCos, ir.MathTan:
		return -10, 10, 0, 0
	case ir.MathTanh, ir.MathSigmoid, ir.MathErf:
		return -5, 5, 0, 0
	case ir.MathAtan2:
		return -100, 100, 1, 3
	}
	return -20, 20, -20, 20
}

// BenchmarkFuncsCached runs every function and type on the best path
// over operands held in L1 (2048 elements) and in L2 (32768), in the
// suite's ranges, and in L1 with a NaN every 16 elements (every vector
// leaves the ordinary-range fast paths): BenchmarkFuncsCached/log2/f32/l1.
// It reports ns/elem; the throughput of the code itself, without memory
// traffic.
func BenchmarkFuncsCached(b *testing.B) {
	for _, size := range []struct {
		name     string
		n, every int
	}{{"l1", 2048, 0}, {"l2", 32768, 0}, {"l1nan", 2048, 16}} {
		for _, e := range kernels {
			b.Run(fmt.Sprintf("%s/%s/%s", e.fn, e.typ(), size.name), func(b *testing.B) {
				lo, hi, ylo, yhi := suiteRange(mathFnOf(b, e.fn))
				benchKernelNaN(b, e, active, size.n, lo, hi, ylo, yhi, size.every)
			})
		}
	}
}

// BenchmarkInCache runs exp and sigmoid on float32 over 2048 elements in
// [-10, 10] on each path, as exec/cpu's BenchmarkLoops/exp and /sigmoid.
func BenchmarkInCache(b *testing.B) {
	for _, e := range kernels {
		if e.k1f32 == nil || (e.fn != "exp" && e.fn != "sigmoid") {
			continue
		}
		for _, p := range paths() {
			b.Run(fmt.Sprintf("%s/%s", e.fn, p), func(b *testing.B) {
				x, d := benchData[float32](2048, -10, 10, 1), make([]float32, 2048)
				b.SetBytes(2048 * 8)
				b.ResetTimer()
				for range b.N {
					e.k1f32.runOn(p, d, x)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2048), "ns/elem")
			})
		}
	}
}
