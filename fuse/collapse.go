// Dimension collapsing: extent-1 axes are dropped and adjacent axes that
// are contiguous for every operand and store merge, so the iteration
// space has the fewest axes the index arithmetic needs.

package fuse

// collapse rewrites k's Space, reduced axes (ReduceSpec.Axes) and every operand's and store's
// strides. Axes i and i+1 merge when both are reduced or both kept and
// every stride vector v has v[i] == v[i+1]*Space[i+1]. A Reduce whose
// reduced axes are neither all first nor all last has them moved to the
// end (keeping their order, so ArgMax indices are unchanged). MatMul
// spaces are left as they are (batch, M, N).
func collapse(k *Kernel) {
	if k.Scan() != nil {
		collapseScan(k)
		return
	}
	rs := k.Reduce()
	if k.Map() == nil && rs == nil {
		return
	}
	var axes []int
	if rs != nil {
		axes = rs.Axes
	}
	var vecs [][]int
	for i := range k.Operands {
		vecs = append(vecs, k.Operands[i].Strides)
	}
	for i := range k.Stores {
		vecs = append(vecs, k.Stores[i].Strides)
	}
	red := make([]bool, len(k.Space))
	for _, a := range axes {
		red[a] = true
	}
	space := append([]int(nil), k.Space...)
	// Drop extent-1 axes.
	keep := make([]int, 0, len(space))
	for i, e := range space {
		if e != 1 {
			keep = append(keep, i)
		}
	}
	// Reduced axes all first or all last, else moved last.
	var kept, reduced []int
	for _, i := range keep {
		if red[i] {
			reduced = append(reduced, i)
		} else {
			kept = append(kept, i)
		}
	}
	order := keep
	if len(reduced) > 0 && len(kept) > 0 && !(reduced[len(reduced)-1] < kept[0]) {
		order = append(append([]int(nil), kept...), reduced...)
	}
	ns := make([]int, len(order))
	nr := make([]bool, len(order))
	nv := make([][]int, len(vecs))
	for j, i := range order {
		ns[j], nr[j] = space[i], red[i]
	}
	for v, s := range vecs {
		nv[v] = make([]int, len(order))
		for j, i := range order {
			nv[v][j] = s[i]
		}
	}
	ns, nr = mergeAxes(ns, nr, nv, func(bool) bool { return true })
	hasRed := false
	for _, r := range nr {
		hasRed = hasRed || r
	}
	if len(ns) == 0 || (rs != nil && !hasRed) {
		// A scalar space, or a reduction over extent-1 axes only.
		ns = append(ns, 1)
		nr = append(nr, rs != nil)
		for v := range nv {
			nv[v] = append(nv[v], 0)
		}
	}
	k.Space = ns
	if rs != nil {
		rs.Axes = nil
		for i, r := range nr {
			if r {
				rs.Axes = append(rs.Axes, i)
			}
		}
	}
	for i := range k.Operands {
		k.Operands[i].Strides = nv[i]
	}
	for i := range k.Stores {
		k.Stores[i].Strides = nv[len(k.Operands)+i]
	}
}

// mergeAxes merges adjacent axes i and i+1 of the space ns, from the
// innermost outwards, when they have the same class, mergeable allows
// that class, and every stride vector of nv has v[i] == v[i+1]*ns[i+1].
// It returns the merged space and classes and rewrites the vectors of nv
// in place.
func mergeAxes[C comparable](ns []int, class []C, nv [][]int, mergeable func(C) bool) ([]int, []C) {
	for i := len(ns) - 2; i >= 0; i-- {
		if class[i] != class[i+1] || !mergeable(class[i]) {
			continue
		}
		ok := true
		for _, s := range nv {
			if s[i] != s[i+1]*ns[i+1] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		ns[i] *= ns[i+1]
		ns = append(ns[:i+1], ns[i+2:]...)
		class = append(class[:i+1], class[i+2:]...)
		for v, s := range nv {
			s[i] = s[i+1]
			nv[v] = append(s[:i+1], s[i+2:]...)
		}
	}
	return ns, class
}
