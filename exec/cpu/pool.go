// Worker pool: tasks spread over goroutines that pull task numbers from a
// shared counter, with cancellation checked between tasks.

package cpu

import (
	"context"
	"sync"
	"sync/atomic"
)

// parallel runs fn(w, t) for every task t in [0, tasks) on up to workers
// goroutines (w is the worker number, so fn may use per-worker scratch;
// worker 0 is the calling goroutine). Tasks are taken in increasing
// order. It stops starting tasks once ctx is done and then returns
// ctx.Err(); tasks already started finish.
func parallel(ctx context.Context, workers, tasks int, fn func(w, t int)) error {
	if tasks <= 0 {
		return ctx.Err()
	}
	workers = max(1, min(workers, tasks))
	if workers == 1 {
		return serial(ctx, tasks, fn)
	}
	done := ctx.Done()
	var next atomic.Int64
	var stopped atomic.Bool
	work := func(w int) {
		for {
			t := int(next.Add(1) - 1)
			if t >= tasks {
				return
			}
			select {
			case <-done:
				stopped.Store(true)
				return
			default:
			}
			fn(w, t)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { work(w) })
	}
	work(0)
	wg.Wait()
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
