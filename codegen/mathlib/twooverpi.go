// This file implements the constants of the large-argument reduction of
// sin, cos and tan: pi to 1600 bits (Machin's formula, computed once in
// big.Float) and, per float type, the bits of 2/pi as a table of 64-bit
// words with the leading zero bits that let the smallest exponent of the
// large-argument path start its window at bit 0.

package mathlib

import (
	"math"
	"math/big"
	"sync"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// hiPrec is the precision of hiPi: more than the 1280 table bits.
const hiPrec = 1600

var (
	hiPiOnce sync.Once
	hiPiVal  *big.Float
)

// hiPi returns pi to hiPrec bits: 16*atan(1/5) - 4*atan(1/239).
func hiPi() *big.Float {
	hiPiOnce.Do(func() {
		atanInv := func(n int64) *big.Float {
			x := new(big.Float).SetPrec(hiPrec).Quo(big.NewFloat(1).SetPrec(hiPrec), new(big.Float).SetInt64(n))
			x2 := new(big.Float).SetPrec(hiPrec).Mul(x, x)
			sum, pw := new(big.Float).SetPrec(hiPrec), new(big.Float).SetPrec(hiPrec).Set(x)
			for k := int64(0); pw.Sign() != 0 && pw.MantExp(nil) > -hiPrec-8; k++ {
				t := new(big.Float).SetPrec(hiPrec).Quo(pw, new(big.Float).SetInt64(2*k+1))
				if k%2 == 0 {
					sum.Add(sum, t)
				} else {
					sum.Sub(sum, t)
				}
				pw.Mul(pw, x2)
			}
			return sum
		}
		a := atanInv(5)
		a.Mul(a, new(big.Float).SetInt64(16))
		b := atanInv(239)
		b.Mul(b, new(big.Float).SetInt64(4))
		hiPiVal = a.Sub(a, b)
	})
	return hiPiVal
}

// reduction describes the large-argument path of one float type. An input
// above fast, |x| = m*2^E with the integer significand m of mbits bits,
// takes the bits of 2/pi from index E-1 on (those before only add
// multiples of 4 to x*2/pi) out of words, which holds 2^-pad * 2/pi as a
// binary fraction, 64 bits a word. The window is win words long, after
// the shift that aligns it.
type reduction struct {
	fast  float64  // the largest |x| of the Cody-Waite path
	mbits int      // bits of the integer significand
	emin  int      // smallest E above fast
	emax  int      // E of the largest finite value
	pad   int      // leading zero bits of the table
	win   int      // aligned 64-bit words of the window
	words []uint64 // the table
}

// maxWord returns the largest first-word index a finite input selects.
func (r *reduction) maxWord() int { return (r.emax + r.pad - 2) >> 6 }

// newReduction builds the reduction of type t.
func newReduction(t ir.Type) *reduction {
	r := &reduction{fast: trigFastLimit(t), mbits: 53, emax: 1023 - 52, win: 3}
	if t == ir.F32 {
		r.mbits, r.emax, r.win = 24, 127-23, 2
	}
	r.emin = int(math.Log2(r.fast)) - (r.mbits - 1)
	r.pad = max(0, 2-r.emin)
	n := r.maxWord() + r.win + 1
	// X = floor(2/pi * 2^(64n - pad)), split into n words from the top.
	twoOverPi := new(big.Float).SetPrec(hiPrec).Quo(new(big.Float).SetInt64(2), hiPi())
	twoOverPi.SetMantExp(twoOverPi, 64*n-r.pad)
	x, _ := twoOverPi.Int(nil)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	r.words = make([]uint64, n)
	for i := n - 1; i >= 0; i-- {
		r.words[i] = new(big.Int).And(x, mask).Uint64()
		x.Rsh(x, 64)
	}
	return r
}

var reductions = map[ir.Type]*reduction{ir.F32: newReduction(ir.F32), ir.F64: newReduction(ir.F64)}
