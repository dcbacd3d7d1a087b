// Worker pool: tasks spread over goroutines that pull task numbers from a
// shared counter, with cancellation checked between tasks.

package cpu

import (
	"context"
	"sync/atomic"
)

// maxPending bounds the helpers started and not yet running, across all
// calls of parallel: a caller that runs its tasks faster than helpers get
// scheduled (one core, or a loaded machine) starts no more of them, so
// late ones cannot pile up.
const maxPending = 64

// pending counts the helpers started by parallel that have not begun.
var pending atomic.Int64

// parallel runs fn(w, t) for every task t in [0, tasks) on up to workers
// goroutines (w is the worker number, so fn may use per-worker scratch;
// worker 0 is the calling goroutine). Tasks are taken in increasing
// order. It stops starting tasks once ctx is done and then returns
// ctx.Err(); tasks already started finish. It returns once every task
// has finished (or been skipped), without waiting for helpers that had
// not started one: a helper that starts late finds no task left and
// exits without calling fn, so a caller that ran every task itself
// never waits for another core to wake.
func parallel(ctx context.Context, workers, tasks int, fn func(w, t int)) error {
	if tasks <= 0 {
		return ctx.Err()
	}
	workers = max(1, min(workers, tasks))
	if workers == 1 {
		return serial(ctx, tasks, fn)
	}
	done := ctx.Done()
	var next, left atomic.Int64
	var stopped atomic.Bool
	left.Store(int64(tasks))
	finished := make(chan struct{})
	work := func(w int) {
		for {
			t := int(next.Add(1) - 1)
			if t >= tasks {
				return
			}
			select {
			case <-done:
				stopped.Store(true)
			default:
				if !stopped.Load() {
					fn(w, t)
				}
			}
			if left.Add(-1) == 0 {
				close(finished)
			}
		}
	}
	for w := 1; w < workers && pending.Load() < maxPending; w++ {
		pending.Add(1)
		go func() {
			pending.Add(-1)
			work(w)
		}()
	}
	work(0)
	<-finished
	if stopped.Load() {
		return ctx.Err()
	}
	return nil
}

// serial is parallel on the calling goroutine alone: no goroutine, no
// shared counter, nothing allocated.
func serial(ctx context.Context, tasks int, fn func(w, t int)) error {
	for t := range tasks {
		if err := ctx.Err(); err != nil {
			return err
		}
		fn(0, t)
	}
	return nil
}
