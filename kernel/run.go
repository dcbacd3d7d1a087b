// This file implements running a kernel's Go function over a grid on the
// CPU: a pool of workers takes blocks in linear order (x fastest); each
// block runs its threads in a loop (kernels that never synchronize) or as
// goroutines (kernels with barriers or warp operations). A panic in a
// thread becomes a *LaunchError naming the kernel, block, thread and
// source line; the first failure stops the launch.

package kernel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// launchRun is the state of one launch on the CPU.
type launchRun struct {
	k          *Kernel
	grid, bdim Dim3
	nt         int
	dynBytes   int
	body       func(Thread)
	coop       bool

	mu     sync.Mutex
	err    *LaunchError
	errKey [2]int // block and thread linear indices of err, to keep the first
	failed atomic.Bool
}

// fail records err (the failure of the lowest block and thread wins) and
// stops the launch.
func (r *launchRun) fail(err *LaunchError) {
	key := [2]int{linearIndex(err.Block, r.grid), linearIndex(err.Thread, r.bdim)}
	r.mu.Lock()
	if r.err == nil || key[0] < r.errKey[0] || key[0] == r.errKey[0] && key[1] < r.errKey[1] {
		r.err, r.errKey = err, key
	}
	r.mu.Unlock()
	r.failed.Store(true)
}

// linearIndex returns the linear index of i within extent d (x fastest).
func linearIndex(i, d Dim3) int { return i.X + d.X*(i.Y+d.Y*i.Z) }

// runCPU runs body over cfg's grid (normalized by Config.check).
func runCPU(ctx context.Context, k *Kernel, cfg Config, body func(Thread)) error {
	r := &launchRun{k: k, grid: cfg.Grid, bdim: cfg.Block, nt: cfg.Block.count(), dynBytes: cfg.SharedBytes,
		body: body, coop: k.spec.Sync != 0}
	nb := r.grid.count()
	workers := min(runtime.GOMAXPROCS(0), nb)
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			th := &thread{bdim: r.bdim, gdim: r.grid}
			for {
				i := int(next.Add(1) - 1)
				if i >= nb || r.failed.Load() || ctx.Err() != nil {
					return
				}
				bid := Dim3{i % r.grid.X, i / r.grid.X % r.grid.Y, i / (r.grid.X * r.grid.Y)}
				if r.coop {
					r.runCoop(bid)
				} else {
					r.runPlain(th, bid)
				}
			}
		}()
	}
	wg.Wait()
	if r.err != nil {
		return r.err
	}
	return ctx.Err()
}

// runPlain runs the threads of block bid one after another on th.
func (r *launchRun) runPlain(th *thread, bid Dim3) {
	th.bid = bid
	th.blk = newBlock(r, bid, r.nt, false)
	defer func() {
		if p := recover(); p != nil {
			r.fail(r.panicError(th, p, panicSite()))
		}
	}()
	t := Thread{th}
	bd := r.bdim
	lin := 0
	for z := range bd.Z {
		for y := range bd.Y {
			for x := range bd.X {
				th.tid = Dim3{x, y, z}
				th.linear = lin
				lin++
				r.body(t)
			}
		}
	}
}

// runCoop runs the threads of block bid as goroutines and waits for them.
func (r *launchRun) runCoop(bid Dim3) {
	b := newBlock(r, bid, r.nt, true)
	bd := r.bdim
	for i := range r.nt {
		b.threads[i] = &thread{tid: Dim3{i % bd.X, i / bd.X % bd.Y, i / (bd.X * bd.Y)}, bid: bid,
			bdim: bd, gdim: r.grid, linear: i, blk: b}
	}
	var wg sync.WaitGroup
	wg.Add(r.nt)
	for _, s := range b.threads {
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					err := r.panicError(s, p, panicSite())
					b.mu.Lock()
					b.abort(err)
					b.mu.Unlock()
				}
				b.exit(s)
			}()
			r.body(Thread{s})
		}()
	}
	wg.Wait()
}
