// A test-only naive evaluator of graphs: each node into a dense row-major
// float64 array, op by op, with no plan involved — the oracle the plan
// interpreter is compared with.

package fuse

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// evalGraph evaluates n naively into a dense row-major array; vals holds
// the values of bound nodes and caches the others.
func evalGraph(n *graph.Node, vals map[*graph.Node][]float64) ([]float64, error) {
	if v, ok := vals[n]; ok {
		return v, nil
	}
	ins := make([][]float64, len(n.Inputs()))
	for i, x := range n.Inputs() {
		v, err := evalGraph(x, vals)
		if err != nil {
			return nil, err
		}
		ins[i] = v
	}
	out, err := evalNode(n, ins)
	if err != nil {
		return nil, fmt.Errorf("%v %v %v: %w", n.Op(), n.Shape(), n.DType(), err)
	}
	vals[n] = out
	return out, nil
}

// broadcastIndex returns the row-major index in x (of shape xs) of point
// pt of the broadcast shape of rank len(pt).
func broadcastIndex(xs graph.Shape, pt []int) int {
	st := xs.ContiguousStrides()
	d := len(pt) - len(xs)
	o := 0
	for i := range xs {
		if xs[i] != 1 {
			o += pt[i+d] * st[i]
		}
	}
	return o
}

func evalNode(n *graph.Node, ins [][]float64) ([]float64, error) {
	s := n.Shape()
	out := make([]float64, s.Size())
	a := n.Attr()
	var err error
	switch c := n.Op().Class(); {
	case n.Op() == graph.OpConst:
		out[0] = a.Value.F
	case c == graph.ClassLeaf:
		g := &GenAttr{Start: a.Start, Step: a.Step, Stop: a.Stop, HasStop: a.HasStop, K: a.K, Seed: a.Seed}
		if n.Op() == graph.OpIota {
			g.Len = s[0]
		}
		if n.Op() == graph.OpEye {
			g.Cols = s[1]
		}
		for i := range out {
			if out[i], err = genValue(n.Op(), n.DType(), g, i); err != nil {
				return nil, err
			}
		}
	case n.Op().IsElementwise() || c == graph.ClassCopy || n.Op() == graph.OpBroadcast:
		cd := n.DType()
		if len(n.Inputs()) > 0 {
			cd = n.Input(len(n.Inputs()) - 1).DType()
		}
		j := 0
		args := make([]float64, len(ins))
		forEach(s, func(pt []int) {
			for i, x := range n.Inputs() {
				args[i] = ins[i][broadcastIndex(x.Shape(), pt)]
			}
			if c == graph.ClassCopy || n.Op() == graph.OpBroadcast {
				out[j] = args[0]
			} else if v, e := applyOp(n.Op(), n.DType(), cd, args); e != nil {
				err = e
			} else {
				out[j] = v
			}
			j++
		})
	case n.Op() == graph.OpReshape:
		copy(out, ins[0])
	case n.Op() == graph.OpPermute || n.Op() == graph.OpSlice:
		st := n.Input(0).Shape().ContiguousStrides()
		j := 0
		forEach(s, func(pt []int) {
			o := 0
			for i := range pt {
				if n.Op() == graph.OpPermute {
					o += pt[i] * st[a.Perm[i]]
				} else {
					o += (a.Slices[i].Start + pt[i]*a.Slices[i].Step) * st[i]
				}
			}
			out[j] = ins[0][o]
			j++
		})
	case n.Op() == graph.OpConcat:
		outer := 1
		for _, e := range s[:a.Axis] {
			outer *= e
		}
		j := 0
		for o := 0; o < outer; o++ {
			for i, x := range n.Inputs() {
				blk := x.Size() / max(outer, 1)
				j += copy(out[j:], ins[i][o*blk:(o+1)*blk])
			}
		}
	case c == graph.ClassReduce:
		err = naiveReduce(n, ins[0], out)
	case n.Op() == graph.OpMatMul:
		naiveMatMul(n, ins[0], ins[1], out)
	case c == graph.ClassScan:
		naiveScan(n, ins[0], out)
	case n.Op() == graph.OpTake || n.Op() == graph.OpTakeAlong:
		err = naiveGather(n, ins[0], ins[1], out)
	default:
		return nil, fmt.Errorf("naive evaluator: no op %v", n.Op())
	}
	return out, err
}

// naiveReduce groups the elements of x by output point (row-major over
// the kept axes, each group in row-major order) and reduces each group
// as a whole.
func naiveReduce(n *graph.Node, x, out []float64) error {
	xs := n.Input(0).Shape()
	red := map[int]bool{}
	for _, ax := range n.Attr().Axes {
		red[ax] = true
	}
	groups := make([][]float64, len(out))
	i := 0
	forEach(xs, func(pt []int) {
		key := 0
		for k, e := range xs {
			if !red[k] {
				key = key*e + pt[k]
			}
		}
		groups[key] = append(groups[key], x[i])
		i++
	})
	for g, vs := range groups {
		r, err := reduceAll(n.Op(), vs)
		if err != nil {
			return err
		}
		out[g] = castTo(n.DType(), r)
	}
	return nil
}

// reduceAll reduces vs at once: NaN propagates through Max and Min, and
// ArgMax/ArgMin give the first NaN, else the first extreme value.
func reduceAll(op graph.Op, vs []float64) (float64, error) {
	switch op {
	case graph.OpSum, graph.OpProd:
		r := b2f(op == graph.OpProd)
		for _, v := range vs {
			if op == graph.OpSum {
				r += v
			} else {
				r *= v
			}
		}
		return r, nil
	case graph.OpAny, graph.OpAll:
		n := 0
		for _, v := range vs {
			if v != 0 {
				n++
			}
		}
		if op == graph.OpAny {
			return b2f(n > 0), nil
		}
		return b2f(n == len(vs)), nil
	}
	if len(vs) == 0 {
		return 0, fmt.Errorf("%v of an empty selection", op)
	}
	best := 0
	for k, v := range vs {
		if math.IsNaN(v) {
			best = k
			break
		}
		if op == graph.OpReduceMax || op == graph.OpArgMax {
			if v > vs[best] {
				best = k
			}
		} else if v < vs[best] {
			best = k
		}
	}
	switch op {
	case graph.OpReduceMax, graph.OpReduceMin:
		return vs[best], nil
	case graph.OpArgMax, graph.OpArgMin:
		return float64(best), nil
	}
	return 0, fmt.Errorf("naive evaluator: no reduction %v", op)
}

// naiveMatMul multiplies with broadcast batch axes, accumulating in
// float64 and rounding to the result's dtype.
func naiveMatMul(n *graph.Node, A, B, out []float64) {
	s := n.Shape()
	as, bs := n.Input(0).Shape(), n.Input(1).Shape()
	r := len(s)
	K := as[len(as)-1]
	forEach(s, func(pt []int) {
		pa := append(append([]int(nil), pt[:r-2]...), pt[r-2], 0)
		pb := append(append([]int(nil), pt[:r-2]...), 0, pt[r-1])
		sum := 0.0
		for k := 0; k < K; k++ {
			pa[r-1], pb[r-2] = k, k
			sum += A[broadcastIndex(as, pa)] * B[broadcastIndex(bs, pb)]
		}
		out[at(0, s.ContiguousStrides(), pt)] = castTo(n.DType(), sum)
	})
}

// naiveGather computes a Take or TakeAlong element by element in
// row-major order of the result, failing at the first bad index.
func naiveGather(n *graph.Node, x, idx, out []float64) error {
	g := graph.IndexGeom(n)
	for o := range g.Outer {
		for j := range g.Count {
			for in := range g.Inner {
				p := (o*g.Count+j)*g.Inner + in
				k := j
				if n.Op() == graph.OpTakeAlong {
					k = p
				}
				i := int64(idx[k])
				if i < -int64(g.Len) || i >= int64(g.Len) {
					return graph.IndexError(n.Op(), i, n.Attr().Axis, g.Len)
				}
				if i < 0 {
					i += int64(g.Len)
				}
				out[p] = x[(o*g.Len+int(i))*g.Inner+in]
			}
		}
	}
	return nil
}
