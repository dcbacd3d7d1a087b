// Helpers shared by the tests of package cuda: checked host allocators,
// host tensors and the bindings of a graph's inputs.

package cuda

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
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
