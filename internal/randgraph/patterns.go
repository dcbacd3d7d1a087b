// Patterns: graph shapes that make the executors write buffers in place
// and reuse them, which a pool of independent random steps builds too
// rarely: epilogues on matrix products and reductions (a MatMul kernel
// runs its epilogue in place over the product, so Exp(MatMul(q, kᵀ))
// reads and writes one buffer), softmax, and chains in which an
// elementwise op reads a materialized reduction or product and feeds the
// next one (intermediates then reuse the buffers of dead ones). try draws
// one of them one time in four unless Config.NoPatterns is set.

package randgraph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// pattern adds one pattern built on a and notes its last node.
func (g *gen) pattern(a *graph.Node) (bool, error) {
	n := len(g.pool)
	ok, err := g.buildPattern(a)
	if len(g.pool) > n {
		g.tips = append(g.tips, g.pool[len(g.pool)-1])
	}
	return ok, err
}

func (g *gen) buildPattern(a *graph.Node) (bool, error) {
	switch g.r.IntN(4) {
	case 0: // an epilogue on a matrix product
		if g.cfg.NoMatMul {
			return false, nil
		}
		p, ok, err := g.product(a)
		if !ok || err != nil {
			return ok, err
		}
		return true, g.epilogue(p)
	case 1: // an epilogue on a reduction
		if g.cfg.NoReduce {
			return false, nil
		}
		if ok, err := g.reduce(a); !ok || err != nil {
			return ok, err
		}
		return true, g.epilogue(g.pool[len(g.pool)-1])
	case 2:
		if g.cfg.NoReduce {
			return false, nil
		}
		return g.softmax(a)
	}
	return g.chain(a)
}

// derive adds n, built from ins, to the pool: inexact when an input is or
// when n's op rounds as the reference does not.
func (g *gen) derive(n *graph.Node, desc string, ins ...*graph.Node) bool {
	inexact := rounds(n.Op(), n.DType())
	for _, in := range ins {
		inexact = inexact || g.inex[in]
	}
	return g.push(n, inexact, desc)
}

// product adds a matrix product of a (rank 2 or more, not bool) as a
// float32 array one time in two, with a's transpose or with a new input
// of a's dtype (when no integers, with wide values one time in two).
func (g *gen) product(a *graph.Node) (*graph.Node, bool, error) {
	s := a.Shape()
	rank := len(s)
	if rank < 2 || a.DType() == graph.Bool {
		return nil, false, nil
	}
	x, xd := a, g.name(a)
	if a.DType() != graph.Float32 && g.r.IntN(2) == 0 {
		x, xd = graph.Cast(a, graph.Float32), fmt.Sprintf("AsType(%s, float32)", xd)
	}
	b, bd, err := g.matmulRHS(x, xd, 3, x.DType)
	if err != nil {
		return nil, false, err
	}
	p := graph.MatMul(x, b)
	if !g.derive(p, fmt.Sprintf("MatMul(%s, %s)", xd, bd), a, b) {
		return nil, false, nil
	}
	return p, true, nil
}

// epilogue applies one to three elementwise ops to n, each added to the
// pool, each reading the previous one; the first is an exp-family
// function two times in three.
func (g *gen) epilogue(n *graph.Node) error {
	for i := range 1 + g.r.IntN(3) {
		var m *graph.Node
		var ok bool
		var err error
		if i == 0 && g.r.IntN(3) > 0 {
			m, ok, err = g.expOf(n)
		} else {
			m, ok, err = g.elementwise(n)
		}
		if err != nil || !ok {
			return err
		}
		n = m
	}
	return nil
}

// expOf adds an exp-family function of n, of n scaled past ±100 one time
// in two (without NoExtremes).
func (g *gen) expOf(n *graph.Node) (*graph.Node, bool, error) {
	ops := []graph.Op{graph.OpExp, graph.OpExp, graph.OpExp, graph.OpSigmoid, graph.OpSigmoid, graph.OpTanh, graph.OpExp2, graph.OpExpm1, graph.OpErf}
	op := ops[g.r.IntN(len(ops))]
	x, xd := n, g.name(n)
	if !g.cfg.NoExtremes && n.DType().IsFloat() && g.r.IntN(2) == 0 {
		s := []float64{30, -30, 120, -120}[g.r.IntN(4)]
		x = graph.Binary(graph.OpMul, n, graph.Const(graph.ScalarOf(n.DType(), s)))
		xd = fmt.Sprintf("%s*%v", xd, s)
	}
	m := graph.Unary(op, x)
	if !g.derive(m, fmt.Sprintf("%v(%s)", op, xd), n) {
		return nil, false, nil
	}
	return m, true, nil
}

// elementwise adds an elementwise op of n (an exp-family function, see
// expOf; another unary op; a binary op with n as either operand; ReLU;
// Where; a cast) and returns it.
func (g *gen) elementwise(n *graph.Node) (*graph.Node, bool, error) {
	in := g.index(n)
	var m *graph.Node
	var desc string
	ins := []*graph.Node{n}
	switch k := g.r.IntN(10); {
	case k < 3:
		return g.expOf(n)
	case k < 5:
		op := unaryOps[g.r.IntN(len(unaryOps))]
		if g.inex[n] && !g.allowed(op) {
			return nil, false, nil
		}
		m, desc = graph.Unary(op, n), fmt.Sprintf("%v(n%d)", op, in)
	case k < 7:
		op := binaryOps[g.r.IntN(len(binaryOps))]
		b, bd, err := g.partner(n)
		if err != nil || b == nil {
			return nil, false, err
		}
		if (g.inex[n] || g.inex[b]) && !g.allowed(op) {
			return nil, false, nil
		}
		ins = append(ins, b)
		if g.r.IntN(2) == 0 { // the product as the second operand
			m, desc = graph.Binary(op, b, n), fmt.Sprintf("%v(%s, n%d)", op, bd, in)
		} else {
			m, desc = graph.Binary(op, n, b), fmt.Sprintf("%v(n%d, %s)", op, in, bd)
		}
	case k < 8:
		m, desc = graph.Binary(graph.OpMax, n, graph.Const(graph.ScalarOf(n.DType(), 0))), fmt.Sprintf("Maximum(n%d, 0)", in)
	case k < 9:
		b, bd, err := g.partner(n)
		if err != nil || b == nil {
			return nil, false, err
		}
		ins = append(ins, b)
		cond := graph.Binary(graph.OpGt, n, graph.Const(graph.ScalarOf(n.DType(), 0)))
		m, desc = graph.Where(cond, n, b), fmt.Sprintf("Where(n%d > 0, n%d, %s)", in, in, bd)
	default:
		d := []graph.DType{graph.Float32, graph.Float64, graph.Int32}[g.r.IntN(3)]
		if g.inex[n] && !d.IsFloat() && g.cfg.NoPatterns {
			return nil, false, nil
		}
		m, desc = graph.Cast(n, d), fmt.Sprintf("AsType(n%d, %v)", in, d)
	}
	if !g.derive(m, desc, ins...) {
		return nil, false, nil
	}
	return m, true, nil
}

// floatOf returns a as a float array (float32 for ints and bools).
func floatOf(a *graph.Node) *graph.Node {
	if a.DType().IsFloat() {
		return a
	}
	return graph.Cast(a, graph.Float32)
}

// softmax adds exp(a - max(a)) / sum(exp(a - max(a))) over a's last
// axis, with each of the three kernels' results in the pool.
func (g *gen) softmax(a *graph.Node) (bool, error) {
	rank := len(a.Shape())
	if rank == 0 || a.Shape()[rank-1] == 0 {
		return false, nil
	}
	x := floatOf(a)
	ax := []int{rank - 1}
	in := g.index(a)
	m := graph.Reduce(graph.OpReduceMax, x, ax, true)
	if !g.derive(m, fmt.Sprintf("Max(n%d, axes %v, keep true)", in, ax), a) {
		return false, nil
	}
	e := graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, m))
	if !g.derive(e, fmt.Sprintf("Exp(n%d - n%d)", in, g.index(m)), a, m) {
		return true, nil
	}
	s := graph.Reduce(graph.OpSum, e, ax, true)
	if !g.derive(s, fmt.Sprintf("Sum(n%d, axes %v, keep true)", g.index(e), ax), e) {
		return true, nil
	}
	g.derive(graph.Binary(graph.OpDiv, e, s), fmt.Sprintf("Div(n%d, n%d)", g.index(e), g.index(s)), e, s)
	return true, nil
}

// chain alternates two to four times a materialized value (a reduction
// with keepdims, or the product of x with its transpose) and an
// elementwise op that reads it, each added to the pool.
func (g *gen) chain(a *graph.Node) (bool, error) {
	x := a
	added := false
	for range 2 + g.r.IntN(3) {
		rank := len(x.Shape())
		var t *graph.Node
		var desc string
		switch {
		case rank >= 2 && !g.cfg.NoMatMul && x.DType() != graph.Bool && g.r.IntN(3) == 0:
			t, desc = graph.MatMul(x, graph.Permute(x, SwapLast(rank))), fmt.Sprintf("MatMul(n%d, n%d transposed)", g.index(x), g.index(x))
		case rank >= 1 && !g.cfg.NoReduce:
			op := []graph.Op{graph.OpSum, graph.OpReduceMax, graph.OpReduceMin, graph.OpProd}[g.r.IntN(4)]
			ax := []int{g.r.IntN(rank)}
			t, desc = graph.Reduce(op, x, ax, true), fmt.Sprintf("%v(n%d, axes %v, keep true)", op, g.index(x), ax)
		default:
			return added, nil
		}
		if !g.derive(t, desc, x) {
			return added, nil
		}
		added = true
		var y *graph.Node
		if _, err := graph.Broadcast(x.Shape(), t.Shape()); err == nil && g.r.IntN(4) > 0 {
			op := []graph.Op{graph.OpSub, graph.OpAdd, graph.OpMul, graph.OpDiv, graph.OpMax}[g.r.IntN(5)]
			y, desc = graph.Binary(op, x, t), fmt.Sprintf("%v(n%d, n%d)", op, g.index(x), g.index(t))
			if !g.derive(y, desc, x, t) {
				return added, nil
			}
		} else {
			var ok bool
			var err error
			if y, ok, err = g.elementwise(t); err != nil || !ok {
				return added, err
			}
		}
		x = y
	}
	return added, nil
}
