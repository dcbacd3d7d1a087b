// This file implements the barriers and memory fences of a block:
// SyncThreads and its counting and voting forms, and ThreadFence at the
// block, device and system scopes.

package kernel

import "sync/atomic"

// SyncThreads waits until every thread of the block has reached this
// call (CUDA's __syncthreads, Numba's cuda.syncthreads); memory written by
// the block before it is visible to the block after it. Every thread must
// reach the same call: a barrier some threads skip (after an early return
// or in a branch on the thread index) is an error of the launch.
//
//go:noinline
func (t Thread) SyncThreads() {
	t.s.needCoop("SyncThreads").barrier(t.s, barSync, callerPC(), false)
}

// SyncThreadsCount is SyncThreads that also returns the number of threads
// of the block whose p is true (__syncthreads_count).
//
//go:noinline
func (t Thread) SyncThreadsCount(p bool) int {
	return t.s.needCoop("SyncThreadsCount").barrier(t.s, barCount, callerPC(), p)
}

// SyncThreadsAnd is SyncThreads that also reports whether p is true in
// every thread of the block (__syncthreads_and).
//
//go:noinline
func (t Thread) SyncThreadsAnd(p bool) bool {
	b := t.s.needCoop("SyncThreadsAnd")
	return b.barrier(t.s, barAnd, callerPC(), p) == b.n
}

// SyncThreadsOr is SyncThreads that also reports whether p is true in
// some thread of the block (__syncthreads_or).
//
//go:noinline
func (t Thread) SyncThreadsOr(p bool) bool {
	return t.s.needCoop("SyncThreadsOr").barrier(t.s, barOr, callerPC(), p) > 0
}

// fenceWord is the word every fence updates atomically: Go's memory model
// orders plain accesses around atomic operations, which is what a fence
// promises.
var fenceWord atomic.Uint32

// ThreadFence orders the caller's memory accesses for every thread of the
// device (__threadfence): writes before it are seen before writes after
// it.
func (t Thread) ThreadFence() { fenceWord.Add(1) }

// ThreadFenceBlock orders the caller's memory accesses for the threads of
// its block (__threadfence_block).
func (t Thread) ThreadFenceBlock() { fenceWord.Add(1) }

// ThreadFenceSystem orders the caller's memory accesses for the device
// and the host (__threadfence_system).
func (t Thread) ThreadFenceSystem() { fenceWord.Add(1) }
