// This file benchmarks the CPU device: a saxpy whose threads run one
// after another, the same work in a kernel whose threads synchronize
// (goroutines meeting at a barrier), and the overhead of a launch.

package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/kernel"
)

// saxpySync is saxpy with a barrier, so that its threads run as
// goroutines.
var saxpySync = kernel.New(kernel.Spec{
	Name: "saxpy_sync", Sync: kernel.SyncBarrier,
	Params: []kernel.Param{{Name: "a", Type: kernel.Float32}, {Name: "x", Type: kernel.Float32, Slice: true},
		{Name: "y", Type: kernel.Float32, Slice: true, Written: true}},
	Bind: func(a []any) func(kernel.Thread) {
		s, x, y := a[0].(float32), a[1].([]float32), a[2].([]float32)
		return func(t kernel.Thread) {
			saxpy(t, s, x, y)
			t.SyncThreads()
		}
	},
})

func BenchmarkSaxpyCPU(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
		for _, k := range []*kernel.Kernel{saxpyKernel, saxpySync} {
			b.Run(fmt.Sprintf("%s/n=%d", k.Name(), n), func(b *testing.B) {
				r := rand.New(rand.NewPCG(1, 2))
				x, y := make([]float32, n), make([]float32, n)
				for i := range x {
					x[i], y[i] = r.Float32(), r.Float32()
				}
				cfg := kernel.Launch1D((n+255)/256, 256)
				b.SetBytes(int64(12 * n))
				b.ResetTimer()
				for range b.N {
					if err := k.Launch(cfg, float32(0.5), x, y); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkLaunchOverhead(b *testing.B) {
	x := make([]float32, 1)
	cfg := kernel.Launch1D(1, 1)
	b.ResetTimer()
	for range b.N {
		if err := saxpyKernel.Launch(cfg, float32(1), x, x); err != nil {
			b.Fatal(err)
		}
	}
}
