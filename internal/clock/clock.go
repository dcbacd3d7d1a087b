// Clocks: the real one over time.AfterFunc, and Fake, whose time moves
// only by Advance.

package clock

import (
	"slices"
	"sync"
	"time"
)

// Timer is a pending call from AfterFunc.
type Timer interface {
	// Stop cancels the call; it reports whether it was still pending.
	Stop() bool
}

// Clock schedules calls.
type Clock interface {
	// AfterFunc calls f in its own goroutine (Real) or from Advance (Fake)
	// once d has passed. Nothing runs, and no goroutine exists, until then.
	AfterFunc(d time.Duration, f func()) Timer
}

type realClock struct{}

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Real returns the clock of the time package.
func Real() Clock { return realClock{} }

// Fake is a Clock whose time advances only by Advance. Safe for
// concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Duration
	seq    int
	timers []*fakeTimer
}

type fakeTimer struct {
	c   *Fake
	at  time.Duration
	seq int // order of creation, to run timers due at once in order
	f   func()
}

// NewFake returns a Fake clock at time 0.
func NewFake() *Fake { return &Fake{} }

// AfterFunc schedules f to run from the Advance that reaches d from now.
func (c *Fake) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &fakeTimer{c: c, at: c.now + d, seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop cancels t.
func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	i := slices.Index(t.c.timers, t)
	if i < 0 {
		return false
	}
	t.c.timers = slices.Delete(t.c.timers, i, i+1)
	return true
}

// Advance moves the time forward by d, running each call that falls due,
// in time order, in the calling goroutine (without the clock's lock held:
// a call may schedule another, which runs too if it falls due within d).
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now + d
	for {
		i := -1
		for j, t := range c.timers {
			if t.at <= end && (i < 0 || t.at < c.timers[i].at || (t.at == c.timers[i].at && t.seq < c.timers[i].seq)) {
				i = j
			}
		}
		if i < 0 {
			break
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		c.now = max(c.now, t.at)
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// Pending returns the number of calls scheduled and not yet run.
func (c *Fake) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
