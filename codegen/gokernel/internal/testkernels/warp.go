package testkernels

import "github.com/fuseflow/fuseflow/kernel"

// warpReduce sums v over the warp with xor shuffles: every lane gets the
// sum.
func warpReduce(t kernel.Thread, v float64) float64 {
	for m := 16; m > 0; m /= 2 {
		v += kernel.ShflXorSync(t, 0xffffffff, v, m)
	}
	return v
}

// WarpOps exercises the shuffles (int32, uint64 and float64 values), the
// votes, ActiveMask and SyncWarp; 10 results per thread.
//
//fuseflow:kernel
func WarpOps(t kernel.Thread, x []int32, out []int64) {
	i := t.Grid1()
	l := t.LaneID()
	v := x[i]
	o := 10 * i
	out[o] = int64(kernel.ShflSync(t, 0xffffffff, v, (l*5)%32))
	out[o+1] = int64(kernel.ShflUpSync(t, 0xffffffff, v, 3))
	out[o+2] = int64(kernel.ShflDownSync(t, 0xffffffff, uint64(v)<<40, 9))
	out[o+3] = int64(warpReduce(t, float64(v)))
	out[o+4] = int64(t.BallotSync(0xffffffff, v%3 == 0))
	if t.AllSync(0xffffffff, v > -1000) {
		out[o+5] = 1
	}
	if t.AnySync(0xffffffff, v == 7) {
		out[o+6] = 1
	}
	out[o+7] = int64(t.ActiveMask())
	if l < 16 {
		sh := kernel.Shared[int32](t, 64)
		sh[t.ThreadIdx().X] = v
		t.SyncWarp(0xffff)
		out[o+8] = int64(sh[t.ThreadIdx().X^1])
		out[o+9] = int64(t.BallotSync(0xffff, v > 0))
	}
}
