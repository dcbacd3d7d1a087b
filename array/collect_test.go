// Arrays the program forgets without Release give back what they hold
// once the garbage collector finds them unreachable; Arrays still in use
// keep theirs.

package array_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

// collect runs the garbage collector until done reports true or a
// second has passed (releases run on the runtime's goroutine after a
// collection, not within it).
func collect(done func() bool) {
	deadline := time.Now().Add(time.Second)
	for !done() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// forget builds and evaluates arrays on c that nothing keeps: an input,
// a result and a result built on it, some released and some not, and
// one array that never holds anything.
func forget(t *testing.T, c *array.Context) {
	x := array.FromSlice(c, []float32{1, 2, 3}, 3)
	y := x.Add(x)
	require.NoError(t, y.Eval())
	z := y.Mul(2)
	require.NoError(t, z.Eval())
	w := z.Sub(1)
	require.NoError(t, w.Eval())
	w.Release()
	_ = z.Exp() // never evaluated
}

func TestForgottenArraysAreFreed(t *testing.T) {
	c, mem := checkedContext(t, cpu.New(cpu.Options{}))
	kept := array.FromSlice(c, []float32{4, 5}, 2).Neg()
	require.NoError(t, kept.Eval())
	forget(t, c)
	require.Greater(t, c.Live(), 1)
	collect(func() bool { return c.Live() == 1 })
	require.Equal(t, 1, c.Live(), "results of the forgotten arrays freed, the kept one's held")
	got, err := array.ToSlice[float32](kept)
	require.NoError(t, err)
	require.Equal(t, []float32{-4, -5}, got)
	kept.Release()
	require.Zero(t, c.Live())
	mem.AssertSize(t, 0)
}

// TestForgottenManyArrays forgets more Arrays than wait for a finalizer
// at once, releasing some of them in turn.
func TestForgottenManyArrays(t *testing.T) {
	c, mem := checkedContext(t, cpu.New(cpu.Options{}))
	x := array.FromSlice(c, []float32{1, 2, 3}, 3)
	func() {
		for i := range 1000 {
			y := x.Add(float64(i))
			require.NoError(t, y.Eval())
			if i%3 == 0 {
				y.Release()
			}
		}
	}()
	collect(func() bool { return c.Live() == 1 })
	require.Equal(t, 1, c.Live(), "only x's input left")
	x.Release()
	mem.AssertSize(t, 0)
}

// TestForgottenContext drops a Context together with its Arrays: their
// results still go back to the allocator.
func TestForgottenContext(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	func() {
		c := cpuContext(array.WithAllocator(mem))
		forget(t, c)
	}()
	collect(func() bool { return mem.CurrentAlloc() == 0 })
	mem.AssertSize(t, 0)
}
