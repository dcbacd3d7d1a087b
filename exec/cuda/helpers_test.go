// Helpers shared by the tests of package cuda: checked host allocators
// and the bindings of a graph's inputs.

package cuda

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

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
