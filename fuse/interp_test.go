// A test-only float64 interpreter of plans: every kernel kind run point
// by point over buffers that remember which elements were written, so a
// kernel that reads an element nothing wrote, or indexes outside its
// buffer, is reported instead of computing garbage.

package fuse

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// ibuf is a buffer of the interpreter: values and whether each was
// written (for an input: whether the bound view covers it).
type ibuf struct {
	v   []float64
	set []bool
}

func at(off int, st, p []int) int {
	for k, s := range st {
		off += p[k] * s
	}
	return off
}

// forEach calls f for every point of space in row-major order.
func forEach(space []int, f func(p []int)) {
	for _, e := range space {
		if e == 0 {
			return
		}
	}
	p := make([]int, len(space))
	for {
		f(p)
		k := len(space) - 1
		for k >= 0 {
			p[k]++
			if p[k] < space[k] {
				break
			}
			p[k] = 0
			k--
		}
		if k < 0 {
			return
		}
	}
}

// interp runs one plan; err holds the first fault.
type interp struct {
	p    *Plan
	bufs []*ibuf
	ki   int
	err  error
	// bad is the first bad gather index of the kernel running: the
	// smallest (instruction, position), with its value.
	bad *gatherBad
}

type gatherBad struct {
	instr, pos int
	val        int64
	in         *Instr
}

// gather evaluates the InstrGather in (instruction i) at point p with
// index value iv, recording a bad index.
func (r *interp) gather(k *Kernel, i int, in *Instr, iv float64, p []int) float64 {
	g := in.Gather
	x := int64(iv)
	if x < 0 {
		x += int64(g.Len)
	}
	if x < 0 || x >= int64(g.Len) {
		pos := at(k.Operands[g.Pos].Offset, k.Operands[g.Pos].Strides, p)
		if pos < 0 || pos >= g.Positions {
			r.fail("gather position %d outside %d", pos, g.Positions)
		}
		if e := g.At(pos); r.bufs[g.Index.Buffer].v[e] != iv {
			r.fail("gather index %v at position %d reads back as %v", iv, pos, r.bufs[g.Index.Buffer].v[e])
		}
		if b := r.bad; b == nil || i < b.instr || i == b.instr && pos < b.pos {
			r.bad = &gatherBad{instr: i, pos: pos, val: int64(iv), in: in}
		}
		return 0
	}
	o := k.Operands[in.Operand]
	return r.load(o.Buffer, at(o.Offset, o.Strides, p)+int(x)*g.Stride)
}

func (r *interp) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("kernel %d (%s): %s", r.ki, r.p.Kernels[r.ki].Name, fmt.Sprintf(format, a...))
	}
}

func (r *interp) load(b, e int) float64 {
	if b < 0 || b >= len(r.bufs) || e < 0 || e >= len(r.bufs[b].v) {
		r.fail("reads element %d of buffer %d out of bounds", e, b)
		return 0
	}
	if !r.bufs[b].set[e] {
		r.fail("reads element %d of buffer %d, which nothing wrote", e, b)
	}
	return r.bufs[b].v[e]
}

func (r *interp) store(b, e int, v float64) {
	if b < 0 || b >= len(r.bufs) || e < 0 || e >= len(r.bufs[b].v) {
		r.fail("writes element %d of buffer %d out of bounds", e, b)
		return
	}
	if r.p.Buffers[b].Kind == BufInput {
		r.fail("writes input buffer %d", b)
		return
	}
	r.bufs[b].v[e], r.bufs[b].set[e] = v, true
}

func (r *interp) evalBody(body []Instr, k *Kernel, p []int, acc []float64) []float64 {
	v := make([]float64, len(body))
	for i := range body {
		in := &body[i]
		switch in.Kind {
		case InstrLoad:
			o := k.Operands[in.Operand]
			v[i] = r.load(o.Buffer, at(o.Offset, o.Strides, p))
		case InstrConst:
			v[i] = in.Value.F
		case InstrGen:
			o := k.Operands[in.Operand]
			x, err := genValue(in.Op, in.DType, in.Gen, at(o.Offset, o.Strides, p))
			if err != nil {
				r.fail("%v", err)
			}
			v[i] = x
		case InstrAcc:
			v[i] = acc[in.Acc]
		case InstrGather:
			v[i] = r.gather(k, i, in, v[in.Args[0]], p)
		default:
			args := make([]float64, len(in.Args))
			for j, a := range in.Args {
				args[j] = v[a]
			}
			cd := in.DType
			if len(in.Args) > 0 {
				cd = body[in.Args[len(in.Args)-1]].DType
			}
			x, err := applyOp(in.Op, in.DType, cd, args)
			if err != nil {
				r.fail("%v", err)
			}
			v[i] = x
		}
	}
	return v
}

func (r *interp) stores(k *Kernel, v []float64, pt []int) {
	for _, s := range k.Stores {
		r.store(s.Buffer, at(s.Offset, s.Strides, pt), v[s.Value])
	}
}

// runPlan evaluates p with inputs given as raw buffers per slot (in
// elements; covered[i][e] tells whether the bound view of slot i holds
// element e) and returns each output in row-major order.
func runPlan(p *Plan, inputs [][]float64, covered [][]bool) ([][]float64, error) {
	r := &interp{p: p, bufs: make([]*ibuf, len(p.Buffers))}
	for i, b := range p.Buffers {
		if b.Kind == BufInput {
			r.bufs[i] = &ibuf{v: inputs[b.Slot], set: covered[b.Slot]}
			if len(inputs[b.Slot]) < b.Elems {
				return nil, fmt.Errorf("input slot %d has %d elements, buffer %d needs %d", b.Slot, len(inputs[b.Slot]), i, b.Elems)
			}
			continue
		}
		r.bufs[i] = &ibuf{v: make([]float64, b.Elems), set: make([]bool, b.Elems)}
	}
	for ki := range p.Kernels {
		r.ki = ki
		k := &p.Kernels[ki]
		switch k.Kind() {
		case KindMap:
			forEach(k.Space, func(pt []int) { r.stores(k, r.evalBody(k.Map().Body, k, pt, nil), pt) })
		case KindReduce:
			r.reduce(k)
		case KindMatMul:
			r.matmul(k)
		case KindScan:
			r.scan(k)
		default:
			r.fail("kind %v", k.Kind())
		}
		if b := r.bad; b != nil && r.err == nil {
			r.err = graph.IndexError(b.in.Op, b.val, b.in.Gather.Axis, b.in.Gather.Len)
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	outs := make([][]float64, len(p.Outputs))
	for i, o := range p.Outputs {
		vals := []float64{}
		forEach(o.Layout.Shape, func(pt []int) {
			e := at(o.Layout.Offset, o.Layout.Strides, pt)
			b := r.bufs[o.Buffer]
			if e < 0 || e >= len(b.v) || !b.set[e] {
				r.err = fmt.Errorf("output %d: element %d of buffer %d was not written", i, e, o.Buffer)
				return
			}
			vals = append(vals, b.v[e])
		})
		outs[i] = vals
	}
	return outs, r.err
}

// reduce runs a Reduce kernel: for every output point (reduced
// coordinates 0) the reductions over the reduced sub-space in row-major
// order, then the epilogue.
func (r *interp) reduce(k *Kernel) {
	red := make([]bool, len(k.Space))
	for _, a := range k.Reduce().Axes {
		red[a] = true
	}
	outSpace := append([]int(nil), k.Space...)
	var redSpace []int
	for i, e := range k.Space {
		if red[i] {
			outSpace[i] = 1
			redSpace = append(redSpace, e)
		}
	}
	if len(redSpace) == 0 {
		r.fail("no reduced axis")
		return
	}
	forEach(outSpace, func(op []int) {
		rs := make([]*reducer, len(k.Reduce().Reductions))
		for j, rd := range k.Reduce().Reductions {
			rs[j] = newReducer(rd.Op)
		}
		pt := append([]int(nil), op...)
		forEach(redSpace, func(rp []int) {
			n := 0
			for i := range pt {
				if red[i] {
					pt[i] = rp[n]
					n++
				}
			}
			v := r.evalBody(k.Reduce().Body, k, pt, nil)
			for j, rd := range k.Reduce().Reductions {
				rs[j].add(v[rd.Value])
			}
		})
		acc := make([]float64, len(k.Reduce().Reductions))
		for j, rd := range k.Reduce().Reductions {
			acc[j] = rs[j].result(rd.DType)
		}
		r.stores(k, r.evalBody(k.Reduce().Epilogue, k, op, acc), op)
	})
}

// matmul runs a MatMul kernel, accumulating in float64 and rounding to
// the operands' dtype.
func (r *interp) matmul(k *Kernel) {
	m := k.MatMul()
	rk := len(k.Space)
	forEach(k.Space, func(pt []int) {
		sum := 0.0
		pa := append([]int(nil), pt...)
		pb := append([]int(nil), pt...)
		for kk := 0; kk < m.K; kk++ {
			pa[rk-1] = kk
			pb[rk-2] = kk
			sum += r.load(m.A.Buffer, at(m.A.Offset, m.A.Strides, pa)) * r.load(m.B.Buffer, at(m.B.Offset, m.B.Strides, pb))
		}
		r.stores(k, r.evalBody(m.Epilogue, k, pt, []float64{castTo(m.A.DType, sum)}), pt)
	})
}
