// Index arithmetic: unraveling a linear index of the iteration space into
// coordinates (division by constant extents, once per point) and the
// element offset of a strided operand, in the unsigned index type with
// wraparound (the final offset is always in range, so negative strides
// need no signed arithmetic).

package codegen

import "github.com/fuseflow/fuseflow/codegen/ir"

// uconst returns the constant v in the unsigned index type (wrapping
// negative values).
func (l *lowerer) uconst(v int) *ir.Value { return l.b.Int(l.ut, int64(v)) }

// unravel returns the row-major coordinates of lin over extents.
func (l *lowerer) unravel(lin *ir.Value, extents []int) []*ir.Value {
	n := len(extents)
	coords := make([]*ir.Value, n)
	q := lin
	for k := n - 1; k > 0; k-- {
		if extents[k] == 1 {
			coords[k] = l.uconst(0)
			continue
		}
		e := l.uconst(extents[k])
		coords[k] = l.b.Rem(q, e)
		q = l.b.Div(q, e)
	}
	if n > 0 {
		coords[0] = q
	}
	return coords
}

// dense reports whether strides are the row-major strides of extents
// (axes of extent 1 excepted): the offset is then the linear index.
func dense(strides, extents []int) bool {
	acc := 1
	for k := len(extents) - 1; k >= 0; k-- {
		if extents[k] != 1 && strides[k] != acc {
			return false
		}
		acc *= extents[k]
	}
	return true
}

// affine returns base + sum(coords[k]*strides[k]) (base may be nil for
// 0); nil coords count as 0.
func (l *lowerer) affine(base *ir.Value, strides []int, coords []*ir.Value) *ir.Value {
	acc := base
	for k, s := range strides {
		if s == 0 || coords[k] == nil {
			continue
		}
		t := coords[k]
		if s != 1 {
			t = l.b.Mul(t, l.uconst(s))
		}
		if acc == nil {
			acc = t
		} else {
			acc = l.b.Add(acc, t)
		}
	}
	if acc == nil {
		return l.uconst(0)
	}
	return acc
}

// addConst returns v + c (v itself when c is 0).
func (l *lowerer) addConst(v *ir.Value, c int) *ir.Value {
	if c == 0 {
		return v
	}
	return l.b.Add(v, l.uconst(c))
}

// spaceIndexer computes element offsets of strided views at points of an
// iteration space given by its linear index, unraveling at most once.
type spaceIndexer struct {
	l       *lowerer
	extents []int
	lin     *ir.Value
	coords  []*ir.Value
}

func (l *lowerer) newSpaceIndexer(extents []int, lin *ir.Value) *spaceIndexer {
	return &spaceIndexer{l: l, extents: extents, lin: lin}
}

// offset returns off + sum(p[k]*strides[k]) at the point.
func (s *spaceIndexer) offset(off int, strides []int) *ir.Value {
	if dense(strides, s.extents) {
		return s.l.addConst(s.lin, off)
	}
	if s.coords == nil {
		s.coords = s.l.unravel(s.lin, s.extents)
	}
	return s.l.addConst(s.l.affine(nil, strides, s.coords), off)
}

// warpRows returns what a template that gives each warp its own rows
// needs: the thread's lane (u32, and in the unsigned index type), the
// first row of its warp and the step to the warp's next row. Warp w of
// block b takes rows b*W+w, b*W+w+Grid*W, ... (W warps per block).
func (l *lowerer) warpRows() (laneU, lane, row0, rstep *ir.Value) {
	bb := l.b
	wpb := l.g.Block / l.t.WarpSize
	tid := bb.TidX()
	ws := bb.U32(uint32(l.t.WarpSize))
	laneU = bb.Rem(tid, ws)
	lane = bb.Cvt(laneU, l.ut)
	warp := bb.Cvt(bb.Div(tid, ws), l.ut)
	row0 = bb.Add(bb.Mul(bb.Cvt(bb.CtaidX(), l.ut), l.uconst(wpb)), warp)
	rstep = bb.Mul(bb.Cvt(bb.NctaidX(), l.ut), l.uconst(wpb))
	return laneU, lane, row0, rstep
}
