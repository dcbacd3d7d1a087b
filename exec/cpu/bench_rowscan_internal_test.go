// Benchmarks of the row scans of ArgMax/ArgMin and bool Any/All, and of
// the counting pass of Bincount. The row scans run on a
// block of rows that stays in the L2 cache (256 KiB), so that they
// measure the loops' own cost rather than the memory's: 4096-value
// rows, values in [0.95, 1.05) from a fixed seed as the suite's, bool
// rows all false (Any) or all true (All), the cases that read every
// byte.

package cpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

const benchRowBytes = 256 << 10

// cpuLoop runs f b.N times on one locked thread and reports its CPU
// time per iteration as cpu-ns/op where the thread's CPU time is read.
func cpuLoop(b *testing.B, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := threadCPU()
	b.ResetTimer()
	for range b.N {
		f()
	}
	b.StopTimer()
	if t1, ok1 := threadCPU(); ok && ok1 {
		b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkArgIndexRows(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	v64 := make([]float64, benchRowBytes/8)
	v32 := make([]float32, benchRowBytes/4)
	for i := range v64 {
		v64[i] = 0.95 + 0.1*r.Float64()
	}
	for i := range v32 {
		v32[i] = float32(0.95 + 0.1*r.Float64())
	}
	for w, op := range []string{"max", "min"} {
		b.Run(op+"/f64", func(b *testing.B) { benchArgRows(b, argIndex64[w], v64) })
		b.Run(op+"/f32", func(b *testing.B) { benchArgRows(b, argIndex32[w], v32) })
	}
}

// benchArgRows times f over the rows of 4096 values of v.
func benchArgRows[T floats](b *testing.B, f func([]T) (int, bool), v []T) {
	const row = 4096
	if f == nil {
		b.Skip("no one-pass ArgMax on this path")
	}
	b.SetBytes(benchRowBytes)
	cpuLoop(b, func() {
		for i := 0; i < len(v); i += row {
			f(v[i : i+row])
		}
	})
}

func BenchmarkBoolRows(b *testing.B) {
	const row = 4096
	zeros, ones := make([]byte, benchRowBytes), make([]byte, benchRowBytes)
	for i := range ones {
		ones[i] = 1
	}
	dst := make([]byte, benchRowBytes/row)
	for _, c := range []struct {
		name string
		f    rowsFn
		v    []byte
	}{{"any", anyRowsBytes, zeros}, {"all", allRowsBytes, ones}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(benchRowBytes)
			cpuLoop(b, func() {
				c.f(unsafe.Pointer(&dst[0]), unsafe.Pointer(&c.v[0]), row, len(dst))
			})
		})
	}
}

// BenchmarkBincount times the counting pass of Bincount on one worker,
// by the general ScatterAdd loop (add) and by index counts (count):
// 1<<20 int64 indices (8 MiB) drawn from a fixed seed over 1000 bins
// (the table in L1), over 1<<16 bins (the table in L2) and over one bin
// (every increment waits on the one before).
func BenchmarkBincount(b *testing.B) {
	const n = 1 << 20
	r := rand.New(rand.NewPCG(3, 4))
	for _, bins := range []int{1000, 1 << 16, 1} {
		idx := make([]int64, n)
		for i := range idx {
			idx[i] = int64(r.IntN(bins))
		}
		dst := make([]int64, bins)
		s := &fuse.IndexSpec{Op: graph.OpScatterAdd, Outer: 1, Len: bins, Inner: 1, Count: n}
		b.Run(fmt.Sprintf("add/bins=%d", bins), func(b *testing.B) {
			b.SetBytes(n * 8)
			cpuLoop(b, func() {
				if bad := addRange(dst, []int64{1}, 0, idx, s, 0, n); bad != 0 {
					b.Fatalf("bad index at %d", bad-1)
				}
			})
		})
		b.Run(fmt.Sprintf("count/bins=%d", bins), func(b *testing.B) {
			b.SetBytes(n * 8)
			cpuLoop(b, func() {
				if done, err := countScatter(context.Background(), s, dst, idx, 1, 1); !done || err != nil {
					b.Fatalf("countScatter: %v, %v", done, err)
				}
			})
		})
	}
}
