// Fused gathers: a Take or TakeAlong with a non-empty result is an
// InstrGather computed inside the Map and Reduce kernels that read it,
// as XLA fuses a gather into its consumers, instead of an Index kernel
// that stores the gathered array for them to read back.
//
// What fuses: the gathered array X and the index array are read from
// buffers (each a view of a value the plan stores or is given: the
// planner stores the value under the view, never a copy of the view
// itself unless a Reshape on the way cannot be expressed as strides),
// and the gather is fused only where every element of its result is
// computed, so that every index is checked as the reference checks
// them: along paths of elementwise ops, copies, Reshapes, Permutes and
// broadcasts (never a Slice, which drops elements) ending in Map roots
// and Reduce prologues, never in an epilogue (a Reduce's, a MatMul's:
// tryEpilogue keeps such a root in a Map) or a Scan, a Concat, a call or
// another indexing op. Where that does not hold the gather is stored by
// a Map of its own (still an InstrGather, no Index kernel). Nonzero,
// Compress and the scatters stay Index kernels.

package fuse

import (
	"fmt"
	"slices"

	"github.com/fuseflow/fuseflow/graph"
)

// gatherFusible reports whether nd is a gather computed as an
// InstrGather (a Take or TakeAlong). One with an empty result reads and
// checks nothing, as in the reference: the kernels over it are empty
// and dropped.
func gatherFusible(nd *graph.Node) bool {
	return (nd.Op() == graph.OpTake || nd.Op() == graph.OpTakeAlong) && nd.Err() == nil
}

// gatherFix names the body instruction of a gather whose index
// buffer is filled in once buffers are assigned, and the value under
// its index array.
type gatherFix struct {
	instr, value int
}

// markGatherInputs materializes the values under the gathered arrays
// and index arrays of the fused gathers: the value under each view
// chain, or the input itself when a Reshape on the way cannot be
// expressed as strides.
func (p *planner) markGatherInputs() {
	w := p.w
	for _, nd := range w.nodes {
		if !gatherFusible(nd) || w.isBound(nd) {
			continue
		}
		for _, x := range nd.Inputs() {
			v := p.viewOf(x)
			switch {
			case !v.ok:
				p.mat[w.index[x]] = true
			case !w.isBound(w.nodes[v.base]):
				p.mat[v.base] = true
			}
		}
	}
}

// gatherPassOp reports whether nd reads every element of its input and
// may have a gather fused under it (fused, or as a Map root).
func gatherPassOp(nd *graph.Node) bool {
	switch nd.Op().Class() {
	case graph.ClassUnary, graph.ClassBinary, graph.ClassWhere, graph.ClassCopy:
		return true
	}
	o := nd.Op()
	return o == graph.OpReshape || o == graph.OpPermute || o == graph.OpBroadcast
}

// coverGathers materializes each fused gather that some kernel would
// read only in part, or where a gather cannot be computed (see the file
// comment): a gather stays fused when every path from it to a
// materialized value passes only through ops of gatherPassOp with
// elements and ends at a Map root of such an op or a reduction.
func (p *planner) coverGathers() {
	w := p.w
	n := len(w.nodes)
	covers := make([]bool, n) // node i, fused, is read whole by every reader
	found := false
	for _, nd := range w.nodes {
		found = found || gatherFusible(nd)
	}
	if !found {
		return
	}
	for i := n - 1; i >= 0; i-- {
		nd := w.nodes[i]
		if w.isBound(nd) || p.mat[i] {
			continue
		}
		ok := true
		for _, c := range w.consumers[i] {
			p.work++
			cn := w.nodes[c]
			switch {
			case cn.Size() == 0:
				ok = false
			case p.mat[c]:
				ok = ok && (gatherPassOp(cn) || cn.Op().Class() == graph.ClassReduce)
			default:
				ok = ok && gatherPassOp(cn) && covers[c]
			}
		}
		covers[i] = ok
		if gatherFusible(nd) && !ok {
			p.mat[i] = true
		}
	}
}

// readsGather reports whether the fused subgraph computing nd (nd
// itself included) holds a gather that is not materialized.
func (p *planner) readsGather(nd *graph.Node) bool {
	seen := map[*graph.Node]bool{}
	stack := []*graph.Node{nd}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p.work++
		if seen[n] || (n != nd && p.isValue(n)) {
			continue
		}
		seen[n] = true
		if gatherFusible(n) {
			return true
		}
		if fusible(n) {
			stack = append(stack, n.Inputs()...)
		}
	}
	return false
}

// valueView returns the value under the view chain of x (x itself
// when it is a value) and x's layout over it; ok is false when x is no
// view of a value or a Reshape on the way cannot be expressed.
func (p *planner) valueView(x *graph.Node) (v, off int, st []int, ok bool) {
	var chain []*graph.Node
	n := x
	for !p.isValue(n) {
		if n.Op().Class() != graph.ClassView {
			return 0, 0, nil, false
		}
		chain = append(chain, n)
		n = n.Input(0)
	}
	v = p.w.index[n]
	off, st = p.layoutOf(v)
	st = slices.Clone(st)
	for k := len(chain) - 1; k >= 0; k-- {
		p.work++
		if s, has := inputStep(chain[k], 0); has {
			if off, st, ok = s.apply(off, st); !ok {
				return 0, 0, nil, false
			}
		}
	}
	return v, off, st, true
}

// gather emits the fused gather n seen through xf: the load of its
// index, its position operand and the InstrGather, and returns the
// gather's value.
func (e *emitter) gather(n *graph.Node, xf *xform) int {
	p, kb := e.p, e.kb
	if e.epi || (kb.kind != KindMap && kb.kind != KindReduce) {
		panic(fmt.Sprintf("fuse: %v fused into a %v kernel's epilogue or scan", n.Op(), kb.kind))
	}
	x, idx := n.Input(0), n.Input(1)
	ax := n.Attr().Axis
	xv, xoff, xst, ok := p.valueView(x)
	iv, ioff, ist, iok := p.valueView(idx)
	if !ok || !iok {
		panic(fmt.Sprintf("fuse: the operands of %v are not views of stored values", n.Op()))
	}
	r := len(n.Shape())
	var xs []int // X's strides over n's shape, the gathered axis left out
	lift := func(st []int) []int { return slices.Clone(st) }
	if n.Op() == graph.OpTake {
		xs = make([]int, 0, r)
		xs = append(xs, xst[:ax]...)
		xs = append(xs, make([]int, len(idx.Shape()))...)
		xs = append(xs, xst[ax+1:]...)
		lift = func(st []int) []int {
			out := make([]int, r)
			copy(out[ax:], st)
			return out
		}
	} else {
		xs = slices.Clone(xst)
		xs[ax] = 0
	}
	off, st := p.applyXf(xf, ioff, lift(ist))
	load := kb.push(false, Instr{Kind: InstrLoad, DType: idx.DType(), Operand: kb.operand(iv, idx.DType(), off, st)})
	poff, pst := p.applyXf(xf, 0, lift(idx.Shape().ContiguousStrides()))
	g := &GatherAttr{
		Axis: ax, Len: x.Shape()[ax], Stride: xst[ax],
		Pos: kb.operand(-1, graph.Int64, poff, pst), Positions: idx.Size(),
		Index: IndexArg{Buffer: NoBuffer, DType: idx.DType(), Offset: ioff, Len: idx.Size()},
		Shape: idx.Shape().Clone(), Strides: ist,
	}
	xoff, xs = p.applyXf(xf, xoff, xs)
	in := Instr{Kind: InstrGather, Op: n.Op(), DType: n.DType(), Args: []int{load},
		Operand: kb.operand(xv, x.DType(), xoff, xs), Gather: g}
	kb.k.Fused = append(kb.k.Fused, n.Op())
	p.computed[p.w.index[n]]++
	i := kb.push(false, in)
	kb.gathers = append(kb.gathers, gatherFix{instr: i, value: iv})
	return i
}

// fixGathers gives kb's gathers the buffers of their index arrays.
func (p *planner) fixGathers(kb *kbuild) {
	for _, f := range kb.gathers {
		if in := &kb.body[f.instr]; in.Kind == InstrGather {
			in.Gather.Index.Buffer = p.values[f.value].buf
		}
	}
}

// gatherString describes an InstrGather for Explain.
func gatherString(in *Instr) string {
	g := in.Gather
	return fmt.Sprintf("%s op%d[%%%d] axis %d len %d stride %d pos op%d of %d (index buf%d %v offset %d strides %v)",
		map[graph.Op]string{graph.OpTake: "take", graph.OpTakeAlong: "take_along"}[in.Op], in.Operand, in.Args[0],
		g.Axis, g.Len, g.Stride, g.Pos, g.Positions, g.Index.Buffer, g.Index.DType, g.Index.Offset, g.Strides)
}
