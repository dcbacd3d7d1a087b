// Kernel roots: where each materialized value is computed — a Map
// (possibly shared with other values of the same shape), the epilogue of
// the Reduce or MatMul it reads, a Reduce group, a MatMul, or the pieces
// of a Concat.

package fuse

import (
	"github.com/fuseflow/fuseflow/graph"
)

// findMap returns a Map kernel over space that runs after kernel after,
// or a new one.
func (p *planner) findMap(space graph.Shape, after int) *kbuild {
	for _, kb := range p.kernels {
		if kb.k.Kind == KindMap && kb.index > after && graph.Shape(kb.k.Space).Equal(space) {
			return kb
		}
	}
	return p.newKernel(KindMap, space)
}

// buildMapRoot computes the materialized fusible value i: as the
// epilogue of the one Reduce or MatMul kernel whose results it reads at
// their own index (when its other inputs are ready before that kernel),
// or in a Map kernel over its shape. A Reshape at the root iterates over
// the shape below it (so reshaping a non-contiguous view is a copy).
func (p *planner) buildMapRoot(i int) error {
	e := p.w.nodes[i]
	if c := e.Op().Class(); c == graph.ClassUnary || c == graph.ClassBinary || c == graph.ClassWhere || c == graph.ClassCopy {
		if ok, err := p.tryEpilogue(i); ok || err != nil {
			return err
		}
	}
	s := e
	for s.Op() == graph.OpReshape {
		s = s.Input(0)
	}
	top := s == e
	kb := p.findMap(s.Shape(), p.maxProducer(p.leaves(s, top)))
	v, err := p.emit(kb, false, s, kb.xf.ident, top)
	if err != nil {
		return err
	}
	kb.stores = append(kb.stores, pstore{val: v, value: i, dtype: e.DType(), strides: s.Shape().ContiguousStrides()})
	p.producer[i] = kb.index
	return nil
}

// tryEpilogue attaches value i as an epilogue when it qualifies.
func (p *planner) tryEpilogue(i int) (bool, error) {
	e := p.w.nodes[i]
	var g *kbuild
	dep := -1
	for _, l := range p.leaves(e, true) {
		kb := p.memberOf[l.v]
		if ev, ok := p.epiOf[l.v]; ok {
			kb = ev.kb
		}
		if kb == nil {
			if l.v < len(p.producer) {
				dep = max(dep, p.producer[l.v])
			}
			continue
		}
		if (g != nil && g != kb) || !l.identity || !p.values[l.v].shape.Equal(e.Shape()) {
			return false, nil
		}
		g = kb
	}
	if g == nil || dep >= g.index {
		return false, nil
	}
	rx := p.rootXf(g, e.Shape())
	v, err := p.emit(g, true, e, rx, true)
	if err != nil {
		return false, err
	}
	off, st, err := rx.apply(0, e.Shape().ContiguousStrides())
	if err != nil {
		return false, err
	}
	g.stores = append(g.stores, pstore{val: v, value: i, dtype: e.DType(), off: off, strides: st})
	p.producer[i] = g.index
	p.epiOf[i] = epiValue{g, v}
	return true, nil
}

// rootXf returns the transform from an output of kernel g of shape s to
// its space: the identity for a MatMul, an embedding that gives the
// reduced axes stride 0 for a Reduce.
func (p *planner) rootXf(g *kbuild, s graph.Shape) *xform {
	if g.k.Kind != KindReduce {
		return g.xf.ident
	}
	red := make([]bool, len(g.k.Space))
	for _, a := range g.k.ReduceAxes {
		red[a] = true
	}
	return g.xf.child(g.xf.ident, step{kind: stepEmbed, reduced: red, keepDims: len(s) == len(g.k.Space) && len(s) > 0})
}

// buildReduce adds reduction i to a Reduce kernel over the same input
// shape and axes (one pass computes them all), or to a new one.
func (p *planner) buildReduce(i int) error {
	r := p.w.nodes[i]
	x := r.Input(0)
	sig := p.rootID(i)
	dep := p.maxProducer(p.leaves(x, false))
	var kb *kbuild
	for _, k := range p.kernels {
		if k.k.Kind == KindReduce && k.sig == sig && k.index > dep {
			kb = k
			break
		}
	}
	if kb == nil {
		kb = p.newKernel(KindReduce, x.Shape())
		kb.sig = sig
		kb.k.ReduceAxes = append([]int(nil), r.Attr().Axes...)
	}
	v, err := p.emit(kb, false, x, kb.xf.ident, false)
	if err != nil {
		return err
	}
	kb.k.Reductions = append(kb.k.Reductions, Reduction{Op: r.Op(), Value: v, DType: r.DType()})
	kb.k.Fused = append(kb.k.Fused, r.Op())
	kb.members[i] = len(kb.k.Reductions) - 1
	kb.memberN = append(kb.memberN, i)
	p.memberOf[i] = kb
	p.producer[i] = kb.index
	return nil
}

// buildMatMul adds the GEMM kernel of value i. Its operands are read
// through their views when BLAS can take the strides (see MatOperand);
// otherwise the view is materialized first (a bound operand is copied).
func (p *planner) buildMatMul(i int) error {
	m := p.w.nodes[i]
	s := m.Shape()
	r := len(s)
	var ops [2]MatOperand
	var vals [2]int
	for j, x := range m.Inputs() {
		xs := x.Shape()
		want := append(s[:r-2].Clone(), xs[len(xs)-2:]...)
		xfs := newXforms()
		xf := xfs.ident
		if !want.Equal(xs) {
			xf = xfs.child(xf, step{kind: stepBroadcast, from: xs, to: want})
		}
		b := x
		for !p.isValue(b) {
			if st, ok := inputStep(b, 0); ok {
				xf = xfs.child(xf, st)
			}
			b = b.Input(0)
		}
		v := p.w.index[b]
		off, st := p.layoutOf(v)
		off, st, err := xf.apply(off, st)
		if err != nil {
			return err
		}
		mo, ok := gemmOperand(x.DType(), off, st, want)
		if !ok {
			if !p.w.isBound(x) {
				return &forceError{node: p.w.index[x]}
			}
			v = p.copyBound(x)
			off, st, err = xf.apply(0, x.Shape().ContiguousStrides())
			if err != nil {
				return err
			}
			mo, _ = gemmOperand(x.DType(), off, st, want)
		}
		ops[j], vals[j] = mo, v
	}
	kb := p.newKernel(KindMatMul, s)
	kb.k.MatMul = &MatMulSpec{M: s[r-2], N: s[r-1], K: m.Input(0).Shape()[len(m.Input(0).Shape())-1], A: ops[0], B: ops[1]}
	kb.matVal = vals
	kb.k.Fused = append(kb.k.Fused, graph.OpMatMul)
	kb.members[i] = 0
	kb.memberN = []int{i}
	p.memberOf[i] = kb
	p.producer[i] = kb.index
	return nil
}

// copyBound adds a Map kernel copying the bound value x into a new
// contiguous value and returns that value.
func (p *planner) copyBound(x *graph.Node) int {
	v := len(p.values)
	p.values = append(p.values, value{shape: x.Shape(), dtype: x.DType(), buf: -1, label: "copy"})
	kb := p.newKernel(KindMap, x.Shape())
	xi := p.w.index[x]
	off, st := p.layoutOf(xi)
	ld := kb.push(false, Instr{Kind: InstrLoad, DType: x.DType(), Operand: kb.operand(xi, x.DType(), off, st)})
	kb.k.Fused = append(kb.k.Fused, graph.OpCopy)
	kb.stores = append(kb.stores, pstore{val: ld, value: v, dtype: x.DType(), strides: x.Shape().ContiguousStrides()})
	p.producer = append(p.producer, kb.index)
	return v
}

// gemmOperand checks that strides over (batch..., rows, cols) are a
// row-major or column-major matrix per batch point.
func gemmOperand(d graph.DType, off int, st []int, s graph.Shape) (MatOperand, bool) {
	n := len(s)
	rows, cols := s[n-2], s[n-1]
	rs, cs := st[n-2], st[n-1]
	out := MatOperand{DType: d, Offset: off, Strides: append([]int(nil), st...)}
	switch {
	case (cols <= 1 || cs == 1) && (rows <= 1 || rs >= max(cols, 1)):
		out.LD = max(cols, 1)
		if rows > 1 {
			out.LD = rs
		}
		out.Strides[n-2], out.Strides[n-1] = out.LD, 1
	case (rows <= 1 || rs == 1) && (cols <= 1 || cs >= max(rows, 1)):
		out.Trans = true
		out.LD = max(rows, 1)
		if cols > 1 {
			out.LD = cs
		}
		out.Strides[n-2], out.Strides[n-1] = 1, out.LD
	default:
		return MatOperand{}, false
	}
	return out, true
}

// buildConcat writes each piece of concatenation i into its sub-view of
// the result, each in a Map over the piece's shape.
func (p *planner) buildConcat(i int) error {
	c := p.w.nodes[i]
	ax := c.Attr().Axis
	cst := c.Shape().ContiguousStrides()
	pos := 0
	for _, x := range c.Inputs() {
		if x.Shape()[ax] == 0 {
			continue
		}
		kb := p.findMap(x.Shape(), p.maxProducer(p.leaves(x, false)))
		v, err := p.emit(kb, false, x, kb.xf.ident, false)
		if err != nil {
			return err
		}
		kb.k.Fused = append(kb.k.Fused, graph.OpConcat)
		kb.stores = append(kb.stores, pstore{val: v, value: i, dtype: c.DType(), off: pos * cst[ax], strides: cst})
		p.producer[i] = max(p.producer[i], kb.index)
		pos += x.Shape()[ax]
	}
	return nil
}

// viewChain returns the layout of view o of base b (a value or a bound
// node), folding the views between them.
func (p *planner) viewChain(o, b *graph.Node) (int, []int, error) {
	xfs := newXforms()
	xf := xfs.ident
	for n := o; n != b; n = n.Input(0) {
		if st, ok := inputStep(n, 0); ok {
			xf = xfs.child(xf, st)
		}
	}
	var off int
	var st []int
	if l, ok := p.bound[b]; ok {
		off, st = l.Offset, l.Strides
	} else {
		st = b.Shape().ContiguousStrides()
	}
	return xf.apply(off, st)
}
