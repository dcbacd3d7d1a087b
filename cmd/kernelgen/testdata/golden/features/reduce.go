//go:build !fuseflow_never

// Package features is a golden test of kernelgen: shared memory,
// barriers, warp shuffles, atomics, a constant array and math.
package features

import (
	"github.com/fuseflow/fuseflow/kernel"
	"github.com/fuseflow/fuseflow/kernel/math32"
)

var weights = [4]float32{0.5, 1, 2, 4}

// Reduce sums weights[i%4]*sqrt(|x[i]|) over the grid into out[0].
//
//fuseflow:kernel
func Reduce(t kernel.Thread, x []float32, out []float32) {
	part := kernel.Shared[float32](t, 32)
	v := float32(0)
	for i := t.Grid1(); i < len(x); i += t.GridSize1() {
		v += weights[i%4] * math32.Sqrt(math32.Abs(x[i]))
	}
	for off := 16; off > 0; off /= 2 {
		v += kernel.ShflDownSync(t, 0xffffffff, v, off)
	}
	tid := t.ThreadIdx().X
	if t.LaneID() == 0 {
		part[tid/32] = v
	}
	t.SyncThreads()
	if tid == 0 {
		s := float32(0)
		for w := range t.BlockDim().X / 32 {
			s += part[w]
		}
		kernel.AtomicAdd(out, 0, s)
	}
}
