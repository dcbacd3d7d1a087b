// Indexing ops, naively: Take and TakeAlong gather element by element,
// Nonzero lists the flat indices of non-zero elements, Compress copies
// the selected rows, and the scatters
// apply their updates one by one in row-major order to a copy of the
// base. Every index is checked against its axis.

package ref

import (
	"fmt"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// index computes the indexing node n from its inputs' values.
func index(n *graph.Node, ins []*exec.Tensor) (vec, error) {
	g := graph.IndexGeom(n)
	ax := n.Attr().Axis
	x := load(ins[0], ins[0].Shape)
	switch n.Op() {
	case graph.OpNonzero:
		return nonzero(x, g.Count)
	case graph.OpCompress:
		sel, err := nonzero(load(ins[1], ins[1].Shape), g.Count)
		if err != nil {
			return vec{}, err
		}
		out := vec{}
		for _, k := range sel.i {
			lo, hi := int(k)*g.Inner, (int(k)+1)*g.Inner
			if x.isFloat() {
				out.f = append(out.f, x.f[lo:hi]...)
			} else {
				out.i = append(out.i, x.i[lo:hi]...)
			}
		}
		if x.isFloat() && out.f == nil {
			out.f = []float64{}
		}
		if !x.isFloat() && out.i == nil {
			out.i = []int64{}
		}
		return out, nil
	}
	idx := load(ins[1], ins[1].Shape).i
	// at returns the normalized index k of the index array, or an error.
	at := func(k int) (int, error) {
		i := idx[k]
		if i < -int64(g.Len) || i >= int64(g.Len) {
			return 0, graph.IndexError(n.Op(), i, ax, g.Len)
		}
		if i < 0 {
			i += int64(g.Len)
		}
		return int(i), nil
	}
	switch n.Op() {
	case graph.OpTake, graph.OpTakeAlong:
		out := vec{}
		size := g.Outer * g.Count * g.Inner
		if x.isFloat() {
			out.f = make([]float64, size)
		} else {
			out.i = make([]int64, size)
		}
		for o := range g.Outer {
			for j := range g.Count {
				for in := range g.Inner {
					p := (o*g.Count+j)*g.Inner + in
					k := j
					if n.Op() == graph.OpTakeAlong {
						k = p
					}
					i, err := at(k)
					if err != nil {
						return vec{}, err
					}
					src := (o*g.Len+i)*g.Inner + in
					if x.isFloat() {
						out.f[p] = x.f[src]
					} else {
						out.i[p] = x.i[src]
					}
				}
			}
		}
		return out, nil
	}
	upd := load(ins[2], ins[2].Shape)
	for o := range g.Outer {
		for j := range g.Count {
			i, err := at(j)
			if err != nil {
				return vec{}, err
			}
			for in := range g.Inner {
				dst := (o*g.Len+i)*g.Inner + in
				src := (o*g.Count+j)*g.Inner + in
				if x.isFloat() {
					x.f[dst] = scatterCombine(n.Op(), x.f[dst], upd.f[src], maxFloat)
				} else {
					x.i[dst] = scatterCombine(n.Op(), x.i[dst], upd.i[src], func(a, b int64) int64 { return max(a, b) })
				}
			}
		}
	}
	return x, nil
}

// scatterCombine combines the element old with the update u: the sum
// for ScatterAdd, maxOf of the two for ScatterMax, u for Scatter (bool
// as 0/1 in the int lane).
func scatterCombine[T float64 | int64](op graph.Op, old, u T, maxOf func(a, b T) T) T {
	switch op {
	case graph.OpScatterAdd:
		return old + u
	case graph.OpScatterMax:
		return maxOf(old, u)
	}
	return u
}

// nonzero lists the flat indices of the non-zero elements of x, which
// must number count.
func nonzero(x vec, count int) (vec, error) {
	out := vec{i: make([]int64, 0, count)}
	if x.isFloat() {
		for k, v := range x.f {
			if v != 0 {
				out.i = append(out.i, int64(k))
			}
		}
	} else {
		for k, v := range x.i {
			if v != 0 {
				out.i = append(out.i, int64(k))
			}
		}
	}
	if len(out.i) != count {
		return vec{}, fmt.Errorf("%d non-zero elements where %d were counted", len(out.i), count)
	}
	return out, nil
}
