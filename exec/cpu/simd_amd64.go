//go:build goexperiment.simd

// Vector loops for float32 on AVX2 (GOEXPERIMENT=simd, Go's
// simd/archsimd): Add, Sub, Mul, Div, Sqrt, Neg, Exp and Sigmoid, Sum and
// Max/Min over rows. They replace the scalar table entries at init when
// the CPU has AVX2 and FMA. Add, Sub, Mul, Div, Sqrt and Neg are IEEE
// operations and give the scalar loops' bits; Sum adds in the scalar
// loop's order (eight lanes are its eight partial sums) and gives its
// bits; Max and Min track NaN and signed zeros apart and agree with the
// scalar loops. Exp and Sigmoid are computed in float32 (Cody-Waite
// reduction, a degree-6 polynomial, the exponent added to the bits):
// within 2 ulp of the correctly rounded result where it is normal;
// subnormal, overflowing and NaN results are computed by the scalar path.
// This file is built only with GOEXPERIMENT=simd; the default build uses
// the scalar loops.

package cpu

import (
	"math"
	"simd/archsimd"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// simdEnabled reports whether the vector loops are installed.
var simdEnabled = archsimd.X86.AVX2() && archsimd.X86.FMA()

func init() {
	if !simdEnabled {
		return
	}
	b := &binaryTab[graph.Float32]
	b[graph.OpAdd] = binary(addV32)
	b[graph.OpSub] = binary(subV32)
	b[graph.OpMul] = binary(mulV32)
	b[graph.OpDiv] = binary(divV32)
	u := &unaryTab[graph.Float32]
	u[graph.OpSqrt] = unary(sqrtV32)
	u[graph.OpNeg] = unary(negV32)
	u[graph.OpExp] = unary(expV32)
	u[graph.OpSigmoid] = unary(sigmoidV32)
	sumBlocks32 = sumBlocksV32
	foldTab[graph.OpReduceMax][graph.Float32] = extremeRowV32(true)
	foldTab[graph.OpReduceMin][graph.Float32] = extremeRowV32(false)
}

// Every vector loop ends with VZEROUPPER (archsimd.ClearAVXUpperBits):
// the scalar SSE code that follows would otherwise pay for the dirty
// upper halves of the vector registers on every instruction (scalar
// square roots and exponentials measured three times slower).

// ld loads s[i:i+8]; st stores v there.
func ld(s []float32, i int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(s[i : i+8]))
}
func st(v archsimd.Float32x8, s []float32, i int) { v.Store((*[8]float32)(s[i : i+8])) }

func addV32(d, a, b []float32) {
	d, b = d[:len(a)], b[:len(a)]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		st(ld(a, i).Add(ld(b, i)), d, i)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = a[i] + b[i]
	}
}

func subV32(d, a, b []float32) {
	d, b = d[:len(a)], b[:len(a)]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		st(ld(a, i).Sub(ld(b, i)), d, i)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = a[i] - b[i]
	}
}

func mulV32(d, a, b []float32) {
	d, b = d[:len(a)], b[:len(a)]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		st(ld(a, i).Mul(ld(b, i)), d, i)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = a[i] * b[i]
	}
}

func divV32(d, a, b []float32) {
	d, b = d[:len(a)], b[:len(a)]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		st(ld(a, i).Div(ld(b, i)), d, i)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = a[i] / b[i]
	}
}

func sqrtV32(d, a []float32) {
	d = d[:len(a)]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		st(ld(a, i).Sqrt(), d, i)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = float32(math.Sqrt(float64(a[i])))
	}
}

func negV32(d, a []float32) {
	d = d[:len(a)]
	sign := archsimd.BroadcastInt32x8(math.MinInt32)
	i := 0
	for ; i+8 <= len(a); i += 8 {
		st(ld(a, i).AsInt32x8().Xor(sign).AsFloat32x8(), d, i)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = -a[i]
	}
}

// Constants of the float32 exponential: ln2 split for Cody-Waite
// reduction, and a degree-6 polynomial for e^r on [-ln2/2, ln2/2].
const (
	expHi32  = 88.0  // above: overflow, or too close to it for the scaling
	expLo32  = -86.5 // below: the result may be subnormal (k < -125)
	ln2Hi32  = 0.693359375
	ln2Lo32  = -2.12194440e-4
	epC0     = 1.9875691500e-4
	epC1     = 1.3981999507e-3
	epC2     = 8.3334519073e-3
	epC3     = 4.1665795894e-2
	epC4     = 1.6666665459e-1
	epC5     = 5.0000001201e-1
	log2e32  = 1.44269504088896341
	expBias  = 127
	mantBits = 23
)

// expVec returns e^x for lanes within [expLo32, expHi32], and a mask of
// the lanes that are not (NaN included).
func expVec(x archsimd.Float32x8) (archsimd.Float32x8, uint8) {
	hi, lo := archsimd.BroadcastFloat32x8(expHi32), archsimd.BroadcastFloat32x8(expLo32)
	ok := x.LessEqual(hi).And(x.GreaterEqual(lo)) // false for NaN
	k := x.Mul(archsimd.BroadcastFloat32x8(log2e32)).RoundToEven()
	r := k.MulAdd(archsimd.BroadcastFloat32x8(-ln2Hi32), x)
	r = k.MulAdd(archsimd.BroadcastFloat32x8(-ln2Lo32), r)
	z := r.Mul(r)
	p := archsimd.BroadcastFloat32x8(epC0)
	p = p.MulAdd(r, archsimd.BroadcastFloat32x8(epC1))
	p = p.MulAdd(r, archsimd.BroadcastFloat32x8(epC2))
	p = p.MulAdd(r, archsimd.BroadcastFloat32x8(epC3))
	p = p.MulAdd(r, archsimd.BroadcastFloat32x8(epC4))
	p = p.MulAdd(r, archsimd.BroadcastFloat32x8(epC5))
	p = p.MulAdd(z, r).Add(archsimd.BroadcastFloat32x8(1))
	ki := k.ConvertToInt32().ShiftAllLeft(mantBits)
	y := p.AsInt32x8().Add(ki).AsFloat32x8()
	return y, ^ok.ToBits()
}

func expV32(d, a []float32) {
	d = d[:len(a)]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		y, bad := expVec(ld(a, i))
		st(y, d, i)
		if bad != 0 {
			archsimd.ClearAVXUpperBits()
			for j := i; j < i+8; j++ {
				d[j] = exp32(a[j])
			}
		}
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = exp32(a[i])
	}
}

func sigmoidV32(d, a []float32) {
	d = d[:len(a)]
	one := archsimd.BroadcastFloat32x8(1)
	sign := archsimd.BroadcastInt32x8(math.MinInt32)
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := ld(a, i)
		e, bad := expVec(x.AsInt32x8().Xor(sign).AsFloat32x8())
		st(one.Div(one.Add(e)), d, i)
		if bad != 0 {
			archsimd.ClearAVXUpperBits()
			for j := i; j < i+8; j++ {
				d[j] = sigmoid32(a[j])
			}
		}
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(a); i++ {
		d[i] = sigmoid32(a[i])
	}
}

// sumBlocksV32 is sumBlocks32Go with the eight partial sums in one
// vector: the same additions in the same order.
func sumBlocksV32(acc float64, v []float32) float64 {
	var lanes [8]float32
	for len(v) >= sumBlock32 {
		b := v[:sumBlock32:sumBlock32]
		s := ld(b, 0)
		for j := 8; j < sumBlock32; j += 8 {
			s = s.Add(ld(b, j))
		}
		s.Store(&lanes)
		archsimd.ClearAVXUpperBits()
		acc += (float64(lanes[0]) + float64(lanes[1]) + float64(lanes[2]) + float64(lanes[3])) +
			(float64(lanes[4]) + float64(lanes[5]) + float64(lanes[6]) + float64(lanes[7]))
		v = v[sumBlock32:]
	}
	for _, x := range v {
		acc += float64(x)
	}
	return acc
}

// extremeRowV32 folds a row into a Max (isMax) or Min: lane-wise
// extremes with NaN noted apart (VMAXPS and VMINPS do not propagate it);
// a zero result, where -0 and +0 must be told apart, is left to the
// scalar loop.
func extremeRowV32(isMax bool) foldFn {
	scalar := maxRowF[float32]
	if !isMax {
		scalar = minRowF[float32]
	}
	return func(s *accum, p unsafe.Pointer, n int, pos int64) {
		v := view[float32](p, n)
		if len(v) < 16 {
			scalar(s, p, n, pos)
			return
		}
		m := ld(v, 0)
		var nan uint8
		i := 8
		for ; i+8 <= len(v); i += 8 {
			x := ld(v, i)
			nan |= x.NotEqual(x).ToBits()
			if isMax {
				m = m.Max(x)
			} else {
				m = m.Min(x)
			}
		}
		first := ld(v, 0)
		nan |= first.NotEqual(first).ToBits()
		var lanes [8]float32
		m.Store(&lanes)
		archsimd.ClearAVXUpperBits()
		r := lanes[0]
		for _, x := range lanes[1:] {
			if isMax {
				r = max(r, x)
			} else {
				r = min(r, x)
			}
		}
		for ; i < len(v); i++ {
			if isMax {
				r = max(r, v[i])
			} else {
				r = min(r, v[i])
			}
		}
		switch {
		case nan != 0:
			s.f = math.NaN()
		case r == 0:
			scalar(s, p, n, pos)
		case isMax:
			s.f = max(s.f, float64(r))
		default:
			s.f = min(s.f, float64(r))
		}
	}
}
