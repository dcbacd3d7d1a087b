// This file tests kernels whose threads synchronize on the CPU device:
// shared memory with barriers, the counting and voting barriers, dynamic
// shared memory, warp shuffles and votes with full, partial and
// divergent masks, and the errors of barriers and warp operations that
// cannot complete.

package kernel_test

import (
	"errors"
	"testing"

	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

// coop returns a cooperative kernel running body with one slice of T and
// one int.
func coop[T kernel.Elem](name string, sync kernel.Sync, body func(t kernel.Thread, x []T, n int)) *kernel.Kernel {
	return kernel.New(kernel.Spec{
		Name: name, Sync: sync,
		Params: []kernel.Param{{Name: "x", Type: kernel.TypeOf[T](), Slice: true, Written: true}, {Name: "n", Type: kernel.Int}},
		Bind:   kernel.Bind2(body),
	})
}

// blockSum sums x per block through shared memory: each thread loads one
// element, then a tree of barriers halves the active threads; thread 0
// writes the block's sum at x[n+block].
func blockSum(t kernel.Thread, x []int, n int) {
	sh := kernel.Shared[int](t, 256)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	v := 0
	if i < n {
		v = x[i]
	}
	sh[tid] = v
	t.SyncThreads()
	for s := t.BlockDim().X / 2; s > 0; s /= 2 {
		if tid < s {
			sh[tid] += sh[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		x[n+t.BlockIdx().X] = sh[0]
	}
}

func TestSharedBarrierReduction(t *testing.T) {
	k := coop("blocksum", kernel.SyncBarrier, blockSum)
	const n, blocks = 1000, 4
	x := make([]int, n+blocks)
	for i := range n {
		x[i] = i
	}
	require.NoError(t, k.Launch(kernel.Launch1D(blocks, 256), x, n))
	for b := range blocks {
		want := 0
		for i := b * 256; i < min(n, (b+1)*256); i++ {
			want += i
		}
		require.Equal(t, want, x[n+b], "block %d got:%v want:%v", b, x[n+b], want)
	}
}

func TestSharedPerCallSiteAndBlock(t *testing.T) {
	// Two call sites give two arrays; each block has its own (zeroed).
	k := coop("sites", kernel.SyncBarrier, func(t kernel.Thread, x []int, n int) {
		a := kernel.Shared[int](t, 4)
		b := kernel.Shared[int](t, 4)
		tid := t.ThreadIdx().X
		a[tid] = tid + 1
		b[tid] = 10 * (a[tid] + t.BlockIdx().X)
		t.SyncThreads()
		x[t.Grid1()] = a[(tid+1)%4] + b[(tid+2)%4]
	})
	x := make([]int, 8)
	require.NoError(t, k.Launch(kernel.Launch1D(2, 4), x, 0))
	require.Equal(t, []int{2 + 30, 3 + 40, 4 + 10, 1 + 20, 2 + 40, 3 + 50, 4 + 20, 1 + 30}, x)
}

func TestSyncThreadsReductions(t *testing.T) {
	k := coop("votes", kernel.SyncBarrier, func(t kernel.Thread, x []int, n int) {
		tid := t.ThreadIdx().X
		c := t.SyncThreadsCount(tid < n)
		a := t.SyncThreadsAnd(tid < n)
		o := t.SyncThreadsOr(tid < n)
		v := c * 100
		if a {
			v += 10
		}
		if o {
			v++
		}
		x[tid] = v
	})
	for _, n := range []int{0, 7, 70} {
		x := make([]int, 70)
		require.NoError(t, k.Launch(kernel.Launch1D(1, 70), x, n))
		want := n * 100
		if n == 70 {
			want += 10
		}
		if n > 0 {
			want++
		}
		for i, v := range x {
			require.Equal(t, want, v, "n=%d thread %d", n, i)
		}
	}
}

func TestBarrierErrors(t *testing.T) {
	early := coop("early", kernel.SyncBarrier, func(t kernel.Thread, x []int, n int) {
		if t.ThreadIdx().X >= n {
			return
		}
		t.SyncThreads()
		x[t.ThreadIdx().X] = 1
	})
	err := early.Launch(kernel.Launch1D(1, 64), make([]int, 64), 40)
	var le *kernel.LaunchError
	require.True(t, errors.As(err, &le), "got:%v", err)
	require.Contains(t, err.Error(), "SyncThreads reached by only 40 of 64 threads of the block; 24 threads already returned (first: thread (40,0,0))")

	split := coop("split", kernel.SyncBarrier, func(t kernel.Thread, x []int, n int) {
		if t.ThreadIdx().X < n {
			t.SyncThreads()
		} else {
			t.SyncThreads()
		}
	})
	err = split.Launch(kernel.Launch1D(1, 64), nil, 3)
	require.ErrorContains(t, err, "barrier divergence: threads wait at different barriers: SyncThreads at coop_test.go:")

	// A kernel whose Spec says it never synchronizes cannot call one.
	plain := coop("plain", 0, func(t kernel.Thread, x []int, n int) { t.SyncThreads() })
	err = plain.Launch(kernel.Launch1D(1, 4), nil, 0)
	require.ErrorContains(t, err, "SyncThreads needs the threads of a block to run together, but the kernel's Spec does not set Sync")
}

func TestDynShared(t *testing.T) {
	k := coop("dyn", kernel.SyncBarrier, func(t kernel.Thread, x []uint32, n int) {
		f := kernel.DynShared[float32](t)
		u := kernel.DynShared[uint32](t)
		tid := t.ThreadIdx().X
		f[tid] = float32(tid)
		t.SyncThreads()
		x[tid] = u[(tid+1)%t.BlockDim().X] + uint32(len(u)*1000)
	})
	x := make([]uint32, 8)
	require.NoError(t, k.Launch(kernel.Config{Grid: kernel.D1(1), Block: kernel.D1(8), SharedBytes: 40}, x, 0))
	for i, v := range x {
		want := uint32(10000) + mathFloat32bits(float32((i+1)%8))
		require.Equal(t, want, v, "thread %d", i)
	}
	// Without dynamic shared memory the slice is empty.
	err := k.Launch(kernel.Launch1D(1, 8), x, 0)
	require.ErrorContains(t, err, "with length 0")
}

// warpSum reduces v over the warp with down shuffles.
func warpSum(t kernel.Thread, v float64) float64 {
	for off := 16; off > 0; off /= 2 {
		v += kernel.ShflDownSync(t, 0xffffffff, v, off)
	}
	return v
}

func TestWarpShuffleReduction(t *testing.T) {
	k := coop("warpsum", kernel.SyncWarp|kernel.SyncBarrier, func(t kernel.Thread, x []float64, n int) {
		sh := kernel.Shared[float64](t, 32)
		tid := t.ThreadIdx().X
		s := warpSum(t, x[t.Grid1()])
		if t.LaneID() == 0 {
			sh[tid/32] = s
		}
		t.SyncThreads()
		if tid < 32 {
			v := 0.0
			if tid < t.BlockDim().X/32 {
				v = sh[tid]
			}
			v = warpSum(t, v)
			if tid == 0 {
				x[n+t.BlockIdx().X] = v
			}
		}
	})
	const n = 4 * 256
	x := make([]float64, n+4)
	want := make([]float64, 4)
	for i := range n {
		x[i] = float64(i % 13)
		want[i/256] += x[i]
	}
	require.NoError(t, k.Launch(kernel.Launch1D(4, 256), x, n))
	require.Equal(t, want, x[n:])
}

// shuffles records each shuffle and vote of lane i at x[k*32+i].
func shuffles(t kernel.Thread, x []int32, n int) {
	l := t.LaneID()
	v := int32(100 + l)
	put := func(k int, v int32) { x[k*32+l] = v }
	put(0, kernel.ShflSync(t, 0xffffffff, v, l+3))        // (l+3)&31
	put(1, kernel.ShflUpSync(t, 0xffffffff, v, 5))        // own below 5
	put(2, kernel.ShflDownSync(t, 0xffffffff, v, 7))      // own above 24
	put(3, kernel.ShflXorSync(t, 0xffffffff, v, 6))       // l^6
	put(4, int32(t.BallotSync(0xffffffff, l%3 == 0)))     // lanes 0,3,6,...
	put(5, b2i(t.AllSync(0xffffffff, l < 32)))            // true
	put(6, b2i(t.AnySync(0xffffffff, l == n)))            // lane n exists
	put(7, int32(t.ActiveMask()))                         // all lanes
	put(8, int32(kernel.ShflSync(t, 0xffffffff, 2.5, 0))) // float64 value
	if l%2 == 1 {
		// Odd lanes only: a partial mask.
		put(9, int32(t.BallotSync(0xaaaaaaaa, l > 16)))
		put(10, kernel.ShflXorSync(t, 0xaaaaaaaa, v, 2))
		t.SyncWarp(0xaaaaaaaa)
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func TestWarpShufflesAndVotes(t *testing.T) {
	k := coop("shuffles", kernel.SyncWarp, shuffles)
	x := make([]int32, 11*32)
	require.NoError(t, k.Launch(kernel.Launch1D(1, 32), x, 40))
	var ballot3, odd16 int32
	for l := 0; l < 32; l += 3 {
		ballot3 |= 1 << l
	}
	for l := 17; l < 32; l += 2 {
		odd16 |= 1 << l
	}
	for l := range 32 {
		up, down := 100+l-5, 100+l+7
		if l < 5 {
			up = 100 + l
		}
		if l > 24 {
			down = 100 + l
		}
		want := []int32{int32(100 + (l+3)%32), int32(up), int32(down), int32(100 + (l ^ 6)), ballot3, 1, 0, -1, 2}
		for k, w := range want {
			require.Equal(t, w, x[k*32+l], "op %d lane %d", k, l)
		}
		if l%2 == 1 {
			require.Equal(t, odd16, x[9*32+l], "partial ballot lane %d", l)
			require.Equal(t, int32(100+(l^2)), x[10*32+l], "partial xor lane %d", l)
		}
	}
}

func TestWarpPartialWarp(t *testing.T) {
	// A block of 40 threads: the second warp has 8 lanes; a full mask
	// leaves the missing lanes out.
	k := coop("partial", kernel.SyncWarp, func(t kernel.Thread, x []int32, n int) {
		tid := t.ThreadIdx().X
		x[tid] = int32(t.BallotSync(0xffffffff, true))
		x[40+tid] = int32(t.ActiveMask())
		x[80+tid] = b2i(t.AllSync(0xffffffff, true))
	})
	x := make([]int32, 120)
	require.NoError(t, k.Launch(kernel.Launch1D(1, 40), x, 0))
	for tid := range 40 {
		want := int32(-1)
		if tid >= 32 {
			want = 0xff
		}
		require.Equal(t, want, x[tid], "ballot of thread %d", tid)
		require.Equal(t, want, x[40+tid], "activemask of thread %d", tid)
		require.Equal(t, int32(1), x[80+tid])
	}
}

func TestWarpErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(t kernel.Thread, x []int32, n int)
		want string
	}{
		{"notinmask", func(t kernel.Thread, x []int32, n int) {
			t.BallotSync(0x1, true)
		}, "BallotSync: the calling lane"},
		{"returned", func(t kernel.Thread, x []int32, n int) {
			if t.LaneID() == 5 {
				return
			}
			t.SyncWarp(0xffffffff)
		}, "SyncWarp: lane 5 named in the member mask 0xffffffff has already returned"},
		{"source", func(t kernel.Thread, x []int32, n int) {
			if t.LaneID() < 16 {
				kernel.ShflSync(t, 0xffff, int32(1), 20)
			}
		}, "ShflSync: source lane 20 is not taking part"},
		{"barrier", func(t kernel.Thread, x []int32, n int) {
			if t.LaneID() == 0 {
				t.SyncThreads()
			} else {
				t.AnySync(0xffffffff, true)
			}
		}, "which waits at SyncThreads"},
	} {
		k := coop(tc.name, kernel.SyncWarp|kernel.SyncBarrier, tc.body)
		err := k.Launch(kernel.Launch1D(2, 32), nil, 0)
		var le *kernel.LaunchError
		require.True(t, errors.As(err, &le), "%s: got:%v", tc.name, err)
		require.Contains(t, err.Error(), tc.want, tc.name)
	}
}

func TestPanicInCooperativeBlock(t *testing.T) {
	// Thread 9 panics while the others wait at a barrier: the launch
	// returns the panic, and no goroutine is left behind.
	k := coop("coop_panic", kernel.SyncBarrier, func(t kernel.Thread, x []int, n int) {
		if t.ThreadIdx().X == 9 {
			_ = x[n] // out of range
		}
		t.SyncThreads()
	})
	err := k.Launch(kernel.Launch1D(3, 64), make([]int, 4), 4)
	var le *kernel.LaunchError
	require.True(t, errors.As(err, &le), "got:%v", err)
	require.Equal(t, kernel.Dim3{X: 9}, le.Thread)
	require.Equal(t, kernel.Dim3{}, le.Block)
	require.Contains(t, err.Error(), "index out of range [4] with length 4")
}

func TestActiveMaskAfterReturns(t *testing.T) {
	// Lanes 20 and up return; the others see only themselves, whatever
	// the order the goroutines run in.
	k := coop("active", kernel.SyncWarp|kernel.SyncBarrier, func(t kernel.Thread, x []int32, n int) {
		l := t.LaneID()
		if l >= 20 {
			return
		}
		x[l] = int32(t.ActiveMask())
	})
	for range 20 {
		x := make([]int32, 32)
		require.NoError(t, k.Launch(kernel.Launch1D(1, 32), x, 0))
		for l := range 20 {
			require.Equal(t, int32(0xfffff), x[l], "lane %d", l)
		}
	}
}

func TestSharedMemoryThreadsRunTogether(t *testing.T) {
	// Thread 0 waits for thread 1 through shared memory: with SyncShared
	// the threads of a block run together, so this ends.
	k := coop("spin", kernel.SyncShared, func(t kernel.Thread, x []int32, n int) {
		flag := kernel.Shared[uint32](t, 1)
		switch t.ThreadIdx().X {
		case 0:
			for kernel.AtomicAdd(flag, 0, 0) == 0 {
			}
			x[t.BlockIdx().X] = 1
		case 1:
			kernel.AtomicExch(flag, 0, 1)
		}
	})
	x := make([]int32, 2)
	require.NoError(t, k.Launch(kernel.Launch1D(2, 8), x, 0))
	require.Equal(t, []int32{1, 1}, x)
}
