// The order of a reduction's reduced axes: a kernel whose results do not
// depend on the order its points are folded in (Sum, Prod, Max, Min, Any,
// All; not ArgMax and ArgMin, whose index counts in the kernel's order)
// folds them in the order the input lies in memory, so that a reduction
// of a transposed input over all its axes, or over a block of axes that
// the input's memory holds together, reads it front to back instead of
// gathering it with a stride.
//
// Integer Sum and Prod wrap and are exact, so any order gives the same
// result; Max and Min propagate NaN and order -0 below +0 in every order;
// Any and All test x != 0. A float Sum or Prod rounds in the order it
// adds: folded in memory order it errs within the same bound as in the
// kernel's order (the bounds depend on the number and the magnitudes of
// the terms only), and the result still depends on the shapes, strides
// and chunk alone, never on the number of workers.

package cpu

import (
	"slices"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// orderFree reports whether op's result is the same, or within the same
// bound, for any order of the folded points.
func orderFree(op graph.Op) bool {
	switch op {
	case graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin, graph.OpAny, graph.OpAll:
		return true
	}
	return false
}

// memoryReduced returns k's reduced axes (ascending, reduced) in the
// order the kernel folds them: by decreasing stride magnitude of the
// guide operand (the first load that is not broadcast over any reduced
// axis, else the first load), ties in the kernel's order, when every
// reduction of k is orderFree; reduced itself otherwise. The result is a
// new slice where it differs.
func memoryReduced(k *fuse.Kernel, reduced []int) []int {
	rs := k.Reduce()
	if len(reduced) < 2 {
		return reduced
	}
	for _, r := range rs.Reductions {
		if !orderFree(r.Op) {
			return reduced
		}
	}
	guide := guideOperand(k, reduced)
	if guide < 0 {
		return reduced
	}
	st := k.Operands[guide].Strides
	mag := func(a int) int { return max(st[a], -st[a]) }
	if slices.IsSortedFunc(reduced, func(a, b int) int { return mag(b) - mag(a) }) {
		return reduced
	}
	out := slices.Clone(reduced)
	slices.SortStableFunc(out, func(a, b int) int { return mag(b) - mag(a) })
	return out
}

// guideOperand returns the operand whose memory order a reduction over
// reduced follows: the first load that is not broadcast over any reduced
// axis, else the first load, else -1.
func guideOperand(k *fuse.Kernel, reduced []int) int {
	guide := -1
	for _, in := range k.Reduce().Body {
		if in.Kind != fuse.InstrLoad {
			continue
		}
		if guide < 0 {
			guide = in.Operand
		}
		full := true
		for _, a := range reduced {
			full = full && k.Operands[in.Operand].Strides[a] != 0
		}
		if full {
			return in.Operand
		}
	}
	return guide
}

// flipReduced turns around, in opds (k's operands over the executor's
// order of axes, whose extents are shape), each reduced axis (red[order[i]])
// that the guide operand reads backwards, when every reduction of k is
// orderFree: a reversed input is then read front to back (in place where
// it is contiguous so). Each operand's offset moves to the axis's last
// element and its stride changes sign, which relabels the axis's points
// and changes no value.
func flipReduced(k *fuse.Kernel, order []int, red []bool, shape []int, opds []fuse.Operand) {
	rs := k.Reduce()
	for _, r := range rs.Reductions {
		if !orderFree(r.Op) {
			return
		}
	}
	var reduced []int
	for _, a := range order {
		if red[a] {
			reduced = append(reduced, a)
		}
	}
	guide := guideOperand(k, reduced)
	if guide < 0 {
		return
	}
	for i, a := range order {
		if !red[a] || opds[guide].Strides[i] >= 0 {
			continue
		}
		for j := range opds {
			opds[j].Offset += (shape[i] - 1) * opds[j].Strides[i]
			opds[j].Strides[i] = -opds[j].Strides[i]
		}
	}
}
