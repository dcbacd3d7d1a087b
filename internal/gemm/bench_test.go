// Benchmarks: square products from 64 to 2048 and batches of small ones,
// float32 and float64, reporting GFLOP/s (bytes are those of A, B and
// C). bench/gemm_peers.py times NumPy on the same shapes and runs both
// sides interleaved.

package gemm_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/internal/gemm"
)

// benchSizes are the square products; benchBatches the batched ones
// (count, size).
var (
	benchSizes   = []int{64, 128, 256, 512, 1024, 2048}
	benchBatches = [][2]int{{4096, 8}, {1024, 16}, {256, 32}, {64, 64}, {16, 128}, {8, 256}}
)

func BenchmarkMul(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("f32/%d", n), func(b *testing.B) { benchMul[float32](b, 1, n) })
		b.Run(fmt.Sprintf("f64/%d", n), func(b *testing.B) { benchMul[float64](b, 1, n) })
	}
}

func BenchmarkMulBatch(b *testing.B) {
	for _, bn := range benchBatches {
		b.Run(fmt.Sprintf("f32/%dx%d", bn[0], bn[1]), func(b *testing.B) { benchMul[float32](b, bn[0], bn[1]) })
		b.Run(fmt.Sprintf("f64/%dx%d", bn[0], bn[1]), func(b *testing.B) { benchMul[float64](b, bn[0], bn[1]) })
	}
}

// benchMul times count products of n×n matrices (contiguous, row-major).
func benchMul[T gemm.Float](b *testing.B, count, n int) {
	r := rand.New(rand.NewPCG(1, 2))
	sz := count * n * n
	x, y, c := make([]T, sz), make([]T, sz), make([]T, sz)
	for i := range x {
		x[i] = T(r.Float64()*2 - 1)
		y[i] = T(r.Float64()*2 - 1)
	}
	bt := gemm.Batch{Count: count, StrideA: n * n, StrideB: n * n, StrideC: n * n}
	var z T
	b.SetBytes(int64(3 * sz * int(sizeOf(z))))
	b.ResetTimer()
	for b.Loop() {
		if err := gemm.MulBatch(n, n, n, gemm.Matrix[T]{Data: x, Stride: n}, gemm.Matrix[T]{Data: y, Stride: n}, c, n, bt, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*float64(count)*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func sizeOf[T gemm.Float](T) uintptr {
	var z T
	if _, ok := any(z).(float32); ok {
		return 4
	}
	return 8
}
