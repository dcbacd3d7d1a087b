// Chunking: how many points of a kernel's space a worker evaluates at a
// time (so that a chunk's operands fit in half of a worker's cache) and
// how many workers a kernel is worth.

package cpu

import (
	"fmt"

	"github.com/fuseflow/fuseflow/fuse"
)

// cacheBytes is the cache budget of one worker (an L2): a chunk's
// operands and stores take at most half of it.
const cacheBytes = 1 << 20

// workerWork is the least work, in bytes of operand and store traffic
// plus costBytes per unit of op cost (fuse.OpCost) of the body, counted
// over a kernel's points, that is worth each worker beyond the first:
// waking a parked worker takes microseconds (tens where the idle core is
// a halted virtual CPU), about the time one core takes to stream this
// much from its caches, so a smaller kernel runs faster on the calling
// goroutine alone. Measured on a 2-core AMD EPYC (AVX-512): a+b of
// 100000 float32 (1.2 MB) took 14 us on one worker and 20 us on two; at
// 300000 the two were even.
const workerWork = 3 << 20

// costBytes is what one unit of op cost weighs in workerWork, in bytes: a
// cheap vector op on data in the cache takes about the time of streaming
// 8 bytes, a float32 exp about 32.
const costBytes = 8

// chunking returns the number of points of k's space a worker processes
// at a time (a multiple of 64, at least 64, at most the space) and the
// number of goroutines worth starting for k, at most workers: one per
// chunk, and one per workerWork of the kernel's work. For a
// Reduce a task reduces max(1, chunk/RowLen) whole output points, and
// the reduced range of long rows is split into chunk-sized pieces whose
// partials are combined in range order (deterministic).
func chunking(k *fuse.Kernel, workers int) (chunk, tasks int) {
	bpp := 0
	for _, o := range k.Operands {
		if o.Buffer != fuse.NoBuffer {
			bpp += o.DType.Size()
		}
	}
	for _, s := range k.Stores {
		bpp += s.DType.Size()
	}
	if k.MatMul() != nil {
		bpp += k.MatMul().A.DType.Size() * 2
	}
	bpp = max(bpp, 1)
	total := 1
	for _, e := range k.Space {
		total *= e
	}
	chunk = max(64, (cacheBytes/2)/bpp/64*64)
	chunk = min(chunk, max(total, 1))
	tasks = max(1, min(workers, (total+chunk-1)/chunk))
	if k.MatMul() != nil {
		return chunk, tasks // its work grows with the contracted extent too
	}
	work := total * (bpp + costBytes*bodyCost(k))
	return chunk, max(1, min(tasks, work/workerWork))
}

// bodyCost returns the op cost (fuse.OpCost) of computing one point of
// k: its body's ops (a Map's, a Reduce's prologue and reductions).
func bodyCost(k *fuse.Kernel) int {
	var body []fuse.Instr
	cost := 0
	switch k.Kind() {
	case fuse.KindMap:
		body = k.Map().Body
	case fuse.KindReduce:
		body = k.Reduce().Body
		cost = len(k.Reduce().Reductions)
	}
	for i := range body {
		switch body[i].Kind {
		case fuse.InstrOp, fuse.InstrGen:
			cost += fuse.OpCost(body[i].Op)
		}
	}
	return cost
}

// annotation is the fuse.Annotator of a plan on this backend.
type annotation struct{ notes []string }

func (annotation) Target() string { return "cpu" }

func (a annotation) Kernel(i int) string {
	if i < 0 || i >= len(a.notes) {
		return ""
	}
	return a.notes[i]
}

// Annotate returns the fuse.Annotator that shows, in fuse.ExplainFor, the
// chunk size and the number of workers b runs each kernel of p with.
func (b *Backend) Annotate(p *fuse.Plan) fuse.Annotator {
	a := annotation{notes: make([]string, len(p.Kernels))}
	for i := range p.Kernels {
		if c := p.Kernels[i].Call; c != nil {
			a.notes[i] = "the kernel's Go function on the CPU device"
			continue
		}
		chunk, workers := chunking(&p.Kernels[i], b.workers)
		if b.chunk > 0 {
			chunk = b.chunk
		}
		a.notes[i] = fmt.Sprintf("chunk %d workers %d", chunk, workers)
	}
	return a
}
