// The random steps: each takes nodes from the pool and adds one built
// with an elementwise op, Where, a cast, a view, a leaf, a reduction or a
// matmul.

package randgraph

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

var unaryOps = []graph.Op{
	graph.OpNeg, graph.OpAbs, graph.OpSign, graph.OpSqrt, graph.OpRsqrt, graph.OpExp, graph.OpExp2,
	graph.OpLog, graph.OpLog2, graph.OpLog1p, graph.OpExpm1, graph.OpSin, graph.OpCos, graph.OpTan,
	graph.OpTanh, graph.OpSigmoid, graph.OpErf, graph.OpFloor, graph.OpCeil, graph.OpRound,
	graph.OpTrunc, graph.OpRecip, graph.OpSquare, graph.OpIsNaN, graph.OpIsInf, graph.OpNot,
}

var binaryOps = []graph.Op{
	graph.OpAdd, graph.OpSub, graph.OpMul, graph.OpDiv, graph.OpFloorDiv, graph.OpMod, graph.OpPow,
	graph.OpMax, graph.OpMin, graph.OpAtan2, graph.OpEq, graph.OpNe, graph.OpLt, graph.OpLe,
	graph.OpGt, graph.OpGe, graph.OpAnd, graph.OpOr, graph.OpXor,
}

var reduceOps = []graph.Op{
	graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpArgMax, graph.OpArgMin,
	graph.OpAny, graph.OpAll,
}

// smooth lists the ops allowed on an inexact operand: continuous ones,
// whose result stays within a tolerance when the operand does.
var smooth = map[graph.Op]bool{
	graph.OpNeg: true, graph.OpAbs: true, graph.OpSquare: true, graph.OpTanh: true,
	graph.OpSigmoid: true, graph.OpSin: true, graph.OpCos: true, graph.OpAdd: true,
	graph.OpSub: true, graph.OpMul: true, graph.OpMax: true, graph.OpMin: true,
	graph.OpSum: true, graph.OpReduceMax: true, graph.OpReduceMin: true,
}

// noRule lists the ops whose error bound (bound.go) promises nothing
// where an operand may differ: never generated on inexact operands. Under
// NoPatterns only the smooth ops are.
var noRule = map[graph.Op]bool{
	graph.OpFloorDiv: true, graph.OpMod: true, graph.OpPow: true, graph.OpAtan2: true,
	graph.OpArgMax: true, graph.OpArgMin: true,
}

// allowed reports whether op may take an inexact operand.
func (g *gen) allowed(op graph.Op) bool {
	if g.cfg.NoPatterns {
		return smooth[op]
	}
	return !noRule[op]
}

// expFamily lists the ops whose operands the generator often scales past
// ±100 (without NoExtremes): their vector loops treat such inputs apart.
var expFamily = map[graph.Op]bool{
	graph.OpExp: true, graph.OpExp2: true, graph.OpExpm1: true, graph.OpSigmoid: true,
	graph.OpTanh: true, graph.OpErf: true,
}

// rounds reports whether op on dtype d may round differently from the
// reference (a different summation order, or a float32 Exp/Sigmoid that
// is exact only to 1 ulp).
func rounds(op graph.Op, d graph.DType) bool {
	switch op {
	case graph.OpSum, graph.OpProd, graph.OpMatMul:
		return d.IsFloat()
	case graph.OpExp, graph.OpSigmoid:
		return d == graph.Float32 || d.Narrow() && d.IsFloat()
	}
	return false
}

// step tries a few random constructions and adds the first valid one.
func (g *gen) step() error {
	for range 20 {
		ok, err := g.try()
		if err != nil || ok {
			return err
		}
	}
	return nil
}

func (g *gen) try() (bool, error) {
	a := g.pick()
	ia := g.inex[a]
	if g.cfg.Indexing && g.r.IntN(5) == 0 {
		return g.indexing(a)
	}
	if !g.cfg.NoPatterns && g.r.IntN(4) == 0 {
		return g.pattern(a)
	}
	if g.cfg.Sort && g.r.IntN(6) == 0 {
		return g.sort(a)
	}
	switch k := g.r.IntN(20); {
	case k < 5: // unary
		op := unaryOps[g.r.IntN(len(unaryOps))]
		if ia && !g.allowed(op) {
			return false, nil
		}
		desc := g.name(a)
		if !g.cfg.NoExtremes && expFamily[op] && a.DType().IsFloat() && g.r.IntN(3) == 0 {
			s := []float64{30, -30, 120, -120}[g.r.IntN(4)]
			a = graph.Binary(graph.OpMul, a, graph.Const(graph.ScalarOf(a.DType(), s)))
			desc = fmt.Sprintf("%s*%v", desc, s)
		}
		n := graph.Unary(op, a)
		return g.push(n, ia || rounds(op, n.DType()), fmt.Sprintf("%v(%s)", op, desc)), nil
	case k < 10: // binary
		op := binaryOps[g.r.IntN(len(binaryOps))]
		b, desc, err := g.partner(a)
		if err != nil || b == nil {
			return false, err
		}
		ib := g.inex[b]
		if (ia || ib) && !g.allowed(op) {
			return false, nil
		}
		n := graph.Binary(op, a, b)
		if g.r.IntN(2) == 0 {
			n = graph.Binary(op, b, a)
		}
		return g.push(n, ia || ib, fmt.Sprintf("%v(n%d, %s)", op, g.index(a), desc)), nil
	case k < 11: // where
		c := g.pick()
		if g.inex[c] && g.cfg.NoPatterns {
			return false, nil
		}
		cond := graph.Binary(graph.OpGt, c, graph.Const(graph.ScalarOf(c.DType(), 0)))
		b, desc, err := g.partner(a)
		if err != nil || b == nil {
			return false, err
		}
		n := graph.Where(cond, a, b)
		return g.push(n, ia || g.inex[b] || g.inex[c], fmt.Sprintf("Where(n%d > 0, n%d, %s)", g.index(c), g.index(a), desc)), nil
	case k < 12: // cast
		d := g.randDType()
		if ia && !d.IsFloat() && g.cfg.NoPatterns {
			return false, nil
		}
		return g.push(graph.Cast(a, d), ia, fmt.Sprintf("AsType(n%d, %v)", g.index(a), d)), nil
	case k < 15: // view
		return g.view(a)
	case k < 16: // leaf
		return g.leaf()
	case k < 19: // reduce, or one time in four a scan (not under NoPatterns, whose graphs stay those of the first version)
		if g.cfg.NoReduce {
			return false, nil
		}
		if !g.cfg.NoPatterns && g.r.IntN(4) == 0 {
			return g.scan(a)
		}
		return g.reduce(a)
	default:
		if g.cfg.NoMatMul {
			return false, nil
		}
		return g.matmul(a)
	}
}

func (g *gen) index(n *graph.Node) int {
	for i, p := range g.pool {
		if p == n {
			return i
		}
	}
	return -1
}

// name describes pool node n by its place in the pool, as "n3".
func (g *gen) name(n *graph.Node) string { return fmt.Sprintf("n%d", g.index(n)) }

// named returns n and its name, or err.
func (g *gen) named(n *graph.Node, err error) (*graph.Node, string, error) {
	if err != nil {
		return nil, "", err
	}
	return n, g.name(n), nil
}

// partner returns an operand that broadcasts with a: a pool node, a
// constant, or a new input whose shape is a's with axes set to 1 or
// dropped.
func (g *gen) partner(a *graph.Node) (*graph.Node, string, error) {
	switch g.r.IntN(3) {
	case 0:
		for range 5 {
			b := g.pick()
			if _, err := graph.Broadcast(a.Shape(), b.Shape()); err == nil {
				return b, g.name(b), nil
			}
		}
		return nil, "", nil
	case 1:
		d := g.randDType()
		v := graph.ScalarOf(d, float64(g.r.IntN(7)-3)+0.5*float64(g.r.IntN(2)))
		return graph.Const(v), fmt.Sprintf("%v(%v)", d, v), nil
	}
	s := a.Shape().Clone()
	if len(s) > 0 && g.r.IntN(2) == 0 {
		s = s[g.r.IntN(len(s)):]
	}
	for i := range s {
		if g.r.IntN(3) == 0 {
			s[i] = 1
		}
	}
	return g.named(g.input(s, g.randDType()))
}

func (g *gen) view(a *graph.Node) (bool, error) {
	s := a.Shape()
	rank := len(s)
	var n *graph.Node
	var desc string
	switch g.r.IntN(5) {
	case 0:
		p := g.r.Perm(rank)
		n, desc = graph.Permute(a, p), fmt.Sprintf("Permute(n%d, %v)", g.index(a), p)
	case 1:
		rs := make([]graph.Range, rank)
		for i, e := range s {
			r := graph.All
			switch g.r.IntN(4) {
			case 0:
				r = graph.Range{Step: -1 - g.r.IntN(2), NoStart: true, NoStop: true}
			case 1:
				r = graph.Range{Start: g.r.IntN(e + 1), Stop: e - g.r.IntN(e+1), Step: 1 + g.r.IntN(2)}
			case 2:
				r = graph.Range{Start: -1 - g.r.IntN(e+1), Step: -1, NoStop: true}
			}
			rs[i] = r
		}
		n, desc = graph.Slice(a, rs), fmt.Sprintf("Slice(n%d, %+v)", g.index(a), rs)
	case 2:
		t := s.Clone()
		for i := range t {
			if t[i] == 1 && g.r.IntN(2) == 0 {
				t[i] = 2 + g.r.IntN(3)
			}
		}
		if rank < g.cfg.MaxRank+1 && g.r.IntN(2) == 0 {
			t = append(graph.Shape{1 + g.r.IntN(3)}, t...)
		}
		n, desc = graph.BroadcastTo(a, t), fmt.Sprintf("BroadcastTo(n%d, %v)", g.index(a), t)
	case 3:
		var t graph.Shape
		switch {
		case rank >= 2 && g.r.IntN(2) == 0:
			i := g.r.IntN(rank - 1)
			t = append(append(s[:i:i].Clone(), s[i]*s[i+1]), s[i+2:]...)
		case g.r.IntN(2) == 0:
			t = graph.Shape{a.Size()}
		default:
			t = append(s.Clone(), 1)
		}
		n, desc = graph.Reshape(a, t), fmt.Sprintf("Reshape(n%d, %v)", g.index(a), t)
	default:
		if rank == 0 {
			return false, nil
		}
		ax := g.r.IntN(rank)
		rs := make([]graph.Range, ax+1)
		for i := range rs {
			rs[i] = graph.All
		}
		rs[ax] = graph.Range{Step: -1, NoStart: true, NoStop: true}
		n, desc = graph.Concat([]*graph.Node{a, graph.Slice(a, rs)}, ax), fmt.Sprintf("Concat(n%d, reversed, %d)", g.index(a), ax)
	}
	return g.push(n, g.inex[a], desc), nil
}

func (g *gen) leaf() (bool, error) {
	fl := []graph.DType{graph.Float32, graph.Float64}
	var n *graph.Node
	var desc string
	switch g.r.IntN(3) {
	case 0:
		d := []graph.DType{graph.Int32, graph.Int64, graph.Float32, graph.Float64}[g.r.IntN(4)]
		ln := g.r.IntN(g.cfg.MaxExtent + 1)
		start, step := float64(g.r.IntN(7)-3), 0.5*float64(g.r.IntN(5)-2)
		n, desc = graph.Iota(d, ln, start, step, false, 0), fmt.Sprintf("Iota(%v, %d, %v, %v)", d, ln, start, step)
	case 1:
		d := g.randDType()
		r, c, k := 1+g.r.IntN(g.cfg.MaxExtent), 1+g.r.IntN(g.cfg.MaxExtent), g.r.IntN(3)-1
		n, desc = graph.Eye(d, r, c, k), fmt.Sprintf("Eye(%v, %d, %d, %d)", d, r, c, k)
	default:
		op := []graph.Op{graph.OpRandU, graph.OpRandN}[g.r.IntN(2)]
		d := fl[g.r.IntN(2)]
		s := g.randShape()
		seed := g.r.Uint64()
		n, desc = graph.Random(op, d, s, seed), fmt.Sprintf("%v(%v, %v, %d)", op, d, s, seed)
	}
	return g.push(n, false, desc), nil
}

func (g *gen) reduce(a *graph.Node) (bool, error) {
	op := reduceOps[g.r.IntN(len(reduceOps))]
	ia := g.inex[a]
	if ia && !g.allowed(op) {
		return false, nil
	}
	rank := len(a.Shape())
	var axes []int
	switch {
	case op == graph.OpArgMax || op == graph.OpArgMin:
		if rank > 0 && g.r.IntN(3) > 0 {
			axes = []int{g.r.IntN(rank) - rank*g.r.IntN(2)}
		}
	default:
		for ax := range rank {
			if g.r.IntN(2) == 0 {
				axes = append(axes, ax)
			}
		}
	}
	keep := g.r.IntN(2) == 0
	n := graph.Reduce(op, a, axes, keep)
	return g.push(n, ia || rounds(op, a.DType()), fmt.Sprintf("%v(n%d, axes %v, keep %v)", op, g.index(a), axes, keep)), nil
}

// matmulRHS returns a right operand for a matrix product with x (rank 2
// or more, described as xd) and its description: one time in n x with
// its last two axes swapped, else a new input of dtype dt() and shape
// (x's last extent, a random extent), with x's third axis from the end
// before them one time in two.
func (g *gen) matmulRHS(x *graph.Node, xd string, n int, dt func() graph.DType) (*graph.Node, string, error) {
	s := x.Shape()
	rank := len(s)
	if g.r.IntN(n) == 0 {
		return graph.Permute(x, SwapLast(rank)), xd + " transposed", nil
	}
	bs := graph.Shape{s[rank-1], 1 + g.r.IntN(g.cfg.MaxExtent)}
	if rank > 2 && g.r.IntN(2) == 0 {
		bs = append(graph.Shape{s[rank-3]}, bs...)
	}
	return g.named(g.input(bs, dt()))
}

func (g *gen) matmul(a *graph.Node) (bool, error) {
	s := a.Shape()
	rank := len(s)
	if rank < 2 || a.DType() == graph.Bool {
		return false, nil
	}
	b, desc, err := g.matmulRHS(a, g.name(a), 2, func() graph.DType {
		return []graph.DType{graph.Int32, graph.Int64, graph.Float32, graph.Float64}[g.r.IntN(4)]
	})
	if err != nil {
		return false, err
	}
	if g.cfg.NoPatterns && (g.inex[b] || (g.inex[a] && a.DType().IsInt())) {
		return false, nil
	}
	n := graph.MatMul(a, b)
	return g.push(n, g.inex[a] || rounds(graph.OpMatMul, n.DType()), fmt.Sprintf("MatMul(n%d, %s)", g.index(a), desc)), nil
}
