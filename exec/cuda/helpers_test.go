// Helpers shared by the tests of package cuda: checked host allocators,
// host and device tensors, the bindings of a graph's inputs, the check of
// a random graph and work on several goroutines.

package cuda

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// bindings binds the Input nodes of a graph to tensors.
type bindings = map[*graph.Node]*exec.Tensor

// checkedAlloc returns a checked allocator over base that must hold no
// bytes when t and its cleanups registered later are done.
func checkedAlloc(t testing.TB, base memory.Allocator) *memory.CheckedAllocator {
	t.Helper()
	a := memory.NewCheckedAllocator(base)
	t.Cleanup(func() { a.AssertSize(t, 0) })
	return a
}

// newHost returns a new host tensor of dtype d and shape s from alloc;
// the caller releases it.
func newHost(t testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape) *exec.Tensor {
	t.Helper()
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	return x
}

// hostTensor returns a new host tensor of dtype d (whose elements are Ts)
// and shape s with element i set to f(i); the caller releases it.
func hostTensor[T any](t testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, f func(i int) T) *exec.Tensor {
	t.Helper()
	x := newHost(t, alloc, d, s)
	e := exec.Elems[T](x)
	for i := range e {
		e[i] = f(i)
	}
	return x
}

// toDevice copies h to b's device and returns the device tensor, which
// the caller releases.
func toDevice(t testing.TB, b *Backend, h *exec.Tensor) *exec.Tensor {
	t.Helper()
	d, err := b.ToDevice(context.Background(), h)
	require.NoError(t, err)
	return d
}

// checkCase compares the outputs of random graph c on b with the CPU
// backend and the reference, then runs after (when not nil) for checks of
// the caller's own. It stops the test at a fault that breaks b's device,
// logs c's graph when the case failed, and releases c.
func checkCase(t *testing.T, b *Backend, what string, c *randgraph.Case, alloc memory.Allocator, after func()) {
	t.Helper()
	before := t.Failed()
	compareWithCPU(t, b, what, c.Outputs, c.Exact, c.Bound, alloc)
	if after != nil {
		after()
	}
	if r := faultReport(b, what, c.Desc); r != "" {
		c.Release()
		t.Fatal(r)
	}
	if !before && t.Failed() {
		t.Logf("%s graph:\n%s", what, strings.Join(c.Desc, "\n"))
	}
	c.Release()
}

// concurrently runs f(0) to f(n-1) on n goroutines at once and reports
// every error they return.
func concurrently(t testing.TB, n int, f func(g int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for g := range n {
		wg.Go(func() {
			if err := f(g); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
