package testkernels

import (
	"math"

	"github.com/fuseflow/fuseflow/kernel"
	"github.com/fuseflow/fuseflow/kernel/math32"
)

// Math64 applies the float64 math functions kernels support; 30 results
// per thread.
//
//fuseflow:kernel
func Math64(t kernel.Thread, x []float64, out []float64) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	v := x[i]
	a := math.Abs(v)
	o := 30 * i
	out[o] = math.Sqrt(a)
	out[o+1] = math.Exp(v)
	out[o+2] = math.Exp2(v)
	out[o+3] = math.Expm1(v)
	out[o+4] = math.Log(a)
	out[o+5] = math.Log2(a)
	out[o+6] = math.Log1p(a)
	out[o+7] = math.Sin(v)
	out[o+8] = math.Cos(v)
	out[o+9] = math.Tan(v)
	out[o+10] = math.Tanh(v)
	out[o+11] = math.Erf(v)
	out[o+12] = math.Pow(a, 1.5)
	out[o+13] = math.Atan2(v, 0.75)
	out[o+14] = math.Floor(v)
	out[o+15] = math.Ceil(v)
	out[o+16] = math.Trunc(v)
	out[o+17] = math.RoundToEven(v)
	out[o+18] = math.FMA(v, 3, -1)
	out[o+19] = math.Copysign(2, v)
	out[o+20] = b2f(math.Signbit(v)) + 2*b2f(math.IsNaN(v)) + 4*b2f(math.IsInf(v, 0)) + 8*b2f(math.IsInf(v, -1))
	out[o+21] = math.Max(v, 0.5)
	out[o+22] = math.Min(v, math.Inf(-1))
	out[o+23] = math.Float64frombits(math.Float64bits(v) ^ 1)
	out[o+24] = float64(math.Float32bits(float32(v)))
	out[o+25] = float64(math.Float32frombits(0x3f800000 + uint32(i)))
	out[o+26] = math.NaN()
	out[o+27] = math.Inf(1) + math.Pi
	out[o+28] = math.Max(math.NaN(), math.Inf(1))
	out[o+29] = math.Min(v, math.NaN())
}

// Math32 applies the float32 math functions of package math32; 24
// results per thread.
//
//fuseflow:kernel
func Math32(t kernel.Thread, x []float32, out []float32) {
	i := t.Grid1()
	if i >= len(x) {
		return
	}
	v := x[i]
	a := math32.Abs(v)
	o := 24 * i
	out[o] = math32.Sqrt(a)
	out[o+1] = math32.Exp(v)
	out[o+2] = math32.Exp2(v)
	out[o+3] = math32.Expm1(v)
	out[o+4] = math32.Log(a)
	out[o+5] = math32.Log2(a)
	out[o+6] = math32.Log1p(a)
	out[o+7] = math32.Sin(v)
	out[o+8] = math32.Cos(v)
	out[o+9] = math32.Tan(v)
	out[o+10] = math32.Tanh(v)
	out[o+11] = math32.Erf(v)
	out[o+12] = math32.Pow(a, 1.5)
	out[o+13] = math32.Atan2(v, 0.75)
	out[o+14] = math32.Floor(v)
	out[o+15] = math32.Ceil(v)
	out[o+16] = math32.Trunc(v)
	out[o+17] = math32.RoundToEven(v)
	out[o+18] = math32.FMA(v, 3, -1)
	out[o+19] = math32.Sigmoid(v)
	out[o+20] = math32.Rsqrt(a + 1)
	if math32.IsNaN(v) || math32.IsInf(v, 1) {
		out[o+21] = 1
	}
	out[o+22] = a
	out[o+23] = float32(math.Sqrt(float64(v * v)))
}
