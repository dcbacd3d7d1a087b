// Log: a natural logarithm correct for subnormal inputs.

package fmath

import "math"

// smallestNormal is the smallest positive normal float64.
const smallestNormal = 0x1p-1022

// Log returns the natural logarithm of x like math.Log, but correct for
// subnormal x: the amd64 assembly of math.Log does not normalize them and
// is off by up to several units (log(1e-310) comes out near -709.09
// instead of -713.80). Scaling by 2^52 first makes x normal; the scale
// is taken back exactly in the sum.
func Log(x float64) float64 {
	if x > 0 && x < smallestNormal {
		return math.Log(x*0x1p52) - 52*math.Ln2
	}
	return math.Log(x)
}
