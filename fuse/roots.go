// Kernel roots: where each materialized value is computed — a Map
// (possibly shared with other values of the same shape), the epilogue of
// the Reduce or MatMul it reads, a Reduce group, a MatMul, or the pieces
// of a Concat.

package fuse

import (
	"fmt"
	"sort"

	"github.com/fuseflow/fuseflow/graph"
)

// findMap returns a Map kernel over space that runs after kernel after,
// or a new one.
func (p *planner) findMap(space graph.Shape, after int) *kbuild {
	if kb := p.firstAfter(p.maps[space.String()], after); kb != nil {
		return kb
	}
	return p.newKernel(KindMap, space)
}

// firstAfter returns the first of ks (in kernel order) whose index is
// greater than after, or nil.
func (p *planner) firstAfter(ks []*kbuild, after int) *kbuild {
	i := sort.Search(len(ks), func(i int) bool { p.work++; return ks[i].index > after })
	if i < len(ks) {
		return ks[i]
	}
	return nil
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
	if p.readsGather(e) {
		return false, nil // gathers fuse into Maps and prologues only
	}
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
	if g.kind != KindReduce {
		return g.xf.ident
	}
	red := make([]bool, len(g.k.Space))
	for _, a := range g.axes {
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
	kb := p.firstAfter(p.reduces[sig], dep)
	if kb == nil {
		kb = p.newKernel(KindReduce, x.Shape())
		kb.sig = sig
		kb.axes = append([]int(nil), r.Attr().Axes...)
		p.reduces[sig] = append(p.reduces[sig], kb)
	}
	v, err := p.emit(kb, false, x, kb.xf.ident, false)
	if err != nil {
		return err
	}
	v, rd := kb.reduceValue(r.Op(), v, x.DType())
	kb.redIn = append(kb.redIn, x.DType())
	kb.reds = append(kb.reds, Reduction{Op: r.Op(), Value: v, DType: rd})
	kb.k.Fused = append(kb.k.Fused, r.Op())
	kb.members[i] = len(kb.reds) - 1
	kb.memberN = append(kb.memberN, i)
	p.memberOf[i] = kb
	p.producer[i] = kb.index
	return nil
}

// buildMatMul adds the GEMM kernel of value i. Its operands are read
// through their views when BLAS can take the strides (see MatOperand);
// otherwise the view is copied into a contiguous value only products
// read.
// A product that reads nothing (see gemmReadsNothing) gets no operands:
// with an empty result the kernel is dropped, and with K == 0 finish
// turns it into a Map that fills the epilogue with a zero accumulator.
func (p *planner) buildMatMul(i int) error {
	m := p.w.nodes[i]
	s := m.Shape()
	r := len(s)
	ops := [2]MatOperand{}
	vals := [2]int{-1, -1}
	for j, x := range m.Inputs() {
		if gemmReadsNothing(m) {
			break
		}
		xs := x.Shape()
		want := append(s[:r-2].Clone(), xs[len(xs)-2:]...)
		xfs := newXforms()
		bx := xfs.ident // x's batch axes broadcast to the product's
		if !want.Equal(xs) {
			bx = xfs.child(bx, step{kind: stepBroadcast, from: xs, to: want})
		}
		v, off, st := p.operandLayout(x)
		off, st = p.applyXf(bx, off, st)
		mo, ok := gemmOperand(x.DType(), off, st, want)
		if !ok {
			// A copy private to the products reading x: x's other
			// readers keep reading the (possibly much smaller) value
			// under the view.
			var err error
			if v, err = p.copyOperand(x); err != nil {
				return err
			}
			if off, st, err = bx.apply(0, xs.ContiguousStrides()); err != nil {
				return err
			}
			if mo, ok = gemmOperand(x.DType(), off, st, want); !ok {
				panic(fmt.Sprintf("fuse: contiguous copy of %v %v is not a GEMM operand", xs, x.DType()))
			}
		}
		ops[j], vals[j] = mo, v
	}
	kb := p.newKernel(KindMatMul, s)
	kb.mm = &MatMulSpec{M: s[r-2], N: s[r-1], K: m.Input(0).Shape()[len(m.Input(0).Shape())-1], A: ops[0], B: ops[1]}
	kb.matVal = vals
	kb.k.Fused = append(kb.k.Fused, graph.OpMatMul)
	kb.members[i] = 0
	kb.memberN = []int{i}
	p.memberOf[i] = kb
	p.producer[i] = kb.index
	return nil
}

// operandLayout returns the value under the views of x (x itself when it
// is a value) and the layout of x over it. A Reshape on the way that the
// strides cannot express is recorded (see fail) and the layout goes on
// from a contiguous copy of it, as in applyXf. Layouts are kept per node
// for the pass, so products reading one chain of views walk it once.
func (p *planner) operandLayout(x *graph.Node) (int, int, []int) {
	w := p.w
	var chain []*graph.Node
	var cur opLayout
	for n := x; ; n = n.Input(0) {
		p.work++
		i := w.index[n]
		if l, ok := p.opLays[i]; ok {
			cur = l
			break
		}
		if p.isValue(n) {
			off, st := p.layoutOf(i)
			cur = opLayout{i, off, st}
			break
		}
		chain = append(chain, n)
	}
	if len(chain) > 0 && p.opLays == nil {
		p.opLays = map[int]opLayout{}
	}
	for k := len(chain) - 1; k >= 0; k-- {
		n := chain[k]
		if st, ok := inputStep(n, 0); ok {
			off, s, ok := st.apply(cur.off, cur.st)
			if !ok {
				p.fail(n)
				off, s = 0, n.Shape().ContiguousStrides()
			}
			cur = opLayout{cur.v, off, s}
		}
		p.opLays[w.index[n]] = cur
	}
	return cur.v, cur.off, cur.st
}

// opLayout is the layout of a GEMM operand over the value v under it.
type opLayout struct {
	v   int
	off int
	st  []int
}

// gemmReadsNothing reports whether the product m reads no element of its
// operands: its result is empty, or the contracted extent K is 0 (every
// element of the result is 0).
func gemmReadsNothing(m *graph.Node) bool {
	a := m.Input(0).Shape()
	return m.Size() == 0 || a[len(a)-1] == 0
}

// zeroProduct turns a MatMul kernel with K == 0 into the Map that
// evaluates its epilogue with the accumulator replaced by the zero of its
// dtype (an empty sum), so no MatMulSpec has an operand that reads
// nothing. Stores keep their indices (Epilogue becomes Body).
func (kb *kbuild) zeroProduct() {
	if kb.kind != KindMatMul || kb.mm.K != 0 {
		return
	}
	body := kb.epi
	for i := range body {
		if body[i].Kind == InstrAcc {
			d := body[i].DType
			body[i] = Instr{Kind: InstrConst, DType: d, Value: graph.ScalarOf(d, 0)}
		}
	}
	kb.kind, kb.body, kb.epi, kb.mm = KindMap, body, nil, nil
	kb.matVal = [2]int{-1, -1}
}

// dropEmptyReads rewrites a Reduce kernel whose reduced sub-space is
// empty: it evaluates its body at no point (each reduction is its
// identity), so the body's loads become zero constants and the operands
// only the body read are dropped. No kernel then reads a value without
// elements; such a value is never stored and has no buffer.
func (kb *kbuild) dropEmptyReads() {
	k := &kb.k
	if kb.kind != KindReduce {
		return
	}
	n := 1
	for _, a := range kb.axes {
		n *= k.Space[a]
	}
	if n != 0 {
		return
	}
	for i := range kb.body {
		if in := &kb.body[i]; in.Kind == InstrLoad || in.Kind == InstrGen || in.Kind == InstrGather {
			*in = Instr{Kind: InstrConst, DType: in.DType, Value: graph.ScalarOf(in.DType, 0)}
		}
	}
	remap := make([]int, len(k.Operands))
	for j := range remap {
		remap[j] = -1
	}
	var ops []Operand
	var vals []int
	for i := range kb.epi {
		in := &kb.epi[i]
		if in.Kind != InstrLoad && in.Kind != InstrGen {
			continue
		}
		if remap[in.Operand] < 0 {
			remap[in.Operand] = len(ops)
			ops = append(ops, k.Operands[in.Operand])
			vals = append(vals, kb.opVal[in.Operand])
		}
		in.Operand = remap[in.Operand]
	}
	k.Operands, kb.opVal, kb.opKey = ops, vals, nil
}

// copyOperand adds the computation of x (a bound value or a view of a
// value) into a new contiguous value, in a Map over x's shape, and
// returns that value; products reading the same x share it.
func (p *planner) copyOperand(x *graph.Node) (int, error) {
	if v, ok := p.copies[x]; ok {
		return v, nil
	}
	v := len(p.values)
	p.values = append(p.values, value{shape: x.Shape(), dtype: x.DType(), buf: -1, label: "copy"})
	p.producer = append(p.producer, -1)
	kb, err := p.storeCopy(x, v)
	if err != nil {
		return 0, err
	}
	p.producer[v] = kb.index
	if p.copies == nil {
		p.copies = map[*graph.Node]int{}
	}
	p.copies[x] = v
	return v, nil
}

// storeCopy adds the computation of x, stored contiguous into value v,
// to a Map over x's shape, and returns that Map.
func (p *planner) storeCopy(x *graph.Node, v int) (*kbuild, error) {
	kb := p.findMap(x.Shape(), p.maxProducer(p.leaves(x, false)))
	val, err := p.emit(kb, false, x, kb.xf.ident, false)
	if err != nil {
		return nil, err
	}
	kb.k.Fused = append(kb.k.Fused, graph.OpCopy)
	kb.stores = append(kb.stores, pstore{val: val, value: v, dtype: x.DType(), strides: x.Shape().ContiguousStrides()})
	return kb, nil
}

// gemmOperand checks that strides over (batch..., rows, cols) are a
// row-major or column-major matrix per batch point. An empty matrix has
// no elements to misplace: it is taken as row-major whatever its strides.
func gemmOperand(d graph.DType, off int, st []int, s graph.Shape) (MatOperand, bool) {
	n := len(s)
	rows, cols := s[n-2], s[n-1]
	rs, cs := st[n-2], st[n-1]
	out := MatOperand{DType: d, Offset: off, Strides: append([]int(nil), st...)}
	switch {
	case rows == 0 || cols == 0:
		out.LD = max(cols, 1)
		out.Strides[n-2], out.Strides[n-1] = out.LD, 1
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
