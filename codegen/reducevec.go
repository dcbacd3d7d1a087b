// The reduced-range loop of the row and two-pass Reduce strategies: one
// point per thread and step, or, when every operand the prologue loads is
// contiguous and aligned along the reduced range, vectors of 2 or 4
// consecutive points read with one 128-bit (or 64-bit) load per operand,
// two vectors per step into independent partial states, then the points
// after the last whole vector one per thread.
//
// Buffers must be 16-byte aligned (device allocations are): the vector
// path relies on it rather than testing pointers at run time.

package codegen

import (
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
)

// minVectors is the fewest whole vectors a reduced range needs before
// the loop reads it with vector loads.
const minVectors = 2

// reduceVectorWidth returns the number of consecutive reduced points a
// thread reads at once: 16 bytes of the widest operand the prologue loads
// (at most 4 points), when each such operand is contiguous along the
// reduced range (row-major strides over the reduced axes) or constant
// along it (all reduced strides 0), the contiguous ones with the offset
// and the strides of kept axes multiples of the width, and the range
// holds at least minVectors vectors; else 1.
func (rs *reduceState) reduceVectorWidth() int {
	k := rs.l.k
	size := 0
	for i, o := range k.Operands {
		if rs.used[i] && o.Buffer != fuse.NoBuffer {
			size = max(size, o.DType.Size())
		}
	}
	if size == 0 || hasGather(rs.spec.Body, rs.prologue) {
		return 1 // a gather reads its operand at its own offsets
	}
	w := min(4, 16/size)
	if w < 2 || spaceSize(rs.redEx) < minVectors*w {
		return 1
	}
	for i, o := range k.Operands {
		if !rs.used[i] || o.Buffer == fuse.NoBuffer {
			continue
		}
		rstr := pick(o.Strides, rs.red)
		if allZero(rstr) {
			continue // one scalar load per vector
		}
		if !dense(rstr, rs.redEx) || o.Offset%w != 0 {
			return 1
		}
		for ki, a := range rs.keep {
			if rs.keepEx[ki] != 1 && o.Strides[a]%w != 0 {
				return 1
			}
		}
	}
	return w
}

func allZero(v []int) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// rowLoop folds the reduced points of the output point whose operand
// bases are base into a state starting from the identities, and returns
// it. The thread's points are start, start+step, ... below the reduced
// size; with w > 1 those are vectors of w points (vector v covers points
// v*w to v*w+w-1, its lanes folded in index order), the thread's vectors
// taken two per step into two states combined at the end, and the points
// after the last whole vector follow one per thread.
func (rs *reduceState) rowLoop(base []*ir.Value, start, step *ir.Value, w int) []*ir.Value {
	l := rs.l
	bb := l.b
	n := spaceSize(rs.redEx)
	scalar := func(lo *ir.Value, init []*ir.Value) []*ir.Value {
		return bb.ForCarry(lo, l.uconst(n), step, init, func(j *ir.Value, st []*ir.Value) []*ir.Value {
			return rs.accumulate(st, base, j)
		})
	}
	if w == 1 {
		return scalar(start, rs.identities())
	}
	id := rs.identities()
	m := len(id)
	nv := l.uconst(n / w)
	st := bb.ForCarry(start, nv, bb.Add(step, step), append(id, rs.identities()...), func(v *ir.Value, c []*ir.Value) []*ir.Value {
		// The second vector is v+step when that exists; else v is read
		// again (in bounds, cached) and its state left unchanged.
		v1 := bb.Add(v, step)
		ok := bb.Lt(v1, nv)
		v1 = bb.Select(ok, v1, v)
		j0, j1 := bb.Mul(v, l.uconst(w)), bb.Mul(v1, l.uconst(w))
		lanes0 := rs.vectorLanes(base, j0, w)
		lanes1 := rs.vectorLanes(base, j1, w)
		s0 := rs.foldLanes(c[:m], lanes0, j0, w)
		s1 := rs.foldLanes(c[m:], lanes1, j1, w)
		for i := range s1 {
			s1[i] = bb.Select(ok, s1[i], c[m+i])
		}
		return append(s0, s1...)
	})
	out := rs.combineAll(st[:m], st[m:])
	if n%w != 0 {
		out = scalar(bb.Add(start, l.uconst(n/w*w)), out)
	}
	return out
}

// vectorLanes returns, per operand the prologue reads and lane, the
// loaded value (one vector load for a contiguous operand, one scalar load
// for one constant along the range) or, for an operand without a buffer,
// the element index of a generated leaf, at reduced points j to j+w-1.
func (rs *reduceState) vectorLanes(base []*ir.Value, j *ir.Value, w int) [][]*ir.Value {
	l := rs.l
	bb := l.b
	k := l.k
	lanes := make([][]*ir.Value, len(k.Operands))
	for oi, o := range k.Operands {
		if !rs.used[oi] {
			continue
		}
		rstr := pick(o.Strides, rs.red)
		lanes[oi] = make([]*ir.Value, w)
		switch {
		case o.Buffer == fuse.NoBuffer:
			for i := range w {
				ix := l.newSpaceIndexer(rs.redEx, l.addConst(j, i))
				lanes[oi][i] = bb.Add(base[oi], ix.offset(0, rstr))
			}
		case allZero(rstr):
			v := l.load(o.Buffer, o.DType, base[oi])
			for i := range w {
				lanes[oi][i] = v
			}
		default:
			p := bb.Index(l.ptr(o.Buffer, memType(o.DType)), bb.Add(base[oi], j))
			vs := bb.LoadVec(p, w)
			if l.fn.Param(l.bufs[o.Buffer]).ReadOnly {
				vs[0].Def.Cache = ir.CacheNC
			}
			for i, v := range vs {
				lanes[oi][i] = l.fromMem(v, o.DType)
			}
		}
	}
	return lanes
}

// foldLanes evaluates the prologue at each lane of the vector at reduced
// point j, in index order, and folds the values into state (returned as
// far as it got on an error, which it records with fail).
func (rs *reduceState) foldLanes(state []*ir.Value, lanes [][]*ir.Value, j *ir.Value, w int) []*ir.Value {
	l := rs.l
	for i := range w {
		vals, err := l.evalBody(rs.spec.Body, l.laneEnv(lanes, i), rs.prologue)
		if l.fail(err) {
			return state
		}
		state = rs.fold(state, vals, l.addConst(j, i))
	}
	return state
}
