// Byte accounting: what each kernel reads and writes, and what the same
// graph moves when every op is its own kernel.

package fuse

import (
	"github.com/fuseflow/fuseflow/graph"
)

// distinct returns the number of distinct elements a strided view over
// space touches (axes with stride 0 count once).
func distinct(space []int, strides []int) int64 {
	n := int64(1)
	for i, e := range space {
		if e == 0 {
			return 0
		}
		if strides[i] != 0 {
			n *= int64(e)
		}
	}
	return n
}

func countBytes(pl *Plan, k *Kernel) {
	k.BytesRead, k.BytesWritten = 0, 0
	for _, o := range k.Operands {
		if o.Buffer != NoBuffer {
			k.BytesRead += distinct(k.Space, o.Strides) * int64(o.DType.Size())
		}
	}
	if m := k.MatMul(); m != nil {
		r := len(k.Space)
		for _, op := range []struct {
			o          MatOperand
			rows, cols int
		}{{m.A, m.M, m.K}, {m.B, m.K, m.N}} {
			sp := append(append([]int(nil), k.Space[:r-2]...), op.rows, op.cols)
			st := append(append([]int(nil), op.o.Strides[:r-2]...), 1, 1)
			k.BytesRead += distinct(sp, st) * int64(op.o.DType.Size())
		}
	}
	space := k.Space
	if so := k.Sort(); so != nil { // the first K of each row
		space = append(append([]int(nil), space[:len(space)-1]...), so.K)
	}
	for _, s := range k.Stores {
		k.BytesWritten += distinct(space, s.Strides) * int64(s.DType.Size())
	}
	if s := k.Index(); s != nil {
		for _, a := range []IndexArg{s.X, s.Index, s.Updates} {
			k.BytesRead += int64(a.Len) * int64(a.DType.Size())
		}
		k.BytesWritten += int64(s.Out.Len) * int64(s.Out.DType.Size())
	}
	if c := k.Call(); c != nil {
		for _, a := range c.Args {
			n := int64(a.Len) * int64(a.DType.Size())
			k.BytesRead += n
			if a.Written {
				k.BytesWritten += n
			}
		}
	}
}

// unfusedBytes models one kernel per op as an eager array library runs
// it: every op except the views reads its operands (each distinct
// element once) and writes its result; a Reshape of a view it cannot
// express as strides copies; an explicit kernel call copies its written
// arguments in and runs once.
func unfusedBytes(w *walk) int64 {
	type lay struct {
		off     int
		strides []int
		base    int // elements of the buffer under the view
	}
	lays := make([]lay, len(w.nodes))
	var total int64
	calls := map[string]bool{}
	for i, n := range w.nodes {
		ds := int64(n.DType().Size())
		if l, ok := w.slotOfLayout(n); ok {
			lays[i] = lay{l.Offset, l.Strides, n.Size()}
			continue
		}
		contiguous := lay{0, n.Shape().ContiguousStrides(), n.Size()}
		switch n.Op().Class() {
		case graph.ClassView:
			in := lays[w.index[n.Input(0)]]
			st, _ := inputStep(n, 0)
			off, s, ok := st.apply(in.off, in.strides)
			if !ok {
				total += 2 * int64(n.Size()) * ds
				lays[i] = contiguous
				continue
			}
			lays[i] = lay{off, s, in.base}
			continue
		case graph.ClassLeaf:
			lays[i] = contiguous
			if n.Op() != graph.OpConst {
				total += int64(n.Size()) * ds
			}
			continue
		}
		if n.Op() == graph.OpCall {
			// An eager call, once for all its outputs: each written
			// argument copied, every argument read by the kernel (a
			// strided one after a contiguous copy), the written ones
			// written.
			lays[i] = contiguous
			if k := n.CallKey(); !calls[k] {
				calls[k] = true
				for _, a := range n.Attr().Call.Args {
					if a.Input < 0 {
						continue
					}
					x := n.Input(a.Input)
					b := int64(x.Size()) * int64(x.DType().Size())
					total += b
					if l := lays[w.index[x]]; a.Written || !contiguousOver(x.Shape(), l.strides) {
						total += 2 * b
					}
					if a.Written {
						total += b
					}
				}
			}
			continue
		}
		for _, x := range n.Inputs() {
			l := lays[w.index[x]]
			xs := int64(x.DType().Size())
			total += int64(min(x.Size(), l.base)) * xs
			if n.Op() == graph.OpMatMul {
				if _, ok := gemmOperand(x.DType(), l.off, l.strides, x.Shape()); !ok {
					total += 2 * int64(x.Size()) * xs // BLAS needs a copy
				}
			}
			if n.Op().Class() == graph.ClassIndex && !contiguousOver(x.Shape(), l.strides) {
				total += 2 * int64(x.Size()) * xs // read whole and contiguous: a copy
			}
		}
		total += int64(n.Size()) * ds
		if isScatterOp(n.Op()) {
			total += int64(n.Size()) * ds // the copy of the base, then the updates
		}
		lays[i] = contiguous
	}
	return total
}
