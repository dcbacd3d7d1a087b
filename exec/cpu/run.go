// Running a program over one chunk of its space: loads (in place or
// gathered), constants, generated leaves, elementwise ops, reduction
// results, and the stores.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
)

// at returns the address of element i (size es) from base.
func at(base unsafe.Pointer, i, es int) unsafe.Pointer { return unsafe.Add(base, i*es) }

// runChunk evaluates p over the flat points [lo, lo+n) of its space with
// f's registers (prepared for p), reading buffers at bases and reduction
// results at accs (contiguous over the space), and performs the stores.
func (p *prog) runChunk(f *frame, bases, accs []unsafe.Pointer, lo, n int) {
	for i := range p.steps {
		st := &p.steps[i]
		var dst unsafe.Pointer
		if st.direct >= 0 {
			s := &p.stores[st.direct]
			dst = at(bases[s.buf], s.lay.Offset+lo, s.es)
		} else if st.reg >= 0 {
			dst = f.reg(st.reg)
			if st.runStore >= 0 {
				s := &p.stores[st.runStore]
				if off, ok := p.sp.rowRun(s, lo, n); ok {
					dst = at(bases[s.buf], off, s.es)
				}
			}
		}
		switch st.kind {
		case fuse.InstrLoad:
			o := &p.opds[st.opd]
			base := bases[o.buf]
			if o.contig {
				src := at(base, o.lay.Offset+lo, o.es)
				if !st.norm {
					dst = src
					break
				}
				normLoop(dst, src, n)
				break
			}
			if off, ok := p.sp.rowRun(o, lo, n); ok {
				src := at(base, off, o.es)
				if !st.norm {
					dst = src
					break
				}
				normLoop(dst, src, n)
				break
			}
			es := o.es
			p.sp.walk(o.lay, lo, n, f.idx, func(pos, off, step, cnt int) {
				gatherRun(dst, base, es, pos, off, step, cnt)
			})
			if st.norm {
				normLoop(dst, dst, n)
			}
		case fuse.InstrConst:
		case fuse.InstrGen:
			o := &p.opds[st.opd]
			offs := f.offs[:n]
			p.sp.walk(o.lay, lo, n, f.idx, func(pos, off, step, cnt int) {
				for k := range cnt {
					offs[pos+k] = off + k*step
				}
			})
			genTab[st.op](dst, st.dt, &st.gen, offs)
		case fuse.InstrAcc:
			dst = at(accs[st.acc], lo, st.dt.Size())
		case fuse.InstrGather:
			p.runGather(f, bases, dst, i, lo, n)
		case fuse.InstrOp:
			a := st.args
			switch {
			case st.wh != nil:
				st.wh(dst, f.ptr[a[0]], f.ptr[a[1]], f.ptr[a[2]], n)
			case st.un != nil:
				st.un(dst, f.ptr[a[0]], n)
			case st.sc != nil:
				st.sc(dst, f.ptr[st.scArg], st.bits, n)
			default:
				st.bin(dst, f.ptr[a[0]], f.ptr[a[1]], n)
			}
		}
		f.ptr[i] = dst
	}
	for k := range p.stores {
		v := p.vals[k]
		if p.steps[v].direct == k {
			continue
		}
		s := &p.stores[k]
		src := f.ptr[v]
		base := bases[s.buf]
		if s.contig {
			copyBytes(at(base, s.lay.Offset+lo, s.es), src, n*s.es)
			continue
		}
		if off, ok := p.sp.rowRun(s, lo, n); ok {
			copyBytes(at(base, off, s.es), src, n*s.es)
			continue
		}
		es := s.es
		p.sp.walk(s.lay, lo, n, f.idx, func(pos, off, step, cnt int) {
			scatterRun(base, src, es, pos, off, step, cnt)
		})
	}
}

// copyBytes copies n bytes from src to dst (which may be the same).
func copyBytes(dst, src unsafe.Pointer, n int) {
	if dst == src || n == 0 {
		return
	}
	copy(view[byte](dst, n), view[byte](src, n))
}
