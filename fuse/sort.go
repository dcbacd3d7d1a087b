// Sort kernels: Sort and ArgSort nodes of one input, axis and count
// (TopK's two outputs among them) grouped into one Sort kernel, a
// fusion boundary whose keys are read through a strided view of a
// buffer (a transpose, slice or broadcast of the input costs no copy;
// an expression under it is materialized by the Map before it).

package fuse

import (
	"github.com/fuseflow/fuseflow/graph"
)

// The values a Sort kernel stores (Store.Value of a KindSort kernel).
const (
	SortValues  = 0 // the sorted keys, of the key operand's dtype
	SortIndices = 1 // their int64 indices along the sorted axis
)

// SortSpec describes a Sort kernel. Space is (outer..., N): the outer
// axes of the input in order, then the sorted axis (of extent N); each
// row (a point of the outer axes) is sorted on its own. Operands[0] is
// the key: its element at point p is the p[len-1]-th key of row p[:len-1].
// Each row is sorted stably, ascending with NaN last (NumPy's order;
// -0 and +0 are equal keys) or with Desc descending with NaN first
// (TopK), and its first K elements are stored: Store.Value SortValues
// stores the keys themselves, SortIndices the int64 position of each
// key in its row, each at Offset + sum(p[k]*Strides[k]) where p[len-1] is
// the rank in 0..K-1. 0 <= K <= N; the planner plans no Sort kernel
// with no element to store.
type SortSpec struct {
	N, K int
	Desc bool
}

func (*SortSpec) Kind() Kind { return KindSort }
func (*SortSpec) isSpec()    {}

// Sort returns k's spec when k is a Sort kernel, else nil.
func (k *Kernel) Sort() *SortSpec { s, _ := k.Spec.(*SortSpec); return s }

// sortKey identifies the Sort and ArgSort nodes one kernel computes.
type sortKey struct {
	x    *graph.Node
	axis int
	k    int
	desc bool
}

func sortKeyOf(nd *graph.Node) sortKey {
	a := nd.Attr()
	return sortKey{nd.Input(0), a.Axis, a.K, a.Desc}
}

// markSortInputs materializes the value under the views of each sort's
// input: the kernel reads its keys from a buffer.
func (p *planner) markSortInputs() {
	w := p.w
	for _, nd := range w.nodes {
		if nd.Op().Class() != graph.ClassSort || w.isBound(nd) || nd.Size() == 0 {
			continue
		}
		if b := p.viewOf(nd.Input(0)).base; !w.isBound(w.nodes[b]) {
			p.mat[b] = true
		}
	}
}

// buildSort adds the materialized sort value i to the Sort kernel of its
// input, axis and count, made by the first of them.
func (p *planner) buildSort(i int) error {
	nd := p.w.nodes[i]
	if nd.Size() == 0 {
		return nil // nothing to store; the output is an empty buffer
	}
	key := sortKeyOf(nd)
	kb := p.sorts[key]
	if kb == nil {
		x := key.x
		xs := x.Shape()
		r := len(xs)
		perm := make([]int, 0, r) // the input's axes in Space order
		for a := range r {
			if a != key.axis {
				perm = append(perm, a)
			}
		}
		perm = append(perm, key.axis)
		v, off, st := p.operandLayout(x)
		space := make(graph.Shape, r)
		ost := make([]int, r)
		for j, a := range perm {
			space[j], ost[j] = xs[a], st[a]
		}
		kb = p.newKernel(KindSort, space)
		kb.sort = &SortSpec{N: xs[key.axis], K: key.k, Desc: key.desc}
		kb.operand(v, x.DType(), off, ost)
		kb.k.Fused = []graph.Op{nd.Op()}
		kb.sortPerm = perm
		if p.sorts == nil {
			p.sorts = map[sortKey]*kbuild{}
		}
		p.sorts[key] = kb
	} else {
		kb.k.Fused = append(kb.k.Fused, nd.Op())
	}
	val := SortValues
	if nd.Op() == graph.OpArgSort {
		val = SortIndices
	}
	cs := nd.Shape().ContiguousStrides()
	st := make([]int, len(cs))
	for j, a := range kb.sortPerm {
		st[j] = cs[a]
	}
	kb.stores = append(kb.stores, pstore{val: val, value: i, dtype: nd.DType(), strides: st})
	p.producer[i] = kb.index
	return nil
}
