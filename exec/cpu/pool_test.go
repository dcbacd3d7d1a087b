// Tests of the worker pool: every task runs once, and a call returns
// without waiting for a helper that never got to run a task.

package cpu

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
)

func TestParallelRunsEveryTask(t *testing.T) {
	for _, tc := range []struct{ workers, tasks int }{{1, 5}, {2, 1}, {2, 7}, {4, 100}, {8, 3}} {
		var runs [100]atomic.Int32
		var wrong atomic.Bool
		err := parallel(context.Background(), tc.workers, tc.tasks, func(w, i int) {
			if w < 0 || w >= tc.workers {
				wrong.Store(true)
			}
			runs[i].Add(1)
		})
		if err != nil {
			t.Fatalf("workers %d tasks %d: %v", tc.workers, tc.tasks, err)
		}
		for i := range tc.tasks {
			if got := runs[i].Load(); got != 1 {
				t.Errorf("workers %d tasks %d: task %d ran got:%d want:1", tc.workers, tc.tasks, i, got)
			}
		}
		if wrong.Load() {
			t.Errorf("workers %d tasks %d: a worker number out of range", tc.workers, tc.tasks)
		}
	}
}

// TestParallelNoWaitForIdleHelper: on one processor, the caller runs
// every task before its helper is scheduled, and returns without
// yielding to it; the helper then starts, finds nothing and ends.
func TestParallelNoWaitForIdleHelper(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for pending.Load() != 0 { // helpers of earlier calls
		runtime.Gosched()
	}
	var others atomic.Int32
	err := parallel(context.Background(), 2, 8, func(w, _ int) {
		if w != 0 {
			others.Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := pending.Load(); got != 1 {
		t.Errorf("helpers not started when parallel returned got:%d want:1", got)
	}
	for pending.Load() != 0 {
		runtime.Gosched()
	}
	if got := others.Load(); got != 0 {
		t.Errorf("tasks run by the late helper got:%d want:0", got)
	}
}
