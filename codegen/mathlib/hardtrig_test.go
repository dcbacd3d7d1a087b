// This file tests sin, cos and tan on the hardest inputs of the argument
// reduction: for every binade from 1 to the largest finite value, the
// significand m whose x = m*2^E lies closest to a multiple of pi/2. They
// come from the continued fraction of alpha = frac(2^E * 2/pi): the
// denominators q of its convergents give the smallest |q*alpha - p|, and
// the candidates c*q_n + d*q_(n-1) with m in the binade are scanned for the
// smallest. Each result is compared with the 200-bit reference.

package mathlib

import (
	"math"
	"math/big"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// fracDist returns |m*alpha - round(m*alpha)| for an integer m.
func fracDist(m uint64, alpha *big.Float) *big.Float {
	v := new(big.Float).SetPrec(hiPrec).Mul(new(big.Float).SetUint64(m), alpha)
	n, _ := new(big.Float).SetPrec(hiPrec).Add(v, big.NewFloat(0.5)).Int(nil)
	v.Sub(v, new(big.Float).SetInt(n))
	return v.Abs(v)
}

// hardSignificand returns the m in [2^(p-1), 2^p) among the candidates
// that brings m*alpha closest to an integer, and that distance.
func hardSignificand(alpha *big.Float, p int) (uint64, *big.Float) {
	lo, hi := uint64(1)<<(p-1), uint64(1)<<p
	// Convergent denominators below 2^p.
	qs := []uint64{0, 1}
	x := new(big.Float).SetPrec(hiPrec).Set(alpha)
	for range 200 {
		if x.Sign() == 0 {
			break
		}
		x.Quo(new(big.Float).SetPrec(hiPrec).SetInt64(1), x)
		a, _ := x.Uint64()
		x.Sub(x, new(big.Float).SetUint64(a))
		q1, q0 := qs[len(qs)-1], qs[len(qs)-2]
		if a > 0 && q1 > (hi-q0)/a {
			break
		}
		qs = append(qs, a*q1+q0)
	}
	var best uint64
	var bestD *big.Float
	try := func(m uint64) {
		if m < lo || m >= hi {
			return
		}
		if d := fracDist(m, alpha); bestD == nil || d.Cmp(bestD) < 0 {
			best, bestD = m, d
		}
	}
	for i := len(qs) - 1; i >= 2 && i >= len(qs)-4; i-- {
		qn, qp := qs[i], qs[i-1]
		for c := uint64(1); c <= 64 && c*qn < hi; c++ {
			for d := -8; d <= 8; d++ {
				try(c*qn + uint64(int64(d)*int64(qp)))
			}
			try(lo/qn*qn + c*qn)
		}
	}
	return best, bestD
}

// hardTrigInputs returns one hard input per binade of t from 1 up, with
// alternating signs.
func hardTrigInputs(t ir.Type, step int) []float64 {
	p, emax := 53, 1023
	if t == ir.F32 {
		p, emax = 24, 127
	}
	twoOverPi := new(big.Float).SetPrec(hiPrec).Quo(big.NewFloat(2), hiPi())
	var out []float64
	for be := 0; be <= emax; be += step {
		e := be - (p - 1)
		alpha := new(big.Float).SetPrec(hiPrec).SetMantExp(twoOverPi, e)
		n, _ := alpha.Int(nil)
		alpha.Sub(alpha, new(big.Float).SetInt(n))
		m, _ := hardSignificand(alpha, p)
		if m == 0 {
			continue
		}
		x := math.Ldexp(float64(m), e)
		if len(out)%2 == 1 {
			x = -x
		}
		out = append(out, x)
	}
	return out
}

func TestTrigHardReductions(t *testing.T) {
	for _, typ := range []ir.Type{ir.F32, ir.F64} {
		step := 1
		if testing.Short() && typ == ir.F64 {
			step = 7
		}
		xs := hardTrigInputs(typ, step)
		for _, fn := range []ir.MathFn{ir.MathSin, ir.MathCos, ir.MathTan} {
			got := runKernel(t, compileExpanded(t, fn, typ), typ, xs, nil)
			bound := ulpBound(fn, typ)
			worst, worstX := 0.0, 0.0
			for i, x := range xs {
				want, ok := exactRefs[fn](typ, x, 0)
				if !ok {
					t.Fatalf("no exact %s.%s at %v", fn, typ, x)
				}
				d := ulpDist(typ, got[i], want)
				if d > bound {
					t.Errorf("%s.%s(%v) got:%v want:%v (%v ulp)", fn, typ, x, got[i], want, d)
				}
				if d > worst {
					worst, worstX = d, x
				}
			}
			t.Logf("%s.%s: %d hard inputs, max %g ulp (at %v)", fn, typ, len(xs), worst, worstX)
		}
	}
}

func TestTwoOverPiTable(t *testing.T) {
	// The leading bits of 2/pi: 0.A2F9836E4E441529FC2757D1F534DDC0... in hex.
	const want = "a2f9836e4e441529fc2757d1f534ddc0db629599"
	for _, typ := range []ir.Type{ir.F32, ir.F64} {
		red := reductions[typ]
		x := new(big.Int)
		for _, w := range red.words {
			x.Lsh(x, 64)
			x.Or(x, new(big.Int).SetUint64(w))
		}
		bitsLen := 64 * len(red.words)
		x.Rsh(x, uint(bitsLen-red.pad-4*len(want)))
		if got := x.Text(16); got != want {
			t.Errorf("%s: 2/pi table got:%s want:%s", typ, got, want)
		}
		if need := red.emax + red.pad - 2 + 64*red.win; bitsLen < need {
			t.Errorf("%s: table of %d bits, the largest exponent reads up to bit %d", typ, bitsLen, need)
		}
	}
}
