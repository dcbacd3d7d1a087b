// This file implements the ordinary-range fast paths: a function whose
// expansion spends much of its vector on inputs few vectors hold (the
// selects of log's zeros, infinities, NaNs and subnormals; the
// saturation of sin's quadrant conversion beyond the Cody-Waite range)
// gets a second program, the expansion specialized to an interval of
// ordinary inputs. Every compare whose outcome the interval decides
// becomes a constant, the selects on it collapse to one arm, and what
// only the other arm read is left out; the conversions whose operand the
// interval bounds lose their saturation. Its bail-out predicate is the
// lanes outside the interval (NaN included), and a vector with such a
// lane is computed by the full program in the same loop (see asm.go), so
// every lane gets the full program's bits.

package vecgen

import (
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// ordinary gives the interval of ordinary inputs of the functions with a
// range fast path, by function and float type: for log and log2 the
// positive normal finite numbers; for log1p those above -1 (on float64
// below 2^1023, so that the range analysis bounds 1 + x); for sin, cos
// and tan the range of the Cody-Waite reduction, beyond which the
// expansion takes Payne-Hanek's.
var ordinary = map[Func]interval{
	{ir.MathLog, ir.F32}:   {0x1p-126, math.MaxFloat32, true},
	{ir.MathLog, ir.F64}:   {0x1p-1022, math.MaxFloat64, true},
	{ir.MathLog2, ir.F32}:  {0x1p-126, math.MaxFloat32, true},
	{ir.MathLog2, ir.F64}:  {0x1p-1022, math.MaxFloat64, true},
	{ir.MathLog1p, ir.F32}: {-1 + 0x1p-24, math.MaxFloat32, true},
	{ir.MathLog1p, ir.F64}: {-1 + 0x1p-53, 0x1p1023, true},
	{ir.MathSin, ir.F32}:   {-0x1p21, 0x1p21, true},
	{ir.MathSin, ir.F64}:   {-0x1p50, 0x1p50, true},
	{ir.MathCos, ir.F32}:   {-0x1p21, 0x1p21, true},
	{ir.MathCos, ir.F64}:   {-0x1p50, 0x1p50, true},
	{ir.MathTan, ir.F32}:   {-0x1p21, 0x1p21, true},
	{ir.MathTan, ir.F64}:   {-0x1p50, 0x1p50, true},
}

// Specialize returns p specialized to inputs in iv (the same for every
// operand; not NaN) with a bail-out predicate of the lanes outside it or
// p's own, or nil when the interval decides nothing of p or p reads a
// predicate where this pass does not fold one. p is consumed: its nodes
// are rewritten in place.
func Specialize(p *Program, iv interval) *Program {
	p.In = iv
	r := ranges(p)
	// truth holds the predicates the interval decides; repl the nodes
	// replaced by others.
	truth := map[*Node]bool{}
	repl := map[*Node]*Node{}
	decided := 0
	get := func(n *Node) *Node {
		if m, ok := repl[n]; ok {
			return m
		}
		return n
	}
	for _, n := range p.Nodes {
		for i, a := range n.Args {
			n.Args[i] = get(a)
		}
		for _, a := range n.Args {
			if _, ok := truth[a]; ok && n.Op != ir.OpSelect && n.Op != ir.OpAnd && n.Op != ir.OpOr && n.Op != ir.OpNot {
				return nil // a decided predicate read by something else
			}
		}
		switch n.Op {
		case ir.OpCmp:
			if v, ok := decideCmp(n, r); ok {
				truth[n] = v
				decided++
			}
		case ir.OpNot:
			if v, ok := truth[n.Args[0]]; ok {
				truth[n] = !v
			}
		case ir.OpAnd, ir.OpOr:
			if n.Type != ir.Pred {
				break
			}
			a, b := n.Args[0], n.Args[1]
			va, oka := truth[a]
			vb, okb := truth[b]
			and := n.Op == ir.OpAnd
			switch {
			case oka && okb:
				truth[n] = map[bool]bool{true: va && vb, false: va || vb}[and]
			case oka && va == and: // and(true, b), or(false, b)
				repl[n] = b
			case okb && vb == and:
				repl[n] = a
			case oka || okb: // and(false, _), or(true, _)
				truth[n] = !and
			}
		case ir.OpSelect:
			if v, ok := truth[n.Args[0]]; ok {
				repl[n] = map[bool]*Node{true: n.Args[1], false: n.Args[2]}[v]
			}
		}
	}
	if decided == 0 {
		return nil
	}
	p.Out = get(p.Out)
	if _, ok := truth[p.Out]; ok {
		return nil
	}
	var bail *Node
	if p.Bail != nil {
		b := get(p.Bail)
		if v, ok := truth[b]; !ok {
			bail = b
		} else if v {
			return nil // every lane of the interval bails out
		}
	}
	add := func(n *Node) *Node {
		n.ID = len(p.Nodes)
		p.Nodes = append(p.Nodes, n)
		return n
	}
	or := func(a, b *Node) *Node {
		if a == nil {
			return b
		}
		return add(&Node{Op: ir.OpOr, Type: ir.Pred, Args: []*Node{a, b}})
	}
	t := p.Func.Type
	konst := func(v float64) *Node {
		bits := math.Float64bits(v)
		if t == ir.F32 {
			bits = uint64(math.Float32bits(float32(v)))
		}
		return add(&Node{Op: opConst, Type: t, Bits: bits})
	}
	for _, n := range p.Nodes {
		if n.Op != opInput {
			continue
		}
		// Outside [lo, hi] or NaN: the unordered compares (one, of the
		// magnitude, for [-hi, hi]).
		var out *Node
		if iv.lo == -iv.hi {
			abs := add(&Node{Op: ir.OpAbs, Type: t, Args: []*Node{n}})
			out = add(&Node{Op: ir.OpCmp, Type: ir.Pred, Cmp: ir.CmpGTU, Args: []*Node{abs, konst(iv.hi)}})
		} else {
			out = add(&Node{Op: ir.OpCmp, Type: ir.Pred, Cmp: ir.CmpLTU, Args: []*Node{n, konst(iv.lo)}})
			out = or(out, add(&Node{Op: ir.OpCmp, Type: ir.Pred, Cmp: ir.CmpGTU, Args: []*Node{n, konst(iv.hi)}}))
		}
		bail = or(bail, out)
	}
	p.Bail = bail
	p.finish()
	p.fold()
	return p
}

// decideCmp returns the outcome of a float compare that the ranges of
// its operands decide (neither NaN, both bounded), ok false when they do
// not.
func decideCmp(n *Node, r map[*Node]interval) (v, ok bool) {
	a, b := r[n.Args[0]], r[n.Args[1]]
	if !n.Args[0].Type.IsFloat() || !a.known || !b.known {
		return false, false
	}
	// Neither operand is NaN: the unordered compares are the ordered ones.
	lt := a.hi < b.lo  // always a < b
	ge := a.lo >= b.hi // never a < b
	gt := a.lo > b.hi  // always a > b
	le := a.hi <= b.lo // never a > b
	ne := lt || gt     // never equal
	eq := a.lo == a.hi && b.lo == b.hi && a.lo == b.lo && a.lo != 0
	switch n.Cmp {
	case ir.CmpLT, ir.CmpLTU:
		return lt, lt || ge
	case ir.CmpGE, ir.CmpGEU:
		return ge, lt || ge
	case ir.CmpGT, ir.CmpGTU:
		return gt, gt || le
	case ir.CmpLE, ir.CmpLEU:
		return le, gt || le
	case ir.CmpEQ, ir.CmpEQU:
		return eq, ne || eq
	case ir.CmpNE, ir.CmpNEU:
		return !eq, ne || eq
	case ir.CmpNUM:
		return true, true
	case ir.CmpNAN:
		return false, true
	}
	return false, false
}
