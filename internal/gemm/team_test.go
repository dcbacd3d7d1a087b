// Tests of the team Runner: every task exactly once, worker numbers in
// range and never shared by two running tasks, concurrent callers (the
// team busy), cancellation.

package gemm_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fuseflow/fuseflow/internal/gemm"
)

// runTeam runs tasks on run and checks that each ran once, on a worker
// in [0, workers) that no other task held at the same time.
func runTeam(t *testing.T, run gemm.Runner, workers, tasks int) {
	t.Helper()
	counts := make([]atomic.Int32, tasks)
	busy := make([]atomic.Int32, workers)
	var bad atomic.Int32
	err := run(tasks, func(w, task int) {
		if w < 0 || w >= workers || busy[w].Add(1) != 1 {
			bad.Add(1)
			return
		}
		counts[task].Add(1)
		for range 50 { // long enough for another worker to take a task
			runtime.Gosched()
		}
		busy[w].Add(-1)
	})
	if err != nil {
		t.Fatalf("%d tasks on %d workers: %v", tasks, workers, err)
	}
	if b := bad.Load(); b != 0 {
		t.Fatalf("%d tasks on %d workers: %d calls with a worker out of range or in use", tasks, workers, b)
	}
	for i := range counts {
		if c := counts[i].Load(); c != 1 {
			t.Fatalf("%d tasks on %d workers: task %d ran got:%d want:1 times", tasks, workers, i, c)
		}
	}
}

// The team's helpers (spinning), or helpers started for each call
// (spinning off).
func TestTeamRunner(t *testing.T) {
	for _, spin := range []bool{true, false} {
		if !spin {
			defer gemm.SetSpinOff()()
		}
		for _, tc := range []struct{ workers, tasks int }{
			{1, 5}, {2, 1}, {2, 2}, {2, 37}, {3, 100}, {8, 64}, {4, 0},
		} {
			runTeam(t, gemm.TeamRunner(context.Background(), tc.workers), tc.workers, tc.tasks)
		}
	}
}

// Callers at the same time share the team or run on goroutines of their
// own; either way each gets its tasks run.
func TestTeamRunnerConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 20 {
				runTeam(t, gemm.TeamRunner(context.Background(), 2+g%2), 2+g%2, 10+i)
			}
		})
	}
	wg.Wait()
}

// Once the context is done no task starts (a task that passed its check
// before may still run: at most one per other worker), and the Runner
// returns the context's error unless every task had run.
func TestTeamRunnerCancel(t *testing.T) {
	for _, spin := range []bool{true, false} {
		if !spin {
			defer gemm.SetSpinOff()()
		}
		for _, workers := range []int{1, 2, 4} {
			const tasks = 1000
			ctx, cancel := context.WithCancel(context.Background())
			var ran, late atomic.Int32
			var done atomic.Bool
			err := gemm.TeamRunner(ctx, workers)(tasks, func(_, task int) {
				if done.Load() {
					late.Add(1)
				}
				if ran.Add(1) == 3 {
					cancel()
					done.Store(true)
				}
			})
			if n := ran.Load(); n < tasks && !errors.Is(err, context.Canceled) || n == tasks && err != nil && !errors.Is(err, context.Canceled) {
				t.Fatalf("spin %v, %d workers (%d tasks run): got:%v want:%v", spin, workers, n, err, context.Canceled)
			}
			if n := late.Load(); n > int32(workers-1) {
				t.Fatalf("spin %v, %d workers: tasks started after the cancellation got:%d want:<=%d", spin, workers, n, workers-1)
			}
		}
	}
}
