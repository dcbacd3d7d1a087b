// Package halftest holds what the tests of the 16-bit float conversions
// share between the IR interpreter (codegen/ir) and the PTX emitter run
// on the simulator (codegen/ptx): the conversion kernel, inputs that
// exercise both formats' rounding, and the check of its outputs against
// internal/half, which is what the IR defines.
package halftest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/half"
)

// CvtKernel builds the kernel "halfcvt" with parameters x (f32), h
// (u16), f16, bf16 (u16) and wide (f32), which per thread i stores
// f16[i] = f32tof16(x[i]), bf16[i] = f32tobf16(x[i]) and wide[i] =
// f16tof32(h[i]).
func CvtKernel() *ir.Func {
	gptrF32, gptrU16 := ir.PtrTo(ir.SpaceGlobal, ir.F32), ir.PtrTo(ir.SpaceGlobal, ir.U16)
	f := ir.NewFunc("halfcvt")
	x := f.AddParam("x", gptrF32)
	h := f.AddParam("h", gptrU16)
	f16 := f.AddParam("f16", gptrU16)
	bf16 := f.AddParam("bf16", gptrU16)
	wide := f.AddParam("wide", gptrF32)
	b := ir.NewBuilder(f)
	i := b.Add(b.Mul(b.CtaidX(), b.NtidX()), b.TidX())
	v := b.Load(b.Index(x, i))
	b.Store(b.Index(f16, i), b.F32ToF16(v))
	b.Store(b.Index(bf16, i), b.F32ToBF16(v))
	b.Store(b.Index(wide, i), b.F16ToF32(b.Load(b.Index(h, i))))
	b.Ret()
	return f
}

// CvtInputs returns the inputs of CvtKernel, a multiple of 256 of each:
// x holds every float16 value with the midpoint to its neighbour away
// from zero and the f32 values either side of it, every bfloat16
// pattern with its midpoint and neighbours, f32 patterns at and above
// float16 midpoints from the smallest exponents up (overflow,
// subnormals and NaNs included in all of these), and random bit
// patterns; h holds the u16 patterns 0, 1, 2, ... (every float16).
func CvtInputs() (x []float32, h []uint16) {
	for p := range uint32(1 << 16) {
		v := half.Float16(p).Float32()
		x = append(x, v)
		if p&0x7c00 != 0x7c00 { // finite: midpoint to the next pattern away from zero
			next := half.Float16(p + 1).Float32()
			if p&0x7fff == 0x7bff { // the largest finite: 65520 is the tie to Inf
				next = float32(math.Copysign(65536, float64(v)))
			}
			m := math.Float32bits((v + next) / 2)
			x = append(x, math.Float32frombits(m), math.Float32frombits(m-1), math.Float32frombits(m+1))
		}
		x = append(x, math.Float32frombits(p<<16|0x8000), math.Float32frombits(p<<16|0x7fff), math.Float32frombits(p<<16|0x8001),
			math.Float32frombits(p<<13|0x1000), math.Float32frombits(p<<13|0x1001))
	}
	r := rand.New(rand.NewPCG(7, 9))
	for range 50000 {
		x = append(x, math.Float32frombits(r.Uint32()))
	}
	for len(x)%256 != 0 {
		x = append(x, 0)
	}
	h = make([]uint16, len(x))
	for i := range h {
		h[i] = uint16(i)
	}
	return x, h
}

// CvtMismatches compares the outputs f16, bf16 and wide of CvtKernel
// for inputs x and h with what internal/half defines, bit for bit (NaNs
// included), and describes the mismatches, the first limit of them (nil
// for none).
func CvtMismatches(x []float32, h []uint16, f16, bf16 []uint16, wide []uint32, limit int) []string {
	var bad []string
	add := func(format string, args ...any) bool {
		bad = append(bad, fmt.Sprintf(format, args...))
		return len(bad) >= limit
	}
	for i, v := range x {
		xb := math.Float32bits(v)
		if got, want := f16[i], uint16(half.FromFloat32(v)); got != want && add("f32tof16(%#08x) got:%#04x want:%#04x", xb, got, want) {
			break
		}
		if got, want := bf16[i], uint16(half.BFromFloat32(v)); got != want && add("f32tobf16(%#08x) got:%#04x want:%#04x", xb, got, want) {
			break
		}
		if got, want := wide[i], math.Float32bits(half.Float16(h[i]).Float32()); got != want && add("f16tof32(%#04x) got:%#08x want:%#08x", h[i], got, want) {
			break
		}
	}
	return bad
}
