// Half precision for the reference evaluator: float16 and bfloat16
// elements decoded to float64 and encoded from it, written here from the
// formats' definitions (not shared with the fast paths, so that they check
// each other).

package ref

import (
	"math"

	"github.com/fuseflow/fuseflow/graph"
)

// halfFormat is a 16-bit float format: exponent and fraction bits.
type halfFormat struct{ exp, frac int }

func formatOf(d graph.DType) halfFormat {
	if d == graph.BFloat16 {
		return halfFormat{8, 7}
	}
	return halfFormat{5, 10}
}

// halfToFloat returns the value of the 16-bit pattern h of dtype d.
func halfToFloat(d graph.DType, h uint16) float64 {
	f := formatOf(d)
	bias := 1<<(f.exp-1) - 1
	sign := 1.0
	if h>>15 != 0 {
		sign = -1
	}
	e := int(h>>f.frac) & (1<<f.exp - 1)
	m := float64(int(h) & (1<<f.frac - 1))
	switch e {
	case 0:
		return sign * math.Ldexp(m, 1-bias-f.frac)
	case 1<<f.exp - 1:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1+math.Ldexp(m, -f.frac), e-bias)
}

// floatToHalf returns the 16-bit pattern of dtype d nearest to v
// (graph.RoundFloat's rounding); NaN is the quiet NaN with the sign of v.
func floatToHalf(d graph.DType, v float64) uint16 {
	f := formatOf(d)
	bias := 1<<(f.exp-1) - 1
	var sign uint16
	if math.Signbit(v) {
		sign = 1 << 15
	}
	maxE := uint16(1<<f.exp - 1)
	switch {
	case v != v:
		return sign | maxE<<f.frac | 1<<(f.frac-1)
	}
	r := math.Abs(graph.RoundFloat(d, v))
	switch {
	case math.IsInf(r, 0):
		return sign | maxE<<f.frac
	case r == 0:
		return sign
	}
	_, e := math.Frexp(r) // r = m * 2^e, m in [0.5, 1)
	if e-1 < 1-bias {     // subnormal
		return sign | uint16(math.Ldexp(r, bias-1+f.frac))
	}
	m := math.Ldexp(r, -(e - 1)) // [1, 2)
	return sign | uint16(e-1+bias)<<f.frac | uint16(math.Ldexp(m-1, f.frac))
}

// storeHalf encodes the values of src into dst as dtype d.
func storeHalf(dst []uint16, src []float64, d graph.DType) {
	for k, v := range src {
		dst[k] = floatToHalf(d, v)
	}
}
