// Frames: a worker's scratch for running a program chunk by chunk —
// registers, per-instruction data pointers, index scratch — allocated
// once and reused for every chunk.

package cpu

import "unsafe"

// frame is one worker's scratch. It is not safe for concurrent use.
type frame struct {
	chunk int
	mem   []uint64 // registers, chunk 8-byte slots each
	ptr   []unsafe.Pointer
	idx   []int
	offs  []int
	prog  *prog // the program whose constants are in the registers
	gbad  gatherBad
}

// prepare sizes f for p at the given chunk length and fills p's
// constant registers. It allocates only when f is too small.
func (f *frame) prepare(p *prog, chunk int) {
	if f.prog == p && f.chunk == chunk {
		return
	}
	f.chunk = chunk
	if need := max(p.nregs, 1) * chunk; cap(f.mem) < need {
		f.mem = make([]uint64, need)
	} else {
		f.mem = f.mem[:need]
	}
	if cap(f.ptr) < len(p.steps) {
		f.ptr = make([]unsafe.Pointer, len(p.steps))
	}
	f.ptr = f.ptr[:len(p.steps)]
	if cap(f.idx) < len(p.sp.shape)+1 {
		f.idx = make([]int, len(p.sp.shape)+1)
	}
	if cap(f.offs) < chunk {
		f.offs = make([]int, chunk)
	}
	for _, i := range p.consts {
		st := &p.steps[i]
		fill(f.reg(st.reg), st.dt.Size(), st.bits, chunk)
	}
	f.prog = p
}

// reg returns the start of register r.
func (f *frame) reg(r int) unsafe.Pointer { return unsafe.Pointer(&f.mem[r*f.chunk]) }
