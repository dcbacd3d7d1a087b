// This file implements if-conversion: an expanded kernel's acyclic
// control flow becomes one straight-line program of pure nodes for
// vector code. Every block runs on every lane; a merge block's
// parameters become selects on the predicates of the edges that enter
// it. A block the target cannot compile (Payne-Hanek's 64-bit high
// products, say) is left out: the lanes that would enter it are
// collected in a bail-out predicate, and a vector with any such lane is
// computed by the portable code instead.

package vecgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// Pseudo-ops of nodes beside the IR's.
const (
	opInput = ir.Op(200 + iota) // a lane of operand Node.Index
	opConst                     // the constant Node.Bits of Node.Type
	opTest                      // the predicate Args[0] & Args[1] != 0 (a constant of one bit; see fold)
)

// Node is one value of a flat program: an IR operation on argument
// nodes, an operand, or a constant.
type Node struct {
	ID    int
	Op    ir.Op
	Type  ir.Type
	Args  []*Node
	Cmp   ir.CmpPred
	Rnd   ir.Rounding
	Fn    ir.MathFn
	Index int    // opInput: the operand
	Bits  uint64 // opConst: the bit pattern
	Uses  int    // the number of uses (after Finish)
	// NegMul and NegAdd negate the product and the addend of a fused
	// multiply-add (set by fold for negated operands).
	NegMul, NegAdd bool
	// Merge makes the operation a masked one: its last argument is a
	// predicate, and the lanes outside it keep the first argument (set
	// by mergeSelects for AVX-512).
	Merge bool
}

// IsConst reports whether n is a constant.
func (n *Node) IsConst() bool { return n.Op == opConst }

func (n *Node) String() string {
	switch n.Op {
	case opInput:
		return fmt.Sprintf("v%d = input %d :%s", n.ID, n.Index, n.Type)
	case opConst:
		return fmt.Sprintf("v%d = const %#x :%s", n.ID, n.Bits, n.Type)
	case opTest:
		return fmt.Sprintf("v%d = test v%d, v%d :%s", n.ID, n.Args[0].ID, n.Args[1].ID, n.Type)
	}
	var a []string
	for _, x := range n.Args {
		a = append(a, fmt.Sprintf("v%d", x.ID))
	}
	attr := n.attr()
	if n.Op == ir.OpCvt && n.Rnd == ir.RndDefault {
		attr = "" // the usual rounding goes unsaid
	}
	return fmt.Sprintf("v%d = %s%s %s :%s", n.ID, n.Op, attr, strings.Join(a, ", "), n.Type)
}

// attr returns the suffix of n's operation that its attribute adds: the
// comparison, the math function or the conversion's rounding (".lt",
// ".exp"); "" for operations without one.
func (n *Node) attr() string {
	switch n.Op {
	case ir.OpCmp:
		return "." + n.Cmp.String()
	case ir.OpMath:
		return "." + n.Fn.String()
	case ir.OpCvt:
		return "." + n.Rnd.String()
	}
	if n.Merge {
		return ".merge"
	}
	switch n.Op {
	case ir.OpFMA:
		return map[[2]bool]string{{true, false}: ".negmul", {false, true}: ".negadd", {true, true}: ".negmul.negadd"}[[2]bool{n.NegMul, n.NegAdd}]
	}
	return ""
}

// Program is a flat program: Nodes in an order where arguments come
// first, the result Out, and Bail, the predicate of the lanes that need
// the portable code (nil when none can).
type Program struct {
	Func  Func
	Nodes []*Node
	Out   *Node
	Bail  *Node
	In    interval // the operands' range where known (see Specialize)
}

// MaxBits returns the widest value of the program in bits (predicates
// excluded): 32 or 64.
func (p *Program) MaxBits() int {
	w := 0
	for _, n := range p.Nodes {
		if n.Type != ir.Pred {
			w = max(w, n.Type.Bits())
		}
	}
	return w
}

// flattener builds a Program.
type flattener struct {
	p       *Program
	val     map[*ir.Value]*Node
	cse     map[string]*Node
	can     func(*ir.Instr) bool
	nparams int
}

func (f *flattener) add(n *Node) *Node {
	key := ""
	{
		var sb strings.Builder
		fmt.Fprintf(&sb, "%d/%d/%d/%d/%d/%d/%d", n.Op, n.Type, n.Cmp, n.Rnd, n.Fn, n.Index, n.Bits)
		for _, a := range n.Args {
			fmt.Fprintf(&sb, ",%d", a.ID)
		}
		key = sb.String()
		if old, ok := f.cse[key]; ok {
			return old
		}
	}
	n.ID = len(f.p.Nodes)
	f.p.Nodes = append(f.p.Nodes, n)
	if key != "" {
		f.cse[key] = n
	}
	return n
}

func (f *flattener) konst(t ir.Type, bits uint64) *Node {
	return f.add(&Node{Op: opConst, Type: t, Bits: bits})
}

func (f *flattener) and(a, b *Node) *Node {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return f.add(&Node{Op: ir.OpAnd, Type: ir.Pred, Args: []*Node{a, b}})
}

func (f *flattener) or(a, b *Node) *Node {
	if a == nil || b == nil {
		return nil // one of them is every lane
	}
	if a == b {
		return a
	}
	if (a.Op == ir.OpNot && a.Args[0] == b) || (b.Op == ir.OpNot && b.Args[0] == a) {
		return nil
	}
	// (x and c) or (x and not c) is x.
	if a.Op == ir.OpAnd && b.Op == ir.OpAnd && a.Args[0] == b.Args[0] {
		if c, d := a.Args[1], b.Args[1]; (c.Op == ir.OpNot && c.Args[0] == d) || (d.Op == ir.OpNot && d.Args[0] == c) {
			return a.Args[0]
		}
	}
	return f.add(&Node{Op: ir.OpOr, Type: ir.Pred, Args: []*Node{a, b}})
}

func (f *flattener) not(a *Node) *Node {
	if a.Op == ir.OpNot {
		return a.Args[0]
	}
	return f.add(&Node{Op: ir.OpNot, Type: ir.Pred, Args: []*Node{a}})
}

// node returns the node of an IR value, ok false when it is defined in a
// block left out.
func (f *flattener) node(v *ir.Value) (*Node, bool) {
	switch v.Kind {
	case ir.ValConst:
		return f.konst(v.Type, v.Bits), true
	case ir.ValParam:
		if v.Type.IsPtr() {
			return nil, false
		}
		return f.add(&Node{Op: opInput, Type: v.Type, Index: v.Index}), true
	}
	n, ok := f.val[v]
	return n, ok
}

// Flatten if-converts the expanded kernel k of fn. can reports whether
// the target compiles an instruction; blocks with an instruction it does
// not, or that use values of such blocks, are left to the portable code
// through the bail-out predicate. Flatten fails when the result itself
// would be left out, or on control flow other than an acyclic graph laid
// out in topological order.
func Flatten(fn Func, k *ir.Func, can func(*ir.Instr) bool) (*Program, error) {
	f := &flattener{p: &Program{Func: fn}, val: map[*ir.Value]*Node{}, cse: map[string]*Node{}, can: can}
	type edgeIn struct {
		pred *Node // nil: every lane that reaches the source
		args []*Node
		dead bool // from a block left out: its lanes bail out
	}
	incoming := map[*ir.Block][]edgeIn{}
	seen := map[*ir.Block]bool{}
	reached := map[*ir.Block]bool{k.Entry(): true}
	var out *Node
	var bail *Node
	bailAll := false
	addBail := func(p *Node) {
		if p == nil {
			bailAll = true
			return
		}
		if bail == nil {
			bail = p
		} else {
			bail = f.add(&Node{Op: ir.OpOr, Type: ir.Pred, Args: []*Node{bail, p}})
		}
	}
	for _, blk := range k.Blocks {
		seen[blk] = true
		for _, s := range blk.Succs() {
			if seen[s] {
				return nil, fmt.Errorf("vecgen: %s: block %s branches back to %s", fn.Name(), blk.Name, s.Name)
			}
		}
		if !reached[blk] {
			continue
		}
		// The block's predicate and parameters.
		var pred *Node
		ins := incoming[blk]
		if blk == k.Entry() {
			pred = nil
		} else {
			if len(ins) == 0 {
				continue
			}
			// The lanes of dead edges count as entering: they bail out,
			// whatever the block computes for them.
			pred = ins[0].pred
			for _, e := range ins[1:] {
				pred = f.or(pred, e.pred)
			}
			var live []edgeIn
			for _, e := range ins {
				if !e.dead {
					live = append(live, e)
				}
			}
			if len(live) == 0 {
				addBail(pred)
				continue
			}
			for i, pv := range blk.Params {
				v := live[len(live)-1].args[i]
				for j := len(live) - 2; j >= 0; j-- {
					if live[j].pred == nil {
						v = live[j].args[i]
						continue
					}
					v = f.add(&Node{Op: ir.OpSelect, Type: pv.Type, Args: []*Node{live[j].pred, live[j].args[i], v}})
				}
				f.val[pv] = v
			}
		}
		// The instructions, unless one is out of reach.
		ok := true
		var local []*ir.Instr
		for _, in := range blk.Instrs {
			if in.Op.IsTerminator() || in.Op == ir.OpStore {
				continue
			}
			if !f.can(in) {
				ok = false
				break
			}
			local = append(local, in)
		}
		if ok {
			saved := len(f.p.Nodes)
			for _, in := range local {
				args := make([]*Node, len(in.Args))
				for i, a := range in.Args {
					n, found := f.node(a)
					if !found {
						ok = false
						break
					}
					args[i] = n
				}
				if !ok {
					break
				}
				if len(in.Results) != 1 {
					return nil, fmt.Errorf("vecgen: %s: %s has %d results", fn.Name(), in.Op, len(in.Results))
				}
				r := in.Result()
				f.val[r] = f.add(&Node{Op: in.Op, Type: r.Type, Args: args, Cmp: in.Cmp, Rnd: in.Rnd, Fn: in.Fn})
			}
			_ = saved
		}
		if !ok {
			addBail(pred)
			if t := blk.Term(); t != nil && t.Op == ir.OpBr {
				e := t.Succs[0]
				incoming[e.Block] = append(incoming[e.Block], edgeIn{pred: pred, dead: true})
				reached[e.Block] = true
			}
			continue
		}
		for _, in := range blk.Instrs {
			if in.Op == ir.OpStore {
				if pred != nil {
					return nil, fmt.Errorf("vecgen: %s: the store is conditional", fn.Name())
				}
				n, found := f.node(in.Args[1])
				if !found {
					return nil, fmt.Errorf("vecgen: %s: the result is left to the portable code", fn.Name())
				}
				out = n
			}
		}
		t := blk.Term()
		switch {
		case t == nil:
			return nil, fmt.Errorf("vecgen: %s: block %s has no terminator", fn.Name(), blk.Name)
		case t.Op == ir.OpRet:
		case t.Op == ir.OpBr || t.Op == ir.OpCondBr:
			for i, e := range t.Succs {
				ep := pred
				if t.Op == ir.OpCondBr {
					c, found := f.node(t.Args[0])
					if !found {
						return nil, fmt.Errorf("vecgen: %s: a branch condition is left out", fn.Name())
					}
					if i == 1 {
						c = f.not(c)
					}
					ep = f.and(pred, c)
				}
				args := make([]*Node, len(e.Args))
				for j, a := range e.Args {
					n, found := f.node(a)
					if !found {
						return nil, fmt.Errorf("vecgen: %s: an edge argument is left out", fn.Name())
					}
					args[j] = n
				}
				incoming[e.Block] = append(incoming[e.Block], edgeIn{pred: ep, args: args})
				reached[e.Block] = true
			}
		default:
			return nil, fmt.Errorf("vecgen: %s: unexpected terminator %s", fn.Name(), t.Op)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("vecgen: %s: no result is stored", fn.Name())
	}
	if bailAll {
		return nil, fmt.Errorf("vecgen: %s: every lane would need the portable code", fn.Name())
	}
	f.p.Out, f.p.Bail = out, bail
	f.p.finish()
	f.p.fold()
	return f.p, nil
}

// finish removes the nodes neither the result nor the bail-out predicate
// needs, renumbers the rest and counts their uses.
func (p *Program) finish() {
	live := map[*Node]bool{}
	var mark func(n *Node)
	mark = func(n *Node) {
		if n == nil || live[n] {
			return
		}
		live[n] = true
		for _, a := range n.Args {
			mark(a)
		}
	}
	mark(p.Out)
	mark(p.Bail)
	var nodes []*Node
	for _, n := range p.Nodes {
		if live[n] {
			n.ID = len(nodes)
			n.Uses = 0
			nodes = append(nodes, n)
		}
	}
	for _, n := range nodes {
		for _, a := range n.Args {
			a.Uses++
		}
	}
	p.Nodes = nodes
}

// bailFirst reorders p's nodes (stably, so that arguments still come
// first) to put the bail-out predicate and what it reads before the
// rest: the vector code tests it before computing anything else.
func (p *Program) bailFirst() {
	if p.Bail == nil {
		return
	}
	need := map[*Node]bool{}
	var mark func(n *Node)
	mark = func(n *Node) {
		if need[n] {
			return
		}
		need[n] = true
		for _, a := range n.Args {
			mark(a)
		}
	}
	mark(p.Bail)
	var first, rest []*Node
	for _, n := range p.Nodes {
		if need[n] {
			first = append(first, n)
		} else {
			rest = append(rest, n)
		}
	}
	p.Nodes = append(first, rest...)
	for i, n := range p.Nodes {
		n.ID = i
	}
}

// Census returns the distinct operation signatures of the program
// ("cvt f64->s32"), sorted: what a target must compile.
func (p *Program) Census() []string {
	set := map[string]bool{}
	for _, n := range p.Nodes {
		if n.Op == opInput || n.Op == opConst {
			continue
		}
		var ts []string
		for _, a := range n.Args {
			ts = append(ts, a.Type.String())
		}
		set[fmt.Sprintf("%s%s %s -> %s", n.Op, n.attr(), strings.Join(ts, ","), n.Type)] = true
	}
	var out []string
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
