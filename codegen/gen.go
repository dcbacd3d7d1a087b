// Generated leaves: Iota (Arange, Linspace), Eye and the Philox random
// arrays, computed from the element's flat index exactly as exec/ref
// computes them.

package codegen

import (
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// gen lowers an InstrGen at flat index i (unsigned index type).
func (l *lowerer) gen(in *fuse.Instr, i *ir.Value) (*ir.Value, error) {
	a := in.Gen
	bb := l.b
	switch in.Op {
	case graph.OpIota:
		f := bb.Add(l.fconst(ir.F64, a.Start), bb.Mul(bb.Cvt(i, ir.F64), l.fconst(ir.F64, a.Step)))
		if a.HasStop && a.Len >= 2 {
			f = bb.Select(bb.Eq(i, bb.Int(i.Type, int64(a.Len-1))), l.fconst(ir.F64, a.Stop), f)
		}
		return l.cast(f, graph.Float64, in.DType)
	case graph.OpEye:
		if a.Cols < 1 {
			return nil, fmt.Errorf("eye with %d columns", a.Cols)
		}
		cols := bb.Int(i.Type, int64(a.Cols))
		r, c := bb.Div(i, cols), bb.Rem(i, cols)
		on := bb.Eq(bb.Sub(c, r), bb.Int(i.Type, int64(a.K)))
		return l.cast(on, graph.Bool, in.DType)
	case graph.OpRandU, graph.OpRandN:
		return l.random(in.Op, in.DType, a.Seed, i)
	}
	return nil, fmt.Errorf("%v is not a generated leaf", in.Op)
}

// Philox4x32-10 constants (see internal/philox).
const (
	philoxMul0 = 0xD2511F53
	philoxMul1 = 0xCD9E8D57
	philoxKey0 = 0x9E3779B9
	philoxKey1 = 0xBB67AE85
)

// philoxWords returns the four Philox4x32-10 words for counter
// (lo32(i), hi32(i), 0, 0) and key seed. The round keys are constants.
func (l *lowerer) philoxWords(seed uint64, i *ir.Value) [4]*ir.Value {
	bb := l.b
	var c [4]*ir.Value
	c[0] = bb.Cvt(i, ir.U32)
	if i.Type.Bits() == 64 {
		c[1] = bb.Cvt(bb.Shr(i, bb.U32(32)), ir.U32)
	} else {
		c[1] = bb.U32(0)
	}
	c[2], c[3] = bb.U32(0), bb.U32(0)
	k0, k1 := uint32(seed), uint32(seed>>32)
	m0, m1 := bb.U32(philoxMul0), bb.U32(philoxMul1)
	for range 10 {
		hi0, lo0 := bb.MulHi(c[0], m0), bb.Mul(c[0], m0)
		hi1, lo1 := bb.MulHi(c[2], m1), bb.Mul(c[2], m1)
		c = [4]*ir.Value{
			bb.Xor(bb.Xor(hi1, c[1]), bb.U32(k0)),
			lo1,
			bb.Xor(bb.Xor(hi0, c[3]), bb.U32(k1)),
			lo0,
		}
		k0 += philoxKey0
		k1 += philoxKey1
	}
	return c
}

// uniform32 maps a word to [0, 1) with 24 bits (f32).
func (l *lowerer) uniform32(w *ir.Value) *ir.Value {
	return l.b.Mul(l.b.Cvt(l.b.Shr(w, l.b.U32(8)), ir.F32), l.fconst(ir.F32, 0x1p-24))
}

// uniform64 maps two words to [0, 1) with 53 bits (f64).
func (l *lowerer) uniform64(w0, w1 *ir.Value) *ir.Value {
	bb := l.b
	u := bb.Or(bb.Shl(bb.Cvt(w0, ir.U64), bb.U32(32)), bb.Cvt(w1, ir.U64))
	return bb.Mul(bb.Cvt(bb.Shr(u, bb.U32(11)), ir.F64), l.fconst(ir.F64, 0x1p-53))
}

// random returns element i of a uniform (RandU) or standard normal
// (RandN) stream, bit-identical to internal/philox (the normal up to the
// accuracy of log, sqrt and cos).
func (l *lowerer) random(op graph.Op, d graph.DType, seed uint64, i *ir.Value) (*ir.Value, error) {
	bb := l.b
	w := l.philoxWords(seed, i)
	switch {
	case op == graph.OpRandU && d == graph.Float32:
		return l.uniform32(w[0]), nil
	case op == graph.OpRandU && d == graph.Float64:
		return l.uniform64(w[0], w[1]), nil
	case op == graph.OpRandN && (d == graph.Float32 || d == graph.Float64):
		var u1, u2 *ir.Value
		if d == graph.Float64 {
			u1 = bb.Sub(l.fconst(ir.F64, 1), l.uniform64(w[0], w[1]))
			u2 = l.uniform64(w[2], w[3])
		} else {
			u1 = bb.Sub(l.fconst(ir.F64, 1), bb.Cvt(l.uniform32(w[0]), ir.F64))
			u2 = bb.Cvt(l.uniform32(w[1]), ir.F64)
		}
		rad := bb.Math(ir.MathSqrt, bb.Mul(l.fconst(ir.F64, -2), bb.Math(ir.MathLog, u1)))
		n := bb.Mul(rad, bb.Math(ir.MathCos, bb.Mul(l.fconst(ir.F64, 2*math.Pi), u2)))
		if d == graph.Float32 {
			n = bb.Cvt(n, ir.F32)
		}
		return n, nil
	}
	return nil, fmt.Errorf("%v of dtype %v is not supported", op, d)
}
