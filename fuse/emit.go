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
	k      Kernel
	index  int
	xf     *xforms
	memo   map[memoKey]int // Body
	ememo  map[memoKey]int // Epilogue
	opKey  map[string]int
	opVal  []int // per operand: the value read, or -1 (generated)
	stores []pstore
	// members are the values a Reduce or MatMul kernel computes itself:
	// value -> InstrAcc index.
	members map[int]int
	memberN []int // members in acc order
	sig     string
	matVal  [2]int
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
		k:     Kernel{Kind: kind, Space: space.Clone()},
		index: len(p.kernels), xf: newXforms(),
		memo: map[memoKey]int{}, ememo: map[memoKey]int{}, opKey: map[string]int{},
		members: map[int]int{}, matVal: [2]int{-1, -1},
	}
	p.kernels = append(p.kernels, kb)
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
		kb.k.Epilogue = append(kb.k.Epilogue, in)
		return len(kb.k.Epilogue) - 1
	}
	kb.k.Body = append(kb.k.Body, in)
	return len(kb.k.Body) - 1
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
// kernel's root).
func (p *planner) emit(kb *kbuild, epi bool, nd *graph.Node, xf *xform, top bool) (int, error) {
	memo := kb.memo
	if epi {
		memo = kb.ememo
	}
	key := memoKey{nd, xf.id}
	if !top {
		if i, ok := memo[key]; ok {
			return i, nil
		}
	}
	in := Instr{DType: nd.DType()}
	switch {
	case !top && p.isValue(nd):
		v := p.w.index[nd]
		if acc, ok := kb.members[v]; ok && epi {
			in.Kind, in.Acc = InstrAcc, acc
			break
		}
		if ev, ok := p.epiOf[v]; ok && epi && ev.kb == kb {
			memo[key] = ev.val
			return ev.val, nil
		}
		off, st := p.layoutOf(v)
		off, st, err := xf.apply(off, st)
		if err != nil {
			return 0, err
		}
		in.Kind, in.Operand = InstrLoad, kb.operand(v, nd.DType(), off, st)
	case nd.Op() == graph.OpConst:
		in.Kind, in.Value = InstrConst, nd.Attr().Value
	case nd.Op().Class() == graph.ClassLeaf: // Iota, Eye, RandU, RandN
		off, st, err := xf.apply(0, nd.Shape().ContiguousStrides())
		if err != nil {
			return 0, err
		}
		a := nd.Attr()
		g := &GenAttr{Start: a.Start, Step: a.Step, Stop: a.Stop, HasStop: a.HasStop, K: a.K, Seed: a.Seed}
		switch nd.Op() {
		case graph.OpIota:
			g.Len = nd.Shape()[0]
		case graph.OpEye:
			g.Cols = nd.Shape()[1]
		}
		in.Kind, in.Op, in.Gen = InstrGen, nd.Op(), g
		in.Operand = kb.operand(-1, nd.DType(), off, st)
		kb.k.Fused = append(kb.k.Fused, nd.Op())
		p.computed[p.w.index[nd]]++
	case nd.Op().Class() == graph.ClassView || nd.Op() == graph.OpCopy:
		cx := xf
		if s, ok := inputStep(nd, 0); ok {
			cx = kb.xf.child(xf, s)
		}
		i, err := p.emit(kb, epi, nd.Input(0), cx, false)
		if err != nil {
			return 0, err
		}
		kb.k.Fused = append(kb.k.Fused, nd.Op())
		memo[key] = i
		return i, nil
	case nd.Op().IsElementwise():
		in.Kind, in.Op = InstrOp, nd.Op()
		for j, x := range nd.Inputs() {
			cx := xf
			if s, ok := inputStep(nd, j); ok {
				cx = kb.xf.child(xf, s)
			}
			a, err := p.emit(kb, epi, x, cx, false)
			if err != nil {
				return 0, err
			}
			in.Args = append(in.Args, a)
		}
		kb.k.Fused = append(kb.k.Fused, nd.Op())
		p.computed[p.w.index[nd]]++
	default:
		panic(fmt.Sprintf("fuse: %v is not materialized where it is read", nd.Op()))
	}
	i := kb.push(epi, in)
	memo[key] = i
	return i, nil
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
