// Finishing a plan: stores of reduction and GEMM results that are read
// later, buffer liveness and reuse, operand resolution, collapsing, byte
// accounting and the outputs.

package fuse

import (
	"container/heap"
	"fmt"
	"sort"

	"github.com/fuseflow/fuseflow/graph"
)

func (p *planner) finish() (*Plan, error) {
	reads := map[int]bool{}
	for _, kb := range p.kernels {
		kb.dropEmptyReads()
		for _, v := range kb.opVal {
			reads[v] = true
		}
		for _, v := range kb.matVal {
			reads[v] = true
		}
		for _, v := range kb.callVals {
			reads[v] = true
		}
	}
	for _, kb := range p.kernels {
		for _, v := range kb.memberN {
			if !p.values[v].result && !reads[v] {
				continue
			}
			rs := p.values[v].shape
			rx := p.rootXf(kb, rs)
			val := kb.pushAcc(kb.members[v], p.values[v].dtype)
			off, st, err := rx.apply(0, rs.ContiguousStrides())
			if err != nil {
				return nil, err
			}
			kb.stores = append(kb.stores, pstore{val: val, value: v, dtype: p.values[v].dtype, off: off, strides: st})
		}
	}
	// Drop kernels with nothing to do.
	var ks []*kbuild
	for _, kb := range p.kernels {
		kb.zeroProduct()
		if kb.empty() {
			continue
		}
		kb.index = len(ks)
		ks = append(ks, kb)
	}
	p.kernels = ks
	pl := &Plan{Nodes: len(p.w.nodes)}
	p.assignBuffers(pl)
	for _, kb := range p.kernels {
		k := kb.k
		for j := range k.Operands {
			if v := kb.opVal[j]; v >= 0 {
				k.Operands[j].Buffer = p.values[v].buf
			}
		}
		for _, s := range kb.stores {
			k.Stores = append(k.Stores, Store{Value: s.val, Buffer: p.values[s.value].buf, DType: s.dtype, Offset: s.off, Strides: s.strides})
		}
		p.fixGathers(kb)
		k.Spec = p.spec(kb)
		k.Name = kernelName(&k)
		collapse(&k)
		pl.Kernels = append(pl.Kernels, k)
	}
	for i := range pl.Kernels {
		countBytes(pl, &pl.Kernels[i])
		pl.Bytes += pl.Kernels[i].BytesRead + pl.Kernels[i].BytesWritten
	}
	pl.UnfusedBytes = unfusedBytes(p.w)
	if err := p.outputs(pl); err != nil {
		return nil, err
	}
	return pl, nil
}

// spec returns the kind's own part of kb's kernel, with buffers
// resolved.
func (p *planner) spec(kb *kbuild) Spec {
	switch kb.kind {
	case KindMap:
		return &MapSpec{Body: kb.body}
	case KindReduce:
		return &ReduceSpec{Axes: kb.axes, Body: kb.body, Reductions: kb.reds, Epilogue: kb.epi}
	case KindMatMul:
		m := *kb.mm
		m.A.Buffer = p.values[kb.matVal[0]].buf
		m.B.Buffer = p.values[kb.matVal[1]].buf
		m.Epilogue = kb.epi
		return &m
	case KindCall:
		return p.callSpec(kb.call)
	case KindSort:
		return kb.sort
	case KindScan:
		s := *kb.scan
		s.Body, s.Epilogue = kb.body, kb.epi
		return &s
	case KindIndex:
		return p.indexSpec(kb.idx)
	}
	panic(fmt.Sprintf("fuse: kernel of kind %v has no spec", kb.kind))
}

// empty reports whether the kernel has no points to write. A Call
// kernel is never empty: the kernel may fail, and that is its error.
func (kb *kbuild) empty() bool {
	if kb.kind == KindCall || kb.kind == KindIndex {
		return false
	}
	if s := kb.sort; s != nil {
		rows := 1
		for _, e := range kb.k.Space[:len(kb.k.Space)-1] {
			rows *= e
		}
		return rows*s.K == 0 || len(kb.stores) == 0
	}
	out := 1
	for i, e := range kb.k.Space {
		reduced := false
		for _, a := range kb.axes {
			reduced = reduced || a == i
		}
		if !reduced {
			out *= e
		}
	}
	return out == 0 || len(kb.stores) == 0
}

// assignBuffers gives every bound slot its buffer and every stored value a
// buffer: results their own, intermediates a dead temp of the same
// element size when one is free (best fit, grown when needed), so a long
// chain of kernels reuses a few buffers.
func (p *planner) assignBuffers(pl *Plan) {
	for s, nd := range p.w.slots {
		l := p.bound[nd]
		_, hi := l.Span() // -1 for an empty view, whatever its offset
		b := len(pl.Buffers)
		pl.Buffers = append(pl.Buffers, Buffer{Kind: BufInput, Slot: s, ElemSize: l.DType.Size(), Elems: hi + 1,
			Bytes: int64(hi+1) * int64(l.DType.Size()), First: -1, Last: -1})
		p.values[p.w.index[nd]].buf = b
		label := nd.Attr().Label
		if nd.Op() != graph.OpInput {
			label = nd.Op().String()
		}
		pl.Inputs = append(pl.Inputs, Input{Layout: l.Clone(), Buffer: b, Label: label})
	}
	first := map[int]int{}
	last := map[int]int{}
	touch := func(v, k int) {
		if f, ok := first[v]; !ok || k < f {
			first[v] = k
		}
		last[v] = max(last[v], k)
	}
	var order []int
	for _, kb := range p.kernels {
		for _, s := range kb.stores {
			if _, ok := first[s.value]; !ok {
				order = append(order, s.value)
			}
			touch(s.value, kb.index)
		}
		for _, v := range kb.writes {
			if _, ok := first[v]; !ok {
				order = append(order, v)
			}
			touch(v, kb.index)
		}
	}
	for _, kb := range p.kernels {
		for _, v := range append(append(append([]int(nil), kb.opVal...), kb.matVal[:]...), kb.callVals...) {
			if v < 0 {
				continue
			}
			if b := p.values[v].buf; b >= 0 && pl.Buffers[b].Kind == BufInput {
				bb := &pl.Buffers[b]
				if bb.First < 0 || kb.index < bb.First {
					bb.First = kb.index
				}
				bb.Last = max(bb.Last, kb.index)
				continue
			}
			touch(v, kb.index)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return first[order[a]] < first[order[b]] })
	// Temps whose last kernel is before the value's first are free: busy
	// holds the others by their last kernel, free (one per element size)
	// the free ones by size.
	var busy tempHeap
	free := map[int]*bufTree{}
	defer func() {
		p.work += len(order)
		for _, t := range free {
			p.work += t.visits
		}
	}()
	for _, v := range order {
		val := &p.values[v]
		es := val.dtype.Size()
		n := val.shape.Size()
		desc := fmt.Sprintf("v%d = %s %v %v", v, valueName(val), val.shape, val.dtype)
		for len(busy) > 0 && busy[0].last < first[v] {
			t := heap.Pop(&busy).(tempLife)
			bb := &pl.Buffers[t.buf]
			if free[bb.ElemSize] == nil {
				free[bb.ElemSize] = &bufTree{}
			}
			free[bb.ElemSize].insert(bb.Elems, t.buf)
		}
		if !val.result && free[es] != nil {
			// The smallest free temp that fits (the first of equal size),
			// else the largest (grown).
			if best, ok := free[es].bestFit(n); ok {
				free[es].remove(pl.Buffers[best].Elems, best)
				bb := &pl.Buffers[best]
				bb.Elems = max(bb.Elems, n)
				bb.Bytes = int64(bb.Elems) * int64(es)
				bb.Last = last[v]
				bb.Values = append(bb.Values, desc)
				val.buf = best
				heap.Push(&busy, tempLife{bb.Last, best})
				continue
			}
		}
		kind := BufTemp
		if val.result {
			kind = BufResult
		}
		val.buf = len(pl.Buffers)
		pl.Buffers = append(pl.Buffers, Buffer{Kind: kind, Slot: -1, ElemSize: es, Elems: n, Bytes: int64(n) * int64(es),
			First: first[v], Last: last[v], Values: []string{desc}})
		if kind == BufTemp {
			heap.Push(&busy, tempLife{last[v], val.buf})
		}
	}
	for i := range pl.Buffers {
		if pl.Buffers[i].Kind == BufResult {
			pl.Buffers[i].Last = len(p.kernels) - 1
		}
	}
}

// tempLife is a temp buffer in use until kernel last.
type tempLife struct{ last, buf int }

// tempHeap orders temps in use by their last kernel.
type tempHeap []tempLife

func (h tempHeap) Len() int { return len(h) }
func (h tempHeap) Less(i, j int) bool {
	return h[i].last < h[j].last || h[i].last == h[j].last && h[i].buf < h[j].buf
}
func (h tempHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *tempHeap) Push(x any)   { *h = append(*h, x.(tempLife)) }
func (h *tempHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func valueName(v *value) string {
	if v.node == nil {
		return v.label
	}
	return v.node.Op().String()
}

// outputs describes the requested outputs.
func (p *planner) outputs(pl *Plan) error {
	owned := map[int]bool{}
	for _, o := range p.outs {
		var out Output
		switch o.kind {
		case outInput:
			out = Output{Buffer: p.values[o.base].buf, View: true}
			out.Layout = p.bound[o.node].Clone()
		case outView:
			out = Output{Buffer: p.values[o.base].buf, View: true,
				Layout: graph.Layout{DType: o.node.DType(), Shape: o.node.Shape().Clone(), Strides: o.strides, Offset: o.off}}
		default:
			out = Output{Buffer: p.values[o.base].buf, Layout: graph.ContiguousLayout(o.node.DType(), o.node.Shape())}
			out.View = owned[out.Buffer]
		}
		if out.Buffer < 0 {
			// A value with no elements: nothing stored it.
			out.Buffer = len(pl.Buffers)
			pl.Buffers = append(pl.Buffers, Buffer{Kind: BufResult, Slot: -1, ElemSize: o.node.DType().Size(), First: -1, Last: -1})
			p.values[o.base].buf = out.Buffer
		}
		owned[out.Buffer] = true
		pl.Outputs = append(pl.Outputs, out)
	}
	return nil
}
