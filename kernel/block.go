// This file implements a block of threads on the CPU: its shared memory,
// and, for kernels that synchronize, the cooperative state its threads
// (goroutines) share: the barrier with its reductions, the warps, the
// running-thread count that detects deadlocks, and the abort that stops
// every thread of the block after a failure.

package kernel

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// barKind is the kind of barrier a thread waits at.
type barKind uint8

const (
	barSync barKind = iota
	barCount
	barAnd
	barOr
)

var barNames = [...]string{barSync: "SyncThreads", barCount: "SyncThreadsCount", barAnd: "SyncThreadsAnd", barOr: "SyncThreadsOr"}

// sharedAlloc is the static shared array of one call site of Shared.
type sharedAlloc struct {
	pc uintptr
	n  int
	v  any // []T
}

// block is one block of threads of a launch.
type block struct {
	run  *launchRun
	bid  Dim3
	n    int  // threads
	coop bool // threads run as goroutines and may synchronize

	mu     sync.Mutex
	shared []sharedAlloc
	dyn    []uint64 // dynamic shared memory, 8-byte aligned

	// Cooperative state, guarded by mu.
	threads []*thread
	waits   []waitState // per thread: what it waits for
	running int         // threads neither waiting nor returned
	exited  int
	aborted bool
	stopped atomic.Bool // aborted, readable without mu
	bar     *barGen     // the barrier's current generation
	barWait int
	barTrue int
	barKind barKind
	barPC   uintptr
	warps   []*warp
}

// barGen is one opening of the barrier: its waiters block on ch until
// the last thread closes it, having set value (the reduction); they read
// value without mu.
type barGen struct {
	ch    chan struct{}
	value int
}

// waitState says what a thread of a cooperative block waits for.
type waitState uint8

const (
	waitNone waitState = iota
	waitBarrier
	waitWarp
	waitExited
)

// newBlock returns the block bid of run with n threads.
func newBlock(run *launchRun, bid Dim3, n int, coop bool) *block {
	b := &block{run: run, bid: bid, n: n, coop: coop}
	if run.dynBytes > 0 {
		b.dyn = make([]uint64, (run.dynBytes+7)/8)
	}
	if coop {
		b.bar = &barGen{ch: make(chan struct{})}
		b.threads = make([]*thread, n)
		b.waits = make([]waitState, n)
		b.running = n
		nw := (n + WarpSize - 1) / WarpSize
		b.warps = make([]*warp, nw)
		for w := range b.warps {
			lanes := min(WarpSize, n-w*WarpSize)
			b.warps[w] = &warp{base: w * WarpSize, exists: lowMask(lanes)}
			b.warps[w].cond.L = &b.mu
		}
	}
	return b
}

// lowMask returns a mask of the n lowest bits (n <= 32).
func lowMask(n int) uint32 {
	if n >= 32 {
		return ^uint32(0)
	}
	return 1<<uint(n) - 1
}

// needCoop panics when a synchronizing operation runs in a kernel whose
// Spec says its threads never synchronize (they run one after another).
func (s *thread) needCoop(op string) *block {
	b := s.blk
	if !b.coop {
		panic(fmt.Sprintf("%s needs the threads of a block to run together, but the kernel's Spec does not set Sync (regenerate it with kernelgen)", op))
	}
	return b
}

// checkAbort ends the calling goroutine when the block was aborted; the
// caller holds mu, which it releases.
func (b *block) checkAbort() {
	if b.aborted {
		b.mu.Unlock()
		runtime.Goexit()
	}
}

// abort records err for the launch and wakes every waiting thread so that
// it ends; the caller holds mu.
func (b *block) abort(err *LaunchError) {
	if b.aborted {
		return
	}
	b.aborted = true
	b.stopped.Store(true)
	b.run.fail(err)
	close(b.bar.ch)
	b.bar = &barGen{ch: make(chan struct{})}
	for _, w := range b.warps {
		w.cond.Broadcast()
	}
}

// block waits: the caller holds mu, has recorded what thread s waits for,
// and calls this before waiting. When no thread is left running, the
// block is stuck: the reason is recorded and the block aborted.
func (b *block) blocked(s *thread, w waitState) {
	b.waits[s.linear] = w
	b.running--
	b.warps[s.linear/WarpSize].retryActive(b)
	if b.running == 0 {
		b.abort(b.diagnose())
	}
}

// exit records that thread s returned from the kernel.
func (b *block) exit(s *thread) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.waits[s.linear] = waitExited
	b.exited++
	b.running--
	w := b.warps[s.linear/WarpSize]
	w.exitedMask |= 1 << uint(s.linear%WarpSize)
	w.retryActive(b)
	if b.running == 0 && b.exited < b.n && !b.aborted {
		b.abort(b.diagnose())
	}
}

// diagnose explains why no thread of the block can go on, in the words
// of the IR interpreter's messages.
func (b *block) diagnose() *LaunchError {
	for i, w := range b.waits {
		if w != waitBarrier || b.exited == 0 {
			continue
		}
		first := slices.Index(b.waits, waitExited)
		return b.errorAt(b.threads[i], "%s reached by only %d of %d threads of the block; %d threads already returned (first: thread %v)",
			barNames[b.barKind], b.n-b.exited, b.n, b.exited, b.threads[first].tid)
	}
	for i, x := range b.waits {
		if x == waitWarp {
			return b.warps[i/WarpSize].deadlock(b, i%WarpSize)
		}
	}
	return b.errorAt(b.threads[0], "the threads of the block cannot go on")
}

// errorAt returns a LaunchError for thread s.
func (b *block) errorAt(s *thread, format string, args ...any) *LaunchError {
	return &LaunchError{Kernel: b.run.k.Name(), Block: b.bid, Thread: s.tid, Msg: fmt.Sprintf(format, args...)}
}

// barrier makes thread s wait until every thread of the block reaches a
// barrier of kind k at call site pc, and returns the number of threads
// whose p was true.
func (b *block) barrier(s *thread, k barKind, pc uintptr, p bool) int {
	b.mu.Lock()
	b.checkAbort()
	if b.barWait == 0 {
		b.barKind, b.barPC = k, pc
	} else if b.barKind != k || b.barPC != pc {
		b.abort(b.errorAt(s, "barrier divergence: threads wait at different barriers: %s at %s and %s at %s",
			barNames[k], pcPos(pc), barNames[b.barKind], pcPos(b.barPC)))
		b.checkAbort()
	}
	b.barWait++
	if p {
		b.barTrue++
	}
	g := b.bar
	if b.barWait+b.exited == b.n && b.exited == 0 {
		// The last thread opens the barrier.
		g.value = b.barTrue
		b.barWait, b.barTrue = 0, 0
		b.bar = &barGen{ch: make(chan struct{})}
		b.running += b.n - 1
		for i, w := range b.waits {
			if w == waitBarrier {
				b.waits[i] = waitNone
			}
		}
		b.mu.Unlock()
		close(g.ch)
		return g.value
	}
	b.blocked(s, waitBarrier)
	b.checkAbort()
	b.mu.Unlock()
	<-g.ch
	if b.stopped.Load() {
		runtime.Goexit()
	}
	return g.value
}

// pcPos returns "file.go:line" of the call site pc (a return address).
func pcPos(pc uintptr) string {
	frames := runtime.CallersFrames([]uintptr{pc})
	f, _ := frames.Next()
	if f.Line == 0 {
		return "?"
	}
	return baseName(f.File) + ":" + fmt.Sprint(f.Line)
}

// baseName returns the last element of a slash-separated path.
func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == '\\' {
			return p[i+1:]
		}
	}
	return p
}

// callerPC returns the return address into the caller of the function
// calling callerPC's caller: the call site of an intrinsic.
func callerPC() uintptr {
	var pc [1]uintptr
	runtime.Callers(3, pc[:])
	return pc[0]
}
