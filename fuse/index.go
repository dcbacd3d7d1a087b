// Indexing kernels: the compaction of a condition into flat indices
// (Nonzero, Compress) or a scatter (Put, ScatterAdd, ScatterMax) is one
// Index kernel over whole contiguous buffers. It is a
// fusion boundary: the work under its operands fuses into the kernels
// that store them (a scatter's base is stored by a Map straight into the
// result's buffer, which the kernel then updates in place), and the work
// after it reads its result from its buffer.

package fuse

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
)

// IndexArg is a contiguous operand of an Index kernel: Len elements of
// DType from element Offset of Plan.Buffers[Buffer]. An operand without
// elements may have Buffer == NoBuffer.
type IndexArg struct {
	Buffer      int
	DType       graph.DType
	Offset, Len int
}

// IndexSpec is what an Index kernel computes. Op is graph.OpNonzero,
// OpCompress, OpScatter, OpScatterAdd or OpScatterMax (Take and
// TakeAlong are never Index kernels: the planner fuses them as
// InstrGathers, see gather.go); the geometry is graph.IndexGeometry's
// (the indexed array as (Outer, Len, Inner) around axis Axis, Count
// index positions):
//
//   - OpNonzero: Out (Count int64) lists the flat indices of the non-zero
//     elements of X (Len elements, any dtype); a different number of them
//     is an error.
//   - OpCompress: Out (Count, Inner) holds the rows X[k] (X is (Len,
//     Inner)) where the condition Index[k] (Len elements of any dtype) is
//     not zero, in order; a different number of them is an error.
//   - OpScatter, OpScatterAdd, OpScatterMax: Out (Outer, Len, Inner)
//     holds the base's values when the kernel starts; for each (o, j, i)
//     in row-major order, Out[o, Index[j], i] is set to, increased by or
//     raised to Updates[o, j, i] (Updates has Out's dtype). Set keeps the
//     last update of a repeated index; Max propagates NaN.
//
// Indices are of any integer dtype; a negative one counts from the end;
// one outside [-Len, Len) makes the kernel fail with
// graph.IndexError(Op, index, Axis, Len).
//
// A scatter whose updates are one constant broadcast (Bincount's ones,
// Put of a number) has Const set to it (of Out's dtype) and no Updates
// buffer: every update is *Const, and nothing stores them first.
type IndexSpec struct {
	Op                       graph.Op
	Axis                     int
	Outer, Len, Inner, Count int
	X, Index, Updates, Out   IndexArg
	Const                    *graph.Scalar
}

// IsScatter reports whether the spec is a scatter (its Out starts with
// the base's values).
func (s *IndexSpec) IsScatter() bool {
	return s.Op == graph.OpScatter || s.Op == graph.OpScatterAdd || s.Op == graph.OpScatterMax
}

// indexBuild is an Index kernel under construction: the values of its
// operands (X, Index, Updates; -1 for none), their element offsets, and
// the value it writes.
type indexBuild struct {
	node *graph.Node
	vals [3]int
	offs [3]int
	out  int
}

// constUpdates returns the constant a scatter node's updates broadcast,
// false when they are not one constant of the node's dtype.
func constUpdates(nd *graph.Node) (graph.Scalar, bool) {
	if !isScatterOp(nd.Op()) {
		return graph.Scalar{}, false
	}
	u := nd.Input(2)
	for u.Op() == graph.OpBroadcast || u.Op() == graph.OpReshape {
		u = u.Input(0)
	}
	if u.Op() != graph.OpConst || u.DType() != nd.DType() {
		return graph.Scalar{}, false
	}
	return u.Attr().Value, true
}

// isScatterOp reports whether op is one of the scatters.
func isScatterOp(op graph.Op) bool {
	return op == graph.OpScatter || op == graph.OpScatterAdd || op == graph.OpScatterMax
}

// markIndexInputs materializes what the Index kernels under the outputs
// read, as markCallInputs does for calls: every operand but a scatter's
// base (which the Map storing it computes) is read from a buffer,
// contiguous.
func (p *planner) markIndexInputs() {
	w := p.w
	for _, nd := range w.nodes {
		if nd.Op().Class() != graph.ClassIndex || w.isBound(nd) || gatherFusible(nd) {
			continue
		}
		_, cu := constUpdates(nd)
		for j, x := range nd.Inputs() {
			if j == 0 && isScatterOp(nd.Op()) || j == 2 && cu {
				continue
			}
			p.markRead(x)
		}
	}
}

// buildIndex adds the Index kernel computing value i: for a scatter
// first a Map storing the base into the value's buffer, contiguous
// copies of operands that are not contiguous, then the kernel.
func (p *planner) buildIndex(i int) error {
	nd := p.w.nodes[i]
	ib := &indexBuild{node: nd, vals: [3]int{-1, -1, -1}, out: i}
	scatter := isScatterOp(nd.Op())
	_, cu := constUpdates(nd)
	for j, x := range nd.Inputs() {
		if j == 2 && cu {
			continue
		}
		if j == 0 && scatter {
			if _, err := p.storeCopy(x, i); err != nil {
				return err
			}
			continue
		}
		v, off, err := p.contiguousOperand(x)
		if err != nil {
			return err
		}
		ib.vals[j], ib.offs[j] = v, off
	}
	if scatter {
		// The operands are idx and upd; X is unused.
		ib.vals = [3]int{-1, ib.vals[1], ib.vals[2]}
		ib.offs = [3]int{0, ib.offs[1], ib.offs[2]}
	} else if nd.Op() == graph.OpNonzero {
		ib.vals[1], ib.offs[1] = -1, 0
	}
	space := nd.Shape()
	if len(space) == 0 {
		space = graph.Shape{1}
	}
	kb := p.newKernel(KindIndex, space)
	kb.idx = ib
	kb.k.Fused = []graph.Op{nd.Op()}
	for _, v := range ib.vals {
		if v >= 0 {
			kb.callVals = append(kb.callVals, v)
		}
	}
	kb.callVals = append(kb.callVals, i)
	kb.writes = append(kb.writes, i)
	p.producer[i] = kb.index
	return nil
}

// indexSpec returns the IndexSpec of an Index kernel once buffers are
// assigned.
func (p *planner) indexSpec(ib *indexBuild) *IndexSpec {
	nd := ib.node
	g := graph.IndexGeom(nd)
	s := &IndexSpec{Op: nd.Op(), Axis: nd.Attr().Axis, Outer: g.Outer, Len: g.Len, Inner: g.Inner, Count: g.Count}
	arg := func(v, off int, x *graph.Node) IndexArg {
		a := IndexArg{Buffer: NoBuffer, DType: x.DType(), Len: x.Size()}
		if v >= 0 && p.values[v].buf >= 0 && a.Len > 0 {
			a.Buffer, a.Offset = p.values[v].buf, off
		}
		return a
	}
	in := nd.Inputs()
	switch {
	case isScatterOp(nd.Op()):
		s.Index = arg(ib.vals[1], ib.offs[1], in[1])
		if c, ok := constUpdates(nd); ok {
			s.Const = &c
			s.Updates = IndexArg{Buffer: NoBuffer, DType: in[2].DType()}
		} else {
			s.Updates = arg(ib.vals[2], ib.offs[2], in[2])
		}
	case nd.Op() == graph.OpNonzero:
		s.X = arg(ib.vals[0], ib.offs[0], in[0])
	default:
		s.X = arg(ib.vals[0], ib.offs[0], in[0])
		s.Index = arg(ib.vals[1], ib.offs[1], in[1])
	}
	s.Out = arg(ib.out, 0, nd)
	return s
}

// explainIndex writes an Index kernel's op, geometry and operands.
func explainIndex(b *strings.Builder, s *IndexSpec) {
	fmt.Fprintf(b, "  %v axis %d outer %d len %d inner %d count %d\n", s.Op, s.Axis, s.Outer, s.Len, s.Inner, s.Count)
	if s.Const != nil {
		fmt.Fprintf(b, "  updates const %v\n", *s.Const)
	}
	for _, a := range []struct {
		name string
		a    IndexArg
	}{{"x", s.X}, {"index", s.Index}, {"updates", s.Updates}, {"out", s.Out}} {
		if a.a.Len > 0 {
			fmt.Fprintf(b, "  %s buf%d %v offset %d len %d\n", a.name, a.a.Buffer, a.a.DType, a.a.Offset, a.a.Len)
		}
	}
}
