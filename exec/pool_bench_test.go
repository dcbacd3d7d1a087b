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

// benchPool runs body once per size of poolBenchSizes with a fresh pool
// over the Go allocator, after SetBytes(n) and ResetTimer.
func benchPool(b *testing.B, body func(b *testing.B, p *exec.Pool, n int)) {
	for _, n := range poolBenchSizes {
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			p := exec.NewPool(memory.NewGoAllocator())
			b.SetBytes(int64(n))
			b.ResetTimer()
			body(b, p, n)
		})
	}
}

func BenchmarkPoolHit(b *testing.B) {
	benchPool(b, func(b *testing.B, p *exec.Pool, n int) {
		p.Free(p.Allocate(n)) // warm: the block is cached (b.Loop restarts the timer)
		for b.Loop() {
			p.Free(p.Allocate(n))
		}
	})
}

func BenchmarkPoolHitParallel(b *testing.B) {
	benchPool(b, func(b *testing.B, p *exec.Pool, n int) {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				p.Free(p.Allocate(n))
			}
		})
	})
}

func BenchmarkPoolTensor(b *testing.B) {
	benchPool(b, func(b *testing.B, p *exec.Pool, n int) {
		s := graph.Shape{n / 4}
		for b.Loop() {
			t, err := exec.NewTensorUninit(p, graph.Float32, s)
			if err != nil {
				b.Fatal(err)
			}
			t.Release()
		}
	})
}

// BenchmarkPoolHitLimited is BenchmarkPoolHit behind an allocation limit
// (LimitAllocator), as the memory guard wraps a Context's allocator.
func BenchmarkPoolHitLimited(b *testing.B) {
	benchPool(b, func(b *testing.B, p *exec.Pool, n int) {
		a := exec.LimitAllocator(p, 0)
		for b.Loop() {
			a.Free(a.Allocate(n))
		}
	})
}
