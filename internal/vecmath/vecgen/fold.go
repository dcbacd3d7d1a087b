// This file implements folding in flat programs. Negations: the
// negation of a constant becomes a constant, and a fused multiply-add
// that reads a negated value reads the value itself and negates its
// product or its addend instead (x86's fused negated multiply-adds and
// multiply-subtracts), so that the negation, once nothing else reads it,
// is left out. Both give the same bits: negation is exact, and the
// product and the sum are rounded once either way. Only the sign of a
// NaN passed through may differ, which the results leave open (see the
// package documentation of vecmath). Integer identities: an add, or,
// xor or shift of 0 and an and of all ones are their operand, nested
// ands of constants one and, and (x & c) == c for a one-bit c the test
// x & c != 0 (one instruction on AVX-512).

package vecgen

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// fold folds p's negations and integer identities in place and removes
// the nodes left unread.
func (p *Program) fold() {
	changed := false
	repl := map[*Node]*Node{}
	for _, n := range p.Nodes {
		for i, a := range n.Args {
			if r, ok := repl[a]; ok {
				n.Args[i] = r
			}
		}
		if r := intIdentity(n); r != nil {
			repl[n] = r
			changed = true
			continue
		}
		if foldIntBits(p, n) {
			changed = true
		}
		switch {
		case n.Op == ir.OpNeg && n.Type.IsFloat() && n.Args[0].IsConst():
			sign := uint64(1) << uint(n.Type.Bits()-1)
			*n = Node{ID: n.ID, Op: opConst, Type: n.Type, Bits: n.Args[0].Bits ^ sign}
			changed = true
		case n.Op == ir.OpFMA:
			for i := 0; i < 3; i++ {
				a := n.Args[i]
				if a.Op != ir.OpNeg || !a.Type.IsFloat() {
					continue
				}
				n.Args[i] = a.Args[0]
				if i < 2 {
					n.NegMul = !n.NegMul
				} else {
					n.NegAdd = !n.NegAdd
				}
				changed = true
			}
		}
	}
	if changed {
		if r, ok := repl[p.Out]; ok {
			p.Out = r
		}
		if r, ok := repl[p.Bail]; ok {
			p.Bail = r
		}
		p.finish()
	}
}

// intConst returns the bits of an integer constant.
func intConst(n *Node) (uint64, bool) {
	if !n.IsConst() || !n.Type.IsInt() {
		return 0, false
	}
	return n.Bits & (uint64(math.MaxUint64) >> (64 - uint(n.Type.Bits()))), true
}

// intIdentity returns the operand an integer operation gives unchanged
// (x+0, x-0, x|0, x^0, x<<0, x>>0, x&-1), or nil.
func intIdentity(n *Node) *Node {
	if !n.Type.IsInt() || len(n.Args) != 2 || n.Args[0].Type != n.Type {
		return nil
	}
	ones := uint64(math.MaxUint64) >> (64 - uint(n.Type.Bits()))
	for i, k := range []*Node{n.Args[1], n.Args[0]} {
		c, ok := intConst(k)
		if !ok || k.Type != n.Type && n.Op != ir.OpShl && n.Op != ir.OpShr {
			continue
		}
		x := n.Args[i]
		switch n.Op {
		case ir.OpAdd, ir.OpOr, ir.OpXor:
			if c == 0 {
				return x
			}
		case ir.OpSub, ir.OpShl, ir.OpShr:
			if c == 0 && i == 0 {
				return x
			}
		case ir.OpAnd:
			if c == ones {
				return x
			}
		}
	}
	return nil
}

// foldIntBits rewrites n in place: (x & c1) & c2 reads x & (c1 & c2),
// and (x & c) == c with c of one bit becomes the test x & c != 0.
func foldIntBits(p *Program, n *Node) bool {
	if n.Op == ir.OpAnd && n.Type.IsInt() {
		a, k := n.Args[0], n.Args[1]
		if a.IsConst() {
			a, k = k, a
		}
		c2, ok := intConst(k)
		if !ok || a.Op != ir.OpAnd || a.Type != n.Type {
			return false
		}
		x, k1 := a.Args[0], a.Args[1]
		if x.IsConst() {
			x, k1 = k1, x
		}
		c1, ok := intConst(k1)
		if !ok {
			return false
		}
		c := &Node{ID: len(p.Nodes), Op: opConst, Type: n.Type, Bits: c1 & c2}
		p.Nodes = append(p.Nodes, c) // constants need no place in the order
		n.Args = []*Node{x, c}
		return true
	}
	if n.Op != ir.OpCmp || n.Cmp != ir.CmpEQ || !n.Args[0].Type.IsInt() {
		return false
	}
	a, k := n.Args[0], n.Args[1]
	if a.IsConst() {
		a, k = k, a
	}
	c, ok := intConst(k)
	if !ok || a.Op != ir.OpAnd || c == 0 || c&(c-1) != 0 {
		return false
	}
	x, k2 := a.Args[0], a.Args[1]
	if x.IsConst() {
		x, k2 = k2, x
	}
	if c2, ok := intConst(k2); !ok || c2 != c || x.IsConst() {
		return false
	}
	*n = Node{ID: n.ID, Op: opTest, Type: ir.Pred, Args: []*Node{x, k2}}
	return true
}
