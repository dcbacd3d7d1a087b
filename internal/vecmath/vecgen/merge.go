// This file implements merge masking for AVX-512: a select between an
// operation on a value and the value itself, select(p, op(x, y), x),
// becomes the operation under the mask p, whose lanes outside p keep x
// (one instruction instead of two); and x + select(p, c, 0) on integers,
// x + c under p. Each lane gets the bits the select gives.

package vecgen

import "github.com/fuseflow/fuseflow/codegen/ir"

// mergeOps are the operations lowered under a mask: binary ones on their
// first operand, and the float negation and magnitude.
var mergeOps = map[ir.Op]bool{
	ir.OpAdd: true, ir.OpSub: true, ir.OpMul: true, ir.OpAnd: true, ir.OpOr: true, ir.OpXor: true,
	ir.OpNeg: true, ir.OpAbs: true,
}

// mergeable reports whether n is an operation mergeSelects can put
// under a mask, with x as its pass-through (first) operand, and returns
// its operands in that order.
func mergeable(n, x *Node) ([]*Node, bool) {
	if !mergeOps[n.Op] || n.Merge || n.Uses != 1 || x.IsConst() || n.Type == ir.Pred || n.Type != x.Type {
		return nil, false
	}
	if (n.Op == ir.OpNeg || n.Op == ir.OpAbs) && !n.Type.IsFloat() {
		return nil, false
	}
	if (n.Op == ir.OpAnd || n.Op == ir.OpOr || n.Op == ir.OpXor || n.Op == ir.OpMul) && !n.Type.IsFloat() && n.Type.Bits() != 32 && n.Type.Bits() != 64 {
		return nil, false
	}
	switch {
	case n.Args[0] == x:
		return append([]*Node(nil), n.Args...), true
	case len(n.Args) == 2 && n.Args[1] == x && commutes[n.Op]:
		return []*Node{x, n.Args[0]}, true
	}
	return nil, false
}

// mergeSelects rewrites p's selects into masked operations (idempotent).
func (p *Program) mergeSelects() {
	changed := false
	for _, n := range p.Nodes {
		if n.Merge {
			continue
		}
		switch {
		case n.Op == ir.OpSelect && n.Type != ir.Pred:
			pred, a, x := n.Args[0], n.Args[1], n.Args[2]
			args, ok := mergeable(a, x)
			if !ok {
				continue
			}
			*n = Node{ID: n.ID, Op: a.Op, Type: n.Type, Args: append(args, pred), Merge: true}
			changed = true
		case (n.Op == ir.OpAdd || n.Op == ir.OpSub || n.Op == ir.OpOr || n.Op == ir.OpXor) && n.Type.IsInt():
			x, s := n.Args[0], n.Args[1]
			if s.Op != ir.OpSelect && commutes[n.Op] {
				x, s = s, x
			}
			if s.Op != ir.OpSelect || s.Uses != 1 || x.IsConst() || s.Args[1].Type != n.Type {
				continue
			}
			c, ok := intConst(s.Args[1])
			z, okz := intConst(s.Args[2])
			if !ok || !okz || z != 0 || c == 0 {
				continue
			}
			*n = Node{ID: n.ID, Op: n.Op, Type: n.Type, Args: []*Node{x, s.Args[1], s.Args[0]}, Merge: true}
			changed = true
		}
	}
	if changed {
		p.finish()
	}
}
