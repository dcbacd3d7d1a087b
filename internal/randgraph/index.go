// The indexing ops in random graphs (Config.Indexing) and their error
// bounds: a gather moves its operand's bound
// with its elements, Put and ScatterMax (1-Lipschitz) move the bounds of
// the base and the updates, and ScatterAdd adds them plus the rounding of
// sums taken in any order: Count ulps of the sum of the magnitudes that
// meet at each element. Indices that may differ from the reference's
// have no bound.

package randgraph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// full returns e, or zeros of shape s where e is nil.
func full(e *graph.Node, s graph.Shape) *graph.Node {
	if e == nil {
		e = cst(0)
	}
	if !e.Shape().Equal(s) {
		e = graph.BroadcastTo(e, s)
	}
	return e
}

// index returns the bound of indexing node n from its inputs' bounds es.
func (b *bounder) index(n *graph.Node, es []*graph.Node) (*graph.Node, error) {
	in := n.Inputs()
	if n.Op() == graph.OpNonzero && es[0] != nil || n.Op() != graph.OpNonzero && es[1] != nil {
		return nil, fmt.Errorf("no rule for %v of indices that may differ", n.Op())
	}
	if n.Op() == graph.OpNonzero {
		return nil, nil
	}
	ax := n.Attr().Axis
	add0 := n.Op() == graph.OpScatterAdd && n.DType().IsFloat()
	if es[0] == nil && (len(es) < 3 || es[2] == nil) && !add0 {
		return nil, nil
	}
	switch n.Op() {
	case graph.OpTake:
		return graph.Take(full(es[0], in[0].Shape()), in[1], ax), nil
	case graph.OpTakeAlong:
		return graph.TakeAlong(full(es[0], in[0].Shape()), in[1], ax), nil
	case graph.OpCompress:
		return graph.Compress(full(es[0], in[0].Shape()), in[1], n.Shape()[0]), nil
	}
	base, upd := full(es[0], in[0].Shape()), full(es[2], in[2].Shape())
	switch n.Op() {
	case graph.OpScatter:
		return graph.Scatter(graph.OpScatter, base, in[1], upd, ax), nil
	case graph.OpScatterMax:
		return b.finish(n, graph.Scatter(graph.OpScatterMax, base, in[1], upd, ax), nil), nil
	}
	e := graph.Scatter(graph.OpScatterAdd, base, in[1], upd, ax)
	if add0 {
		rel, a := spacing(n.DType())
		mag := graph.Scatter(graph.OpScatterAdd, fin(in[0]), in[1], full(fin(in[2]), in[2].Shape()), ax)
		k := cst(float64(in[1].Size() + 1))
		e = add(e, mul(k, add(mul(cst(rel), add(mag, e)), cst(a))))
		return b.finish(n, e, mag), nil
	}
	return e, nil
}

// gatherIndexDTypes are the dtypes of a gather's indices.
var gatherIndexDTypes = []graph.DType{graph.Int8, graph.Int16, graph.Int32, graph.Int64, graph.Uint8, graph.Uint16, graph.Uint32, graph.Uint64}

// gatherIndices is indices of any integer dtype: in [0, n) for the
// unsigned ones, [-n, n) for the signed ones.
func (g *gen) gatherIndices(s graph.Shape, n int) (*graph.Node, error) {
	d := gatherIndexDTypes[g.r.IntN(len(gatherIndexDTypes))]
	if d == graph.Int32 || d == graph.Int64 || n > 127 {
		return g.indices(s, n)
	}
	x := graph.Input(d, s, fmt.Sprintf("in%d", len(g.c.Bound)))
	t, err := exec.NewTensor(g.alloc, d, s)
	if err != nil {
		return nil, err
	}
	lo := -n
	if d.Unsigned() {
		lo = 0
	}
	for i := range s.Size() {
		v := lo + g.r.IntN(n-lo)
		switch d {
		case graph.Int8:
			exec.Elems[int8](t)[i] = int8(v)
		case graph.Int16:
			exec.Elems[int16](t)[i] = int16(v)
		case graph.Uint8:
			exec.Elems[uint8](t)[i] = uint8(v)
		case graph.Uint16:
			exec.Elems[uint16](t)[i] = uint16(v)
		case graph.Uint32:
			exec.Elems[uint32](t)[i] = uint32(v)
		default:
			exec.Elems[uint64](t)[i] = uint64(v)
		}
	}
	g.c.Bound[x] = t
	g.push(x, false, fmt.Sprintf("%v indices in [%d, %d)", d, lo, n))
	return x, nil
}

// indices binds a new contiguous integer input of shape s (int32 or
// int64) holding indices in [-n, n), repeats included.
func (g *gen) indices(s graph.Shape, n int) (*graph.Node, error) {
	d := graph.Int64
	if g.r.IntN(2) == 0 {
		d = graph.Int32
	}
	x := graph.Input(d, s, fmt.Sprintf("in%d", len(g.c.Bound)))
	t, err := exec.NewTensor(g.alloc, d, s)
	if err != nil {
		return nil, err
	}
	for i := range s.Size() {
		v := g.r.IntN(2*n) - n
		if d == graph.Int32 {
			exec.Elems[int32](t)[i] = int32(v)
		} else {
			exec.Elems[int64](t)[i] = int64(v)
		}
	}
	g.c.Bound[x] = t
	g.push(x, false, fmt.Sprintf("Indices in [%d, %d)", -n, n))
	return x, nil
}

// indexing adds a gather or a scatter on a along a random axis, with
// fresh indices in range.
func (g *gen) indexing(a *graph.Node) (bool, error) {
	s := a.Shape()
	if len(s) == 0 {
		return false, nil
	}
	ax := g.r.IntN(len(s))
	if s[ax] == 0 {
		return false, nil
	}
	switch k := g.r.IntN(5); k {
	case 0: // Take with an index array of rank 0 to 2
		is := make(graph.Shape, g.r.IntN(3))
		for i := range is {
			is[i] = g.r.IntN(g.cfg.MaxExtent + 1)
		}
		idx, err := g.gatherIndices(is, s[ax])
		if err != nil {
			return false, err
		}
		return g.derive(graph.Take(a, idx, ax), fmt.Sprintf("Take(n%d, n%d, %d)", g.index(a), g.index(idx), ax), a), nil
	case 1: // TakeAlong with an index broadcast along some axes
		is := s.Clone()
		is[ax] = 1 + g.r.IntN(g.cfg.MaxExtent)
		for i := range is {
			if i != ax && g.r.IntN(3) == 0 {
				is[i] = 1
			}
		}
		idx, err := g.gatherIndices(is, s[ax])
		if err != nil {
			return false, err
		}
		return g.derive(graph.TakeAlong(a, idx, ax), fmt.Sprintf("TakeAlong(n%d, n%d, %d)", g.index(a), g.index(idx), ax), a), nil
	}
	// Put, ScatterAdd, ScatterMax of updates broadcast to the scattered
	// shape: a constant or a pool node that broadcasts there.
	op := []graph.Op{graph.OpScatter, graph.OpScatterAdd, graph.OpScatterMax}[g.r.IntN(3)]
	idx, err := g.indices(graph.Shape{g.r.IntN(2 * g.cfg.MaxExtent)}, s[ax])
	if err != nil {
		return false, err
	}
	us := append(append(s[:ax].Clone(), idx.Shape()...), s[ax+1:]...)
	var u *graph.Node
	for range 5 {
		if b := g.pick(); b != idx && broadcastsTo(b.Shape(), us) {
			u = b
			break
		}
	}
	if u == nil {
		u = graph.Const(graph.ScalarOf(a.DType(), float64(g.r.IntN(7)-3)))
	}
	n := graph.Scatter(op, a, idx, u, ax)
	if n.Err() != nil {
		return false, nil
	}
	desc := fmt.Sprintf("%v(n%d, n%d, %v, %d)", op, g.index(a), g.index(idx), u.Op(), ax)
	// Float sums of repeated indices may be added in any order.
	inexact := g.inex[a] || g.inex[u] || op == graph.OpScatterAdd && n.DType().IsFloat()
	return g.push(n, inexact, desc), nil
}

// broadcastsTo reports whether shape s broadcasts to t.
func broadcastsTo(s, t graph.Shape) bool {
	b, err := graph.Broadcast(s, t)
	return err == nil && b.Equal(t)
}
