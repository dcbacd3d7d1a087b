// Kernel construction: the scalar expression DAG of a kernel, emitted
// from the graph with every view folded into operand strides.

package fuse

import (
	"fmt"
	"strconv"

	"github.com/fuseflow/fuseflow/graph"
)

// kbuild is a kernel under construction.
type kbuild struct {
	// k holds what every kind has; the kind's own part is drafted in
	// the fields below and becomes k.Spec when the plan is finished.
	k    Kernel
	kind Kind
	// body is a Map's Body or a Reduce's prologue; epi the Epilogue of a
	// Reduce or MatMul; axes and reds a Reduce's Axes and Reductions; mm
	// a MatMul's product.
	body, epi []Instr
	axes      []int
	reds      []Reduction
	mm        *MatMulSpec
	scan      *ScanSpec // a Scan's spec, without its bodies
	index     int
	xf        *xforms
	memo      map[memoKey]int // Body
	ememo     map[memoKey]int // Epilogue
	opKey     map[string]int
	opVal     []int // per operand: the value read, or -1 (generated)
	stores    []pstore
	// members are the values a Reduce or MatMul kernel computes itself:
	// value -> InstrAcc index.
	members map[int]int
	memberN []int // members in acc order
	// redIn is the dtype of each reduction's value before the casts
	// to the lane it runs in (see narrow.go).
	redIn  []graph.DType
	sig    string
	matVal [2]int
	// call (KindCall) is the call; callVals the values it reads or
	// writes.
	call     *callBuild
	callVals []int
	// idx (KindIndex) is the indexing op; writes the values its kernel
	// stores without a Store (its result).
	idx    *indexBuild
	writes []int
	// sort (KindSort) is the sort's spec; sortPerm lists the input's
	// axes in Space order.
	sort     *SortSpec
	sortPerm []int
	// gathers are the InstrGathers of body (see gatherFix).
	gathers []gatherFix
}

type memoKey struct {
	n  *graph.Node
	xf int
}

// pstore is a store whose buffer is not assigned yet.
type pstore struct {
	val     int // index in Body (Map) or Epilogue
	value   int
	dtype   graph.DType
	off     int
	strides []int
}

func (p *planner) newKernel(kind Kind, space graph.Shape) *kbuild {
	kb := &kbuild{
		k: Kernel{Space: space.Clone()}, kind: kind,
		index: len(p.kernels), xf: newXforms(),
		memo: map[memoKey]int{}, ememo: map[memoKey]int{}, opKey: map[string]int{},
		members: map[int]int{}, matVal: [2]int{-1, -1},
	}
	p.kernels = append(p.kernels, kb)
	if kind == KindMap {
		k := space.String()
		p.maps[k] = append(p.maps[k], kb)
	}
	return kb
}

// operand returns the index of the operand reading value v (-1:
// generated) with the given layout, adding it once.
func (kb *kbuild) operand(v int, d graph.DType, off int, strides []int) int {
	b := make([]byte, 0, 32)
	b = strconv.AppendInt(b, int64(v), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(d), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(off), 10)
	for _, s := range strides {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s), 10)
	}
	k := string(b)
	if i, ok := kb.opKey[k]; ok {
		return i
	}
	i := len(kb.k.Operands)
	kb.k.Operands = append(kb.k.Operands, Operand{Buffer: NoBuffer, DType: d, Offset: off, Strides: strides})
	kb.opVal = append(kb.opVal, v)
	kb.opKey[k] = i
	return i
}

func (kb *kbuild) push(epi bool, in Instr) int {
	if epi {
		kb.epi = append(kb.epi, in)
		return len(kb.epi) - 1
	}
	kb.body = append(kb.body, in)
	return len(kb.body) - 1
}

// layoutOf returns the layout of a materialized or bound value.
func (p *planner) layoutOf(v int) (int, []int) {
	if v < len(p.w.nodes) {
		if l, ok := p.bound[p.w.nodes[v]]; ok {
			return l.Offset, l.Strides
		}
	}
	return 0, p.values[v].shape.ContiguousStrides()
}

// isValue reports whether nd is read from a buffer rather than computed
// where it is used.
func (p *planner) isValue(nd *graph.Node) bool {
	return p.w.isBound(nd) || p.mat[p.w.index[nd]]
}

// emit adds the instructions computing nd, seen through xf, to the Body
// (or the Epilogue with epi) of kb and returns the index of its value.
// With top nd itself is computed even when it is materialized (it is the
// kernel's root). It walks the fused subgraph with a stack of its own, so
// a chain of any depth is fine, and emits each node once per transform
// (memo).
func (p *planner) emit(kb *kbuild, epi bool, nd *graph.Node, xf *xform, top bool) (int, error) {
	e := emitter{p: p, kb: kb, epi: epi, memo: kb.memo}
	if epi {
		e.memo = kb.ememo
	}
	v, done := e.visit(nd, xf, top)
	for !done {
		v, done = e.step()
	}
	return v, nil
}

// emitter is the state of one emit: frames of the nodes whose inputs are
// being emitted, and the value of the input emitted last.
type emitter struct {
	p     *planner
	kb    *kbuild
	epi   bool
	memo  map[memoKey]int
	stack []emitFrame
	last  int
}

type emitFrame struct {
	nd   *graph.Node
	xf   *xform
	key  memoKey
	next int // inputs visited
	args []int
}

// visit emits n seen through xf when it reads nothing to emit first, or
// pushes its frame; done reports the first case, with its value.
func (e *emitter) visit(n *graph.Node, xf *xform, top bool) (int, bool) {
	p, kb := e.p, e.kb
	p.work++
	key := memoKey{n, xf.sid}
	if !top {
		if i, ok := e.memo[key]; ok {
			return i, true
		}
	}
	in := Instr{DType: n.DType()}
	switch {
	case !top && p.isValue(n):
		v := p.w.index[n]
		if acc, ok := kb.members[v]; ok && e.epi {
			i := kb.pushAcc(acc, n.DType())
			e.memo[key] = i
			return i, true
		}
		if ev, ok := p.epiOf[v]; ok && e.epi && ev.kb == kb {
			e.memo[key] = ev.val
			return ev.val, true
		}
		off, st := p.layoutOf(v)
		off, st = p.applyXf(xf, off, st)
		in.Kind, in.Operand = InstrLoad, kb.operand(v, n.DType(), off, st)
	case gatherFusible(n):
		i := e.gather(n, xf)
		e.memo[key] = i
		return i, true
	case n.Op() == graph.OpConst:
		in.Kind, in.Value = InstrConst, n.Attr().Value
	case n.Op().Class() == graph.ClassLeaf: // Iota, Eye, RandU, RandN
		off, st := p.applyXf(xf, 0, n.Shape().ContiguousStrides())
		a := n.Attr()
		g := &GenAttr{Start: a.Start, Step: a.Step, Stop: a.Stop, HasStop: a.HasStop, K: a.K, Seed: a.Seed}
		switch n.Op() {
		case graph.OpIota:
			g.Len = n.Shape()[0]
		case graph.OpEye:
			g.Cols = n.Shape()[1]
		}
		in.Kind, in.Op, in.Gen = InstrGen, n.Op(), g
		in.Operand = kb.operand(-1, genDType(n.Op(), n.DType()), off, st)
		kb.k.Fused = append(kb.k.Fused, n.Op())
		p.computed[p.w.index[n]]++
		i := kb.pushGen(e.epi, in)
		e.memo[key] = i
		return i, true
	case n.Op().Class() == graph.ClassView || n.Op() == graph.OpCopy || n.Op().IsElementwise():
		e.stack = append(e.stack, emitFrame{nd: n, xf: xf, key: key})
		return 0, false
	default:
		panic(fmt.Sprintf("fuse: %v is not materialized where it is read", n.Op()))
	}
	i := kb.push(e.epi, in)
	e.memo[key] = i
	return i, true
}

// step advances the frame on top of the stack: it takes the value of the
// input emitted last, visits the next input, or, with every input
// emitted, emits the frame's node. done reports that the stack is empty,
// with the value of the node emit was called for.
func (e *emitter) step() (int, bool) {
	e.p.work++
	f := &e.stack[len(e.stack)-1]
	n := f.nd
	view := n.Op().Class() == graph.ClassView || n.Op() == graph.OpCopy
	if f.next > 0 {
		f.args = append(f.args, e.last)
	}
	if f.next < len(n.Inputs()) && !(view && f.next > 0) {
		j := f.next
		f.next++
		cx := f.xf
		if s, ok := inputStep(n, j); ok {
			cx = e.kb.xf.child(f.xf, s)
		}
		if v, done := e.visit(n.Input(j), cx, false); done {
			e.last = v
		}
		return 0, false
	}
	fr := *f
	e.stack = e.stack[:len(e.stack)-1]
	kb := e.kb
	kb.k.Fused = append(kb.k.Fused, n.Op())
	if view {
		e.last = fr.args[0]
	} else {
		e.p.computed[e.p.w.index[n]]++
		e.last = kb.pushOp(e.epi, n, fr.args)
	}
	e.memo[fr.key] = e.last
	return e.last, len(e.stack) == 0
}

// leaf is a materialized or bound value a fused subgraph reads; identity
// is true when every path to it goes through same-shape elementwise ops
// only (it is read at the root's own index).
type leaf struct {
	v        int
	identity bool
}

// leaves returns the values the fused subgraph of nd reads (nd itself
// when it is a value and not top).
func (p *planner) leaves(nd *graph.Node, top bool) []leaf {
	type st struct {
		n  *graph.Node
		id bool
	}
	seen := map[st]bool{}
	idx := map[int]int{}
	var out []leaf
	stack := []st{{nd, true}}
	first := true
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p.work++
		if seen[s] {
			continue
		}
		seen[s] = true
		isTop := first && top
		first = false
		if !isTop && p.isValue(s.n) {
			v := p.w.index[s.n]
			if j, ok := idx[v]; ok {
				out[j].identity = out[j].identity && s.id
			} else {
				idx[v] = len(out)
				out = append(out, leaf{v, s.id})
			}
			continue
		}
		elem := s.n.Op().IsElementwise() || s.n.Op() == graph.OpCopy
		for j, x := range s.n.Inputs() {
			_, changes := inputStep(s.n, j)
			stack = append(stack, st{x, s.id && elem && !changes})
		}
	}
	return out
}

// maxProducer returns the last kernel producing any of the leaves.
func (p *planner) maxProducer(ls []leaf) int {
	m := -1
	for _, l := range ls {
		if l.v < len(p.producer) {
			m = max(m, p.producer[l.v])
		}
	}
	return m
}
