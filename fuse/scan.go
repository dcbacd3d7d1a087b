// Scan kernels: a CumSum, CumProd, CumMax or CumMin computed in a kernel
// of its own, with the elementwise work producing the scanned values
// fused in as its prologue and the elementwise work on the running
// values (read at their own index) as its epilogue.

package fuse

// buildScan adds the Scan kernel of value i over its input's shape.
func (p *planner) buildScan(i int) error {
	s := p.w.nodes[i]
	x := s.Input(0)
	kb := p.newKernel(KindScan, x.Shape())
	v, err := p.emit(kb, false, x, kb.xf.ident, false)
	if err != nil {
		return err
	}
	kb.scan = &ScanSpec{Op: s.Op(), Axis: s.Attr().Axis, Value: v, DType: s.DType()}
	kb.k.Fused = append(kb.k.Fused, s.Op())
	kb.members[i] = 0
	kb.memberN = []int{i}
	p.memberOf[i] = kb
	p.producer[i] = kb.index
	return nil
}

// collapseScan is collapse for a Scan kernel: extent-1 axes other than
// the scanned one are dropped, and adjacent axes on the same side of it
// merge when every stride vector allows; the scanned axis stays, so
// Space becomes at most (outer, n, inner).
func collapseScan(k *Kernel) {
	var vecs [][]int
	for i := range k.Operands {
		vecs = append(vecs, k.Operands[i].Strides)
	}
	for i := range k.Stores {
		vecs = append(vecs, k.Stores[i].Strides)
	}
	sc := k.Scan()
	ax := sc.Axis
	// side: -1 before the scanned axis, 0 the axis, 1 after.
	var ns, side []int
	nv := make([][]int, len(vecs))
	for i, e := range k.Space {
		sd := 0
		switch {
		case i < ax:
			sd = -1
		case i > ax:
			sd = 1
		}
		if e == 1 && sd != 0 {
			continue
		}
		ns = append(ns, e)
		side = append(side, sd)
		for v, s := range vecs {
			nv[v] = append(nv[v], s[i])
		}
	}
	// The scanned axis (side 0) never merges.
	ns, side = mergeAxes(ns, side, nv, func(sd int) bool { return sd != 0 })
	for i, sd := range side {
		if sd == 0 {
			sc.Axis = i
		}
	}
	k.Space = ns
	for i := range k.Operands {
		k.Operands[i].Strides = nv[i]
	}
	for i := range k.Stores {
		k.Stores[i].Strides = nv[len(k.Operands)+i]
	}
}
