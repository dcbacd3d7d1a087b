// Map kernels and the per-evaluation run state: buffer base addresses
// and one frame per worker.

package cpu

import (
	"context"
	"unsafe"
)

// runState is what the kernels of one evaluation share.
type runState struct {
	bases  []unsafe.Pointer // per plan buffer: address of element 0
	frames []frame          // per worker
	// accs and accWords are small reductions' results, reused (see
	// redAccs).
	accs     []unsafe.Pointer
	accWords []uint64
}

// frame returns worker w's frame prepared for p.
func (ex *runState) frame(w int, p *prog, chunk int) *frame {
	f := &ex.frames[w]
	f.prepare(p, chunk)
	return f
}

// runProg evaluates p over its whole space in chunks on the workers;
// accs are the reduction or GEMM results an epilogue reads.
func runProg(ctx context.Context, p *prog, ex *runState, accs []unsafe.Pointer, chunk, workers int) error {
	if p.tile != nil {
		return runTiled(ctx, p, ex, chunk, workers)
	}
	size := p.sp.size
	if pieces, per := p.rowChunks(chunk); pieces > 0 {
		last := p.sp.shape[len(p.sp.shape)-1]
		return parallel(ctx, workers, size/last*pieces, func(w, t int) {
			f := ex.frame(w, p, chunk)
			lo := t % pieces * per
			p.runChunk(f, ex.bases, accs, t/pieces*last+lo, min(per, last-lo))
		})
	}
	tasks := (size + chunk - 1) / chunk
	if tasks <= 1 || workers <= 1 {
		// Inline: no closure, goroutine or counter for a small space.
		for t := range tasks {
			if err := ctx.Err(); err != nil {
				return err
			}
			lo := t * chunk
			p.runChunk(ex.frame(0, p, chunk), ex.bases, accs, lo, min(chunk, size-lo))
		}
		return nil
	}
	return parallel(ctx, workers, tasks, func(w, t int) {
		f := ex.frame(w, p, chunk)
		lo := t * chunk
		p.runChunk(f, ex.bases, accs, lo, min(chunk, size-lo))
	})
}
