// Dot rows: a Sum whose prologue is only the product of two contiguous
// float loads (sum(a*b, -1), the einsum 'ij,ij->i', sum(x*x), the Square
// of one) folds the
// products as it reads the operands, instead of writing them to a chunk
// register and reading them back. Each product is rounded to the dtype
// and added into the sum's partial sums in the order the row fold
// (sumRowF) adds them, so the results are the same bits.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// dotKernel is the fused product and row sum of operands a and b (indexes
// into the prologue's operands, possibly the same).
type dotKernel struct {
	a, b int
	fold func(s *accum, a, b unsafe.Pointer, n int)
}

// dotMin is the shortest row the dot path takes: shorter rows keep the
// row-block loop of sumRows (its sums of rows of at most 8 differ).
const dotMin = 16

// lowerDot returns the dot path of rk (lowered), or nil.
func (rk *redKernel) lowerDot() *dotKernel {
	if len(rk.reds) != 1 || rk.reds[0].Op != graph.OpSum || rk.o2 != 1 || rk.inner < dotMin ||
		len(rk.pro.stores) != 0 || len(rk.pro.steps) > 3 {
		return nil
	}
	d := rk.vdt[0]
	if d != graph.Float32 && d != graph.Float64 || rk.reds[0].DType != d {
		return nil
	}
	v := &rk.pro.steps[rk.reds[0].Value]
	args := v.args[:2]
	switch {
	case v.kind != fuse.InstrOp || v.dt != d || v.sc != nil || v.wh != nil:
		return nil
	case v.op == graph.OpMul && v.bin != nil && v.un == nil:
	case v.op == graph.OpSquare && v.un != nil: // x*x
		args = []int{v.args[0], v.args[0]}
	default:
		return nil
	}
	var opd [2]int
	for k, a := range args {
		st := &rk.pro.steps[a]
		if st.kind != fuse.InstrLoad || st.norm || st.dt != d || !rk.pro.opds[st.opd].contig {
			return nil
		}
		opd[k] = st.opd
	}
	dk := &dotKernel{a: opd[0], b: opd[1], fold: dotFold64}
	if d == graph.Float32 {
		dk.fold = dotFold32
	}
	return dk
}

// ptrs returns the addresses of flat point lo of the two operands.
func (dk *dotKernel) ptrs(pro *prog, bases []unsafe.Pointer, lo int) (unsafe.Pointer, unsafe.Pointer) {
	a, b := &pro.opds[dk.a], &pro.opds[dk.b]
	return at(bases[a.buf], a.lay.Offset+lo, a.es), at(bases[b.buf], b.lay.Offset+lo, b.es)
}

// rows writes the sums of rows consecutive rows of r products, from
// flat point lo, to dst (as sumRows does for rows of more than 8).
func (dk *dotKernel) rows(d graph.DType, dst unsafe.Pointer, pro *prog, bases []unsafe.Pointer, lo, r, rows int) {
	pa, pb := dk.ptrs(pro, bases, lo)
	es := d.Size()
	var s accum
	for i := range rows {
		s = accum{f: negZero}
		dk.fold(&s, at(pa, i*r, es), at(pb, i*r, es), r)
		if d == graph.Float32 {
			*(*float32)(at(dst, i, 4)) = float32(s.f)
		} else {
			*(*float64)(at(dst, i, 8)) = s.f
		}
	}
}

// dotLanes64 adds a[8i+k]*b[8i+k] (rounded) to lanes[k] for i < n/8;
// dotBlocks32 adds the float32 products of n/128 blocks as sumBlocks32
// adds values. Variables so that vector versions (reduce_dot_amd64.go)
// can take their place; all give the same bits.
var (
	dotLanes64  = dotLanes64Go
	dotBlocks32 = dotBlocks32Go
)

func dotLanes64Go(lanes *[8]float64, a, b unsafe.Pointer, n int) {
	x, y := view[float64](a, n), view[float64](b, n)
	for len(x) >= 8 {
		u, v := x[:8:8], y[:8:8]
		for k := range 8 {
			lanes[k] += float64(u[k] * v[k])
		}
		x, y = x[8:], y[8:]
	}
}

func dotBlocks32Go(acc float64, a, b unsafe.Pointer, n int) float64 {
	x, y := view[float32](a, n), view[float32](b, n)
	for len(x) >= sumBlock32 {
		var l [8]float32
		for i := 0; i < sumBlock32; i += 8 {
			for k := range 8 {
				l[k] += float32(x[i+k] * y[i+k])
			}
		}
		acc += (float64(l[0]) + float64(l[1]) + float64(l[2]) + float64(l[3])) + (float64(l[4]) + float64(l[5]) + float64(l[6]) + float64(l[7]))
		x, y = x[sumBlock32:], y[sumBlock32:]
	}
	return acc
}

// dotFold64 is sumRowF[float64] (sumRowVec64) over the products.
func dotFold64(s *accum, a, b unsafe.Pointer, n int) {
	lanes := [8]float64{s.f, negZero, negZero, negZero, negZero, negZero, negZero, negZero}
	m := n &^ 7
	if m > 0 {
		dotLanes64(&lanes, a, b, m)
	}
	x, y := view[float64](a, n), view[float64](b, n)
	for k := m; k < n; k++ {
		lanes[0] += float64(x[k] * y[k])
	}
	s.f = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
}

// dotFold32 is sumRowF[float32] over the products.
func dotFold32(s *accum, a, b unsafe.Pointer, n int) {
	m := n &^ (sumBlock32 - 1)
	acc := dotBlocks32(s.f, a, b, m)
	x, y := view[float32](a, n), view[float32](b, n)
	for k := m; k < n; k++ {
		acc += float64(float32(x[k] * y[k]))
	}
	s.f = acc
}
