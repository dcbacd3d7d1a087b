// The team: helper goroutines that stay awake for a short while after a
// product (spinning), so that the next product's tasks start on every
// core at once instead of after the wake-up of a sleeping thread (tens
// of microseconds on a virtual machine: a large part of a 128-256
// product), as BLAS libraries' threads do; with ways out of spinning
// where it costs more than it saves.

package gemm

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
)

// spinFor is how long a helper keeps looking for the next product's
// tasks before it exits: longer than the gap between products called
// back to back, short enough that a program that has stopped multiplying
// burns little.
const spinFor = 50 * time.Microsecond

// Spinning is turned off for spinOff when a spinning helper sees a gap of
// over spinGap between two looks (its thread was descheduled), or a
// caller waits over spinSlow for a helper's last task (the helper was
// descheduled in the middle of it): the machine has more runnable
// threads than cores, a spinning thread takes a core from threads with
// work, and the scheduler runs it late, behind threads that slept.
// Products then start helpers of their own for each call, as goroutines
// that the scheduler wakes like any other.
const (
	spinGap  = 20 * time.Microsecond
	spinSlow = 200 * time.Microsecond
	spinOff  = 100 * time.Millisecond
)

// teamJob is one Runner call on the team.
type teamJob struct {
	fn      func(worker, task int)
	tasks   int64
	workers int64
	stop    func() error
	next    atomic.Int64 // next task number
	ids     atomic.Int64 // worker numbers handed out (the caller is 0)
	// state counts the helpers inside the job; closedBit set by the
	// caller once its own loop ends, after which no helper enters.
	state   atomic.Int64
	stopped atomic.Bool
	done    chan struct{} // closed by the last helper to leave a closed job
}

const closedBit = 1 << 62

// work runs tasks of j as worker w until none are left.
func (j *teamJob) work(w int) {
	for {
		t := j.next.Add(1) - 1
		if t >= j.tasks {
			return
		}
		if j.stop != nil && !j.stopped.Load() && j.stop() != nil {
			j.stopped.Store(true)
		}
		if !j.stopped.Load() {
			j.fn(w, int(t))
		}
	}
}

// help joins j from a helper: it takes a worker number and runs tasks,
// unless the caller has already closed the job or every number is taken.
func (j *teamJob) help() {
	for {
		s := j.state.Load()
		if s&closedBit != 0 {
			return
		}
		if j.state.CompareAndSwap(s, s+1) {
			break
		}
	}
	if w := j.ids.Add(1); w < j.workers {
		j.work(int(w))
	}
	if j.state.Add(-1) == closedBit {
		close(j.done)
	}
}

// team is the package's helpers. A product starts the helpers it
// lacks, as goroutines that join it at once; after the product each
// helper spins for spinFor looking for the next one, then exits. Products
// called in a row thus find their helpers awake, and an idle program
// keeps none.
type team struct {
	busy   atomic.Bool             // a job is running on the team
	cur    atomic.Pointer[teamJob] // the running job
	seq    atomic.Uint64           // jobs published so far
	awake  atomic.Int64            // helpers started and not yet exited
	noSpin atomic.Int64            // no spinning before this time (ns since epoch)
}

var theTeam = &team{}

// helper helps job j (published as seq), then the jobs it finds until
// none comes for spinFor. (A job published just as a helper gives up
// starts no other helper: its caller runs the tasks the helper would
// have taken.)
func (tm *team) helper(j *teamJob, seq uint64) {
	defer tm.awake.Add(-1)
	last := seq
	for j != nil {
		j.help()
		j = tm.find(&last)
	}
}

// find spins for spinFor looking for a job published after seq *last,
// and returns it (nil when none came). It stops early, turning spinning
// off, when the thread was descheduled (a gap of over spinGap between two
// looks).
func (tm *team) find(last *uint64) *teamJob {
	start := time.Now()
	if start.UnixNano() < tm.noSpin.Load() {
		return nil
	}
	prev := start
	for i := 0; ; i++ {
		if s := tm.seq.Load(); s != *last {
			*last = s
			if j := tm.cur.Load(); j != nil {
				return j
			}
		}
		if i%8 == 7 {
			now := time.Now()
			if now.Sub(prev) > spinGap {
				tm.noSpin.Store(now.Add(spinOff).UnixNano())
				return nil
			}
			if now.Sub(start) > spinFor {
				return nil
			}
			prev = now
		}
		runtime.Gosched()
	}
}

// run runs fn(w, t) for every task on up to workers workers, the calling
// goroutine being worker 0, and returns once every started task has
// returned (helpers that come late find nothing left and are not waited
// for). stop, when not nil, is called before each task; once it returns
// an error no more tasks start and run returns that error. It reports
// false, having run nothing, when the team is running another job or
// spinning is off.
func (tm *team) run(tasks, workers int, fn func(worker, task int), stop func() error) (bool, error) {
	if time.Now().UnixNano() < tm.noSpin.Load() || !tm.busy.CompareAndSwap(false, true) {
		return false, nil
	}
	defer tm.busy.Store(false)
	j := newTeamJob(tasks, workers, fn, stop)
	tm.cur.Store(j)
	seq := tm.seq.Add(1)
	for n := int64(min(workers, runtime.GOMAXPROCS(0))-1) - tm.awake.Load(); n > 0; n-- {
		tm.awake.Add(1)
		go tm.helper(j, seq)
	}
	j.work(0)
	waited := j.finish(spinFor)
	tm.cur.Store(nil)
	if waited > spinSlow {
		tm.noSpin.Store(time.Now().Add(spinOff).UnixNano())
	}
	return true, j.err()
}

func newTeamJob(tasks, workers int, fn func(worker, task int), stop func() error) *teamJob {
	return &teamJob{fn: fn, tasks: int64(tasks), workers: int64(workers), stop: stop, done: make(chan struct{})}
}

// finish closes j, then waits for the helpers inside it (each finishing
// the task it holds): spinning for up to spin (a caller that parks
// would be woken on the helper's processor, and the helper would then
// wait for a thread to wake for the next product), then blocked (on a
// machine with more threads than cores the helper needs the core). It
// returns how long it waited.
func (j *teamJob) finish(spin time.Duration) time.Duration {
	for {
		s := j.state.Load()
		if !j.state.CompareAndSwap(s, s|closedBit) {
			continue
		}
		if s == 0 {
			return 0
		}
		t0 := time.Now()
		for i := 1; spin > 0 && j.state.Load() != closedBit; i++ {
			if i%64 == 0 && time.Since(t0) > spin {
				break
			}
		}
		<-j.done
		return time.Since(t0)
	}
}

// err is the stop error once the job has stopped.
func (j *teamJob) err() error {
	if j.stopped.Load() {
		return j.stop()
	}
	return nil
}

// TeamRunner returns a Runner on the package's team of helper goroutines,
// which keep looking for work for a short while after a product so that
// products called in a row start on all workers without waiting for a
// thread to wake (see spinFor for when they do not). The caller's
// goroutine is worker 0. When the team is busy (products running
// concurrently) or not spinning, the call runs on goroutines started for
// it instead. ctx, when not nil, is checked before each task: once
// it is done no more tasks start and the Runner returns ctx.Err(). The
// Runner is safe for concurrent use.
func TeamRunner(ctx context.Context, workers int) Runner {
	var stop func() error
	if ctx != nil && ctx.Done() != nil {
		stop = ctx.Err
	}
	return func(tasks int, fn func(worker, task int)) error {
		return teamRun(tasks, workers, fn, stop)
	}
}

// teamRun is a call of TeamRunner's Runner, stop its context's Err (nil
// when it is never done).
func teamRun(tasks, workers int, fn func(worker, task int), stop func() error) error {
	if tasks <= 0 {
		return nil
	}
	n := max(1, min(workers, tasks))
	if n == 1 {
		for t := range tasks {
			if stop != nil {
				if err := stop(); err != nil {
					return err
				}
			}
			fn(0, t)
		}
		return nil
	}
	if ok, err := theTeam.run(tasks, n, fn, stop); ok {
		return err
	}
	return spawnRun(tasks, n, fn, stop)
}

// maxPending bounds the helpers spawnRun has started and the scheduler
// has not yet run, across calls: a caller that runs its tasks faster than
// helpers get scheduled (one core, or a loaded machine) starts no more.
const maxPending = 64

var pending atomic.Int64

// spawnRun runs the tasks on up to n goroutines started for the call, the
// caller's among them (worker 0), as team.run does: a helper that starts
// after the caller has finished every task finds the job closed, and is
// not waited for.
func spawnRun(tasks, n int, fn func(worker, task int), stop func() error) error {
	j := newTeamJob(tasks, n, fn, stop)
	for w := 1; w < n && pending.Load() < maxPending; w++ {
		pending.Add(1)
		go func() {
			pending.Add(-1)
			j.help()
		}()
	}
	j.work(0)
	j.finish(0)
	return j.err()
}
