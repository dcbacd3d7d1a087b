// Explicit kernel calls in a plan: the outputs of one call grouped into
// one Call kernel, each written argument's initial values stored into
// its buffer by a Map (where the work under it fuses), read-only
// arguments read in place when they are contiguous, and the kernel a
// boundary that nothing fuses into.

package fuse

import (
	"github.com/fuseflow/fuseflow/graph"
)

// callBuild is a Call kernel under construction: per argument the value
// it reads or writes (-1 for a scalar) and the element offset into it.
type callBuild struct {
	attr *graph.CallAttr
	vals []int
	offs []int
	lens []int
	dts  []graph.DType
}

// callGroups returns, per call (graph.Node.CallKey), the walk indices of
// its outputs in the walk, computed once per pass.
func (p *planner) callGroups() map[string][]int {
	if p.callNodes == nil {
		p.callNodes = map[string][]int{}
		for i, nd := range p.w.nodes {
			if nd.Op() == graph.OpCall && !p.w.isBound(nd) {
				k := nd.CallKey()
				p.callNodes[k] = append(p.callNodes[k], i)
			}
		}
	}
	return p.callNodes
}

// markRead materializes the value x that a kernel reads from a buffer,
// contiguous: the value under the view x when x is contiguous over it,
// x itself otherwise, nothing when that value is bound.
func (p *planner) markRead(x *graph.Node) {
	w := p.w
	v := p.viewOf(x)
	switch {
	case w.isBound(w.nodes[v.base]):
	case v.ok && contiguousOver(x.Shape(), v.strides):
		p.mat[v.base] = true
	default:
		p.mat[w.index[x]] = true
	}
}

// markCallInputs materializes what the calls under the outputs read:
// a read-only argument is read from a buffer, contiguous, so the value
// under it is materialized (the view itself when its layout over that
// value is not contiguous). Written arguments are not: the Map that
// stores their initial values computes them.
func (p *planner) markCallInputs() {
	w := p.w
	for _, nd := range w.nodes {
		if nd.Op() != graph.OpCall || w.isBound(nd) {
			continue
		}
		for _, a := range nd.Attr().Call.Args {
			if a.Input < 0 || a.Written {
				continue
			}
			p.markRead(nd.Input(a.Input))
		}
	}
}

// contiguousOperand returns the value x is read from and x's offset in
// it when x is a contiguous view of a value (in row-major order), else a
// contiguous copy of x (offset 0), for the boundaries that read whole
// buffers (Call, Index).
func (p *planner) contiguousOperand(x *graph.Node) (int, int, error) {
	v, off, st := p.operandLayout(x)
	if contiguousOver(x.Shape(), st) {
		return v, off, nil
	}
	v, err := p.copyOperand(x)
	return v, 0, err
}

// contiguousOver reports whether strides lay out shape s row-major
// without gaps (axes of extent 1 may have any stride).
func contiguousOver(s graph.Shape, strides []int) bool {
	want := 1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == 1 {
			continue
		}
		if s[i] != 0 && strides[i] != want {
			return false
		}
		want *= s[i]
	}
	return true
}

// buildCall adds the Call kernel of the call whose output is value i,
// once for all its outputs: Maps storing the written arguments' initial
// values (into the outputs' values, or into scratch values for outputs
// nothing reads), contiguous copies of read-only arguments that are not
// contiguous, then the call.
func (p *planner) buildCall(i int) error {
	nd := p.w.nodes[i]
	key := nd.CallKey()
	if p.callBuilt[key] {
		return nil
	}
	if p.callBuilt == nil {
		p.callBuilt = map[string]bool{}
	}
	p.callBuilt[key] = true
	c := nd.Attr().Call
	outVal := map[int]int{} // output index -> value
	for _, j := range p.callGroups()[key] {
		outVal[p.w.nodes[j].Attr().Output] = j
	}
	cb := &callBuild{attr: c, vals: make([]int, len(c.Args)), offs: make([]int, len(c.Args)),
		lens: make([]int, len(c.Args)), dts: make([]graph.DType, len(c.Args))}
	out := 0
	for ai, a := range c.Args {
		cb.vals[ai] = -1
		if a.Input < 0 {
			continue
		}
		x := nd.Input(a.Input)
		cb.lens[ai], cb.dts[ai] = x.Size(), x.DType()
		if !a.Written {
			v, off, err := p.contiguousOperand(x)
			if err != nil {
				return err
			}
			cb.vals[ai], cb.offs[ai] = v, off
			continue
		}
		v, ok := outVal[out]
		if !ok {
			v = len(p.values)
			p.values = append(p.values, value{shape: x.Shape(), dtype: x.DType(), buf: -1, label: "call scratch"})
			p.producer = append(p.producer, -1)
		}
		out++
		if _, err := p.storeCopy(x, v); err != nil {
			return err
		}
		cb.vals[ai] = v
	}
	space := graph.Shape{1}
	for _, j := range c.Written() {
		space = graph.Shape{nd.Input(c.Args[j].Input).Size()}
		break
	}
	kb := p.newKernel(KindCall, space)
	kb.call = cb
	kb.k.Fused = []graph.Op{graph.OpCall}
	for _, v := range cb.vals {
		if v >= 0 {
			kb.callVals = append(kb.callVals, v)
		}
	}
	for ai, a := range c.Args {
		if a.Written {
			p.producer[cb.vals[ai]] = kb.index
		}
	}
	return nil
}

// callSpec returns the CallSpec of a Call kernel once buffers are
// assigned.
func (p *planner) callSpec(cb *callBuild) *CallSpec {
	c := cb.attr
	cs := &CallSpec{Kernel: c.Kernel, Grid: c.Grid, Block: c.Block, SharedBytes: c.SharedBytes, ForAll: c.ForAll, Tasks: c.Tasks}
	for ai, a := range c.Args {
		arg := CallArg{Name: a.Name, Buffer: NoBuffer, Written: a.Written}
		if a.Input < 0 {
			arg.Value = a.Value
		} else {
			arg.DType, arg.Offset, arg.Len = cb.dts[ai], cb.offs[ai], cb.lens[ai]
			if b := p.values[cb.vals[ai]].buf; b >= 0 && arg.Len > 0 {
				arg.Buffer = b
			} else {
				arg.Offset = 0
			}
		}
		cs.Args = append(cs.Args, arg)
	}
	return cs
}
