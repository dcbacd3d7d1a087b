// Tests of the fake clock: calls run in time order from Advance, Stop
// cancels, and a call may schedule another.

package clock_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/internal/clock"
)

func TestFakeOrderAndStop(t *testing.T) {
	c := clock.NewFake()
	var got []string
	c.AfterFunc(3*time.Second, func() { got = append(got, "c") })
	c.AfterFunc(time.Second, func() { got = append(got, "a") })
	c.AfterFunc(time.Second, func() { got = append(got, "b") })
	stopped := c.AfterFunc(2*time.Second, func() { got = append(got, "never") })
	require.True(t, stopped.Stop())
	require.False(t, stopped.Stop())
	require.Equal(t, 3, c.Pending())

	c.Advance(999 * time.Millisecond)
	require.Empty(t, got)
	c.Advance(time.Millisecond)
	require.Equal(t, []string{"a", "b"}, got, "due at once: in the order scheduled")
	c.Advance(time.Hour)
	require.Equal(t, []string{"a", "b", "c"}, got)
	require.Zero(t, c.Pending())
}

// A call that schedules another (a periodic check re-arming itself) runs
// again within the same Advance when the next call falls due in it.
func TestFakeRearm(t *testing.T) {
	c := clock.NewFake()
	n := 0
	var tick func()
	tick = func() {
		n++
		c.AfterFunc(10*time.Second, tick)
	}
	c.AfterFunc(10*time.Second, tick)
	c.Advance(35 * time.Second)
	require.Equal(t, 3, n)
	require.Equal(t, 1, c.Pending())
}

func TestReal(t *testing.T) {
	var ran atomic.Bool
	done := make(chan struct{})
	clock.Real().AfterFunc(time.Millisecond, func() { ran.Store(true); close(done) })
	<-done
	require.True(t, ran.Load())
	require.True(t, clock.Real().AfterFunc(time.Hour, func() {}).Stop(), "a pending call can be stopped")
}

// A Fake clock runs what falls due when the test advances it.
func ExampleFake() {
	c := clock.NewFake()
	c.AfterFunc(30*time.Second, func() { fmt.Println("idle check") })
	c.Advance(29 * time.Second)
	fmt.Println("pending:", c.Pending())
	c.Advance(time.Second)
	fmt.Println("pending:", c.Pending())
	// Output:
	// pending: 1
	// idle check
	// pending: 0
}
