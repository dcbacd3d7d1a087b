// Scratch guard: the evaluator computes in float64 and int64 lanes on the
// Go heap, which cannot fail gracefully, so every node's lanes are checked
// against the allocation limit before they are made.

package ref

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// laneDType stands for the 8-byte lane elements (float64 or int64).
const laneDType = graph.Float64

// checkScratch returns an *exec.MemoryError (for a float64 array: the
// lanes are 8 bytes an element) when the lanes compute would make for n
// are larger than
// exec.AllocLimit(alloc): the result's shape, a reduction's input, and a
// MatMul's operands stretched to the broadcast batch axes.
func checkScratch(alloc memory.Allocator, n *graph.Node, ins []*exec.Tensor) error {
	shapes := []graph.Shape{n.Shape()}
	switch n.Op().Class() {
	case graph.ClassReduce, graph.ClassSort:
		shapes = append(shapes, ins[0].Shape)
	case graph.ClassMatMul:
		s := n.Shape()
		r := len(s)
		batch := s[:r-2]
		k := ins[0].Shape[len(ins[0].Shape)-1]
		shapes = append(shapes, append(batch.Clone(), s[r-2], k), append(batch.Clone(), k, s[r-1]))
	case graph.ClassIndex:
		for _, t := range ins {
			shapes = append(shapes, t.Shape)
		}
	case graph.ClassView, graph.ClassCopy, graph.ClassConcat:
		return nil // copied tensor to tensor, no lanes; NewTensor checks the result
	}
	for _, s := range shapes {
		if slices.Contains(s, 0) {
			// No lanes at all: an empty shape's other extents may be too
			// big for a float64 array while valid for the node's dtype.
			continue
		}
		if err := exec.CheckAlloc(alloc, laneDType, s); err != nil {
			return err
		}
	}
	return nil
}
