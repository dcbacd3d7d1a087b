// The Map template: a grid-stride loop over groups of VectorWidth
// consecutive points (128-bit vector loads and stores for contiguous
// operands, one scalar load for operands broadcast along the vector),
// ItemsPerThread groups per thread and step at a stride of the grid size
// (coalesced), the body evaluated once per point.
//
// Buffers must be 16-byte aligned (device allocations are): the vector
// path relies on it rather than testing pointers at run time.

package codegen

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
)

// spaceSize returns the number of points of extents.
func spaceSize(extents []int) int {
	n := 1
	for _, e := range extents {
		n *= e
	}
	return n
}

func (l *lowerer) lowerMap() error {
	k, g := l.k, l.g
	total := spaceSize(k.Space)
	w := mapVectorWidth(k, g.VectorWidth)
	items := max(1, g.ItemsPerThread)
	ngroups := l.uconst(total / w)
	roots := make([]int, len(k.Stores))
	for i, s := range k.Stores {
		roots[i] = s.Value
	}
	body := k.Map().Body
	need := needed(body, roots)
	l.gatherWords(body, need)
	l.launch(g.Grid, g.Block, 0)
	bb := l.b
	gsize := bb.GridSize(l.ut)
	step := gsize
	if items > 1 {
		step = bb.Mul(gsize, l.uconst(items))
	}
	bb.For(bb.GlobalIndex(l.ut), ngroups, step, func(base *ir.Value) {
		if items == 1 {
			l.mapGroup(base, w, need)
			return
		}
		// The items of one step: a loop of constant trip count (ptxas
		// unrolls it), so that the body appears once per vector lane.
		bb.For(l.uconst(0), l.uconst(items), l.uconst(1), func(j *ir.Value) {
			grp := bb.Add(base, bb.Mul(j, gsize))
			bb.If(bb.Lt(grp, ngroups), func() { l.mapGroup(grp, w, need) })
		})
	})
	return nil
}

// mapVectorWidth returns w, the geometry's vector width, when it is
// usable for k (every buffer operand contiguous or broadcast along the
// innermost axis, every store contiguous along it, whose extent and the
// offsets are multiples of w, and w lanes of no dtype wider than 16
// bytes), else 1.
func mapVectorWidth(k *fuse.Kernel, w int) int {
	if w != 2 && w != 4 || k.Space[len(k.Space)-1]%w != 0 {
		return 1
	}
	for _, o := range k.Operands {
		if o.Buffer != fuse.NoBuffer && !vectorAccess(o.Offset, o.Strides, w, true) || w*o.DType.Size() > 16 {
			return 1
		}
	}
	for _, s := range k.Stores {
		if !vectorAccess(s.Offset, s.Strides, w, false) || w*s.DType.Size() > 16 {
			return 1
		}
	}
	return w
}

// mapGroup evaluates the body at the w points starting at linear index
// grp*w and stores the results; an error it records with fail.
func (l *lowerer) mapGroup(grp *ir.Value, w int, need []bool) {
	k := l.k
	body := k.Map().Body
	bb := l.b
	lin := grp
	if w > 1 {
		lin = bb.Mul(grp, l.uconst(w))
	}
	ix := l.newSpaceIndexer(k.Space, lin)
	inner := len(k.Space) - 1
	used := make([]bool, len(k.Operands))
	gathered := make([]bool, len(k.Operands)) // read by a gather: offsets
	for i, in := range body {
		if need[i] && (in.Kind == fuse.InstrLoad || in.Kind == fuse.InstrGen) {
			used[in.Operand] = true
		}
		if need[i] && in.Kind == fuse.InstrGather && in.Gather != nil {
			gathered[in.Operand] = true
			used[in.Gather.Pos] = true
		}
	}
	xoffs := make([][]*ir.Value, len(k.Operands))
	for oi, o := range k.Operands {
		if gathered[oi] {
			off := ix.offset(o.Offset, o.Strides)
			for j := range w {
				xoffs[oi] = append(xoffs[oi], l.addConst(off, j*o.Strides[inner]))
			}
		}
	}
	// lanes holds per operand and lane the loaded value, or for an
	// operand without a buffer the element index of a generated leaf.
	lanes := make([][]*ir.Value, len(k.Operands))
	for oi, o := range k.Operands {
		if !used[oi] {
			continue
		}
		off := ix.offset(o.Offset, o.Strides)
		lanes[oi] = make([]*ir.Value, w)
		switch {
		case o.Buffer == fuse.NoBuffer:
			for j := range w {
				lanes[oi][j] = l.addConst(off, j*o.Strides[inner])
			}
		case w > 1 && o.Strides[inner] == 1:
			p := bb.Index(l.ptr(o.Buffer, memType(o.DType)), off)
			vs := bb.LoadVec(p, w)
			if l.fn.Param(l.bufs[o.Buffer]).ReadOnly {
				vs[0].Def.Cache = ir.CacheNC
			}
			for j, v := range vs {
				lanes[oi][j] = l.fromMem(v, o.DType)
			}
		default:
			v := l.load(o.Buffer, o.DType, off)
			for j := range w {
				lanes[oi][j] = v
			}
		}
	}
	results := make([][]*ir.Value, w)
	for j := range w {
		env := l.laneEnv(lanes, j)
		env.offset = func(op int) *ir.Value { return xoffs[op][j] }
		vals, err := l.evalBody(body, env, need)
		if l.fail(err) {
			return
		}
		results[j] = vals
	}
	for _, s := range k.Stores {
		if s.Value < 0 || s.Value >= len(body) {
			l.fail(fmt.Errorf("store of value %d, the body has %d", s.Value, len(body)))
			return
		}
		off := ix.offset(s.Offset, s.Strides)
		if w == 1 {
			l.store(s.Buffer, s.DType, off, results[0][s.Value])
			continue
		}
		vals := make([]*ir.Value, w)
		for j := range w {
			vals[j] = l.toMem(results[j][s.Value], s.DType)
		}
		bb.StoreVec(bb.Index(l.ptr(s.Buffer, memType(s.DType)), off), vals...)
	}
}
