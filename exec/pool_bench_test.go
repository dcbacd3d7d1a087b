// Benchmarks of the pool's fast path: an allocation served from the
// cache and its free, alone, from every core at once, behind the limits
// of a Context, and as a tensor.

package exec_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

var poolBenchSizes = []int{64, 4 << 10, 1 << 20}

func BenchmarkPoolHit(b *testing.B) {
	for _, n := range poolBenchSizes {
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			p := exec.NewPool(memory.NewGoAllocator())
			p.Free(p.Allocate(n)) // warm: the block is cached
			b.SetBytes(int64(n))
			b.ResetTimer()
			for b.Loop() {
				p.Free(p.Allocate(n))
			}
		})
	}
}

func BenchmarkPoolHitParallel(b *testing.B) {
	for _, n := range poolBenchSizes {
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			p := exec.NewPool(memory.NewGoAllocator())
			b.SetBytes(int64(n))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					p.Free(p.Allocate(n))
				}
			})
		})
	}
}

func BenchmarkPoolTensor(b *testing.B) {
	for _, n := range poolBenchSizes {
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			p := exec.NewPool(memory.NewGoAllocator())
			s := graph.Shape{n / 4}
			b.SetBytes(int64(n))
			b.ResetTimer()
			for b.Loop() {
				t, err := exec.NewTensorUninit(p, graph.Float32, s)
				if err != nil {
					b.Fatal(err)
				}
				t.Release()
			}
		})
	}
}

// BenchmarkPoolHitLimited is BenchmarkPoolHit behind an allocation limit
// (LimitAllocator), as the memory guard wraps a Context's allocator.
func BenchmarkPoolHitLimited(b *testing.B) {
	for _, n := range poolBenchSizes {
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			a := exec.LimitAllocator(exec.NewPool(memory.NewGoAllocator()), 0)
			b.SetBytes(int64(n))
			b.ResetTimer()
			for b.Loop() {
				a.Free(a.Allocate(n))
			}
		})
	}
}
