// This file computes fused multiply-adds exactly for the tests.

package math32_test

import "math/big"

// fmaBig returns x*y+z computed exactly and rounded once to float32.
func fmaBig(x, y, z float32) float32 {
	p := new(big.Float).SetPrec(0).SetMode(big.ToNearestEven)
	bx := new(big.Float).SetPrec(200).SetFloat64(float64(x))
	by := new(big.Float).SetPrec(200).SetFloat64(float64(y))
	bz := new(big.Float).SetPrec(200).SetFloat64(float64(z))
	p.SetPrec(200).Mul(bx, by)
	p.Add(p, bz)
	f, _ := p.Float32()
	return f
}
