// A row group's extra buffers: the values it moves off a temp that
// holds them in different row windows (rowSplit) get host memory of
// their own for one run of the group.

package cpu

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// allocExtra allocates g's extra buffers for one run by e, each of the
// size of the temp it stands for, as one host buffer (held), and sets
// s.bases.
func (s *groupScratch) allocExtra(e *evaluation, g *rowGroup) error {
	plan := e.lp.plan
	var offs []int64
	var total int64
	for _, b := range g.extra {
		offs = append(offs, total)
		total += (plan.Buffers[b].Bytes + 63) &^ 63
	}
	if err := exec.CheckAlloc(e.alloc, graph.Uint8, graph.Shape{int(total)}); err != nil {
		return fmt.Errorf("cpu: %w", err)
	}
	buf := memory.NewResizableBuffer(e.alloc)
	buf.Resize(int(total))
	s.held = append(s.held, buf)
	s.bases = append(s.bases[:0], e.ex.bases...)
	for _, off := range offs {
		s.bases = append(s.bases, unsafe.Pointer(unsafe.SliceData(buf.Bytes()[off:])))
	}
	return nil
}

// releaseExtra gives back the extra buffers of a run and forgets their
// addresses.
func (s *groupScratch) releaseExtra() {
	for i, b := range s.held {
		b.Release()
		s.held[i] = nil
	}
	clear(s.bases)
	s.held, s.bases = s.held[:0], s.bases[:0]
}
