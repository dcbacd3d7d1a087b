// This file implements folding of negations in flat programs: the
// negation of a constant becomes a constant, and a fused multiply-add
// that reads a negated value reads the value itself and negates its
// product or its addend instead (x86's fused negated multiply-adds and
// multiply-subtracts), so that the negation, once nothing else reads it,
// is left out. Both give the same bits: negation is exact, and the
// product and the sum are rounded once either way. Only the sign of a
// NaN passed through may differ, which the results leave open (see the
// package documentation of vecmath).

package vecgen

import "github.com/fuseflow/fuseflow/codegen/ir"

// fold folds p's negations in place and removes the nodes left unread.
func (p *Program) fold() {
	changed := false
	for _, n := range p.Nodes {
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
		p.finish()
	}
}
