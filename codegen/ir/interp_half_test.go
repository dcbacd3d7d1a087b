package ir

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/internal/half"
	"github.com/stretchr/testify/require"
)

// halfKernel builds, per thread i: f16[i] = f32tof16(x[i]), bf16[i] =
// f32tobf16(x[i]), wide[i] = f16tof32(h[i]).
func halfKernel() *Func {
	gptrU16 := PtrTo(SpaceGlobal, U16)
	f := NewFunc("halfcvt")
	x := f.AddParam("x", gptrF32)
	h := f.AddParam("h", gptrU16)
	f16 := f.AddParam("f16", gptrU16)
	bf16 := f.AddParam("bf16", gptrU16)
	wide := f.AddParam("wide", gptrF32)
	b := NewBuilder(f)
	i := b.Add(b.Mul(b.CtaidX(), b.NtidX()), b.TidX())
	v := b.Load(b.Index(x, i))
	b.Store(b.Index(f16, i), b.F32ToF16(v))
	b.Store(b.Index(bf16, i), b.F32ToBF16(v))
	b.Store(b.Index(wide, i), b.F16ToF32(b.Load(b.Index(h, i))))
	b.Ret()
	return f
}

// halfInputs returns f32 values that exercise both formats' rounding:
// every float16 value with the midpoints to its neighbour and the f32
// values either side of them, every bfloat16 pattern with its midpoint
// and neighbours (overflow, subnormals and NaNs included), and random
// bit patterns.
func halfInputs() []float32 {
	var xs []float32
	for p := range 1 << 16 {
		v := half.Float16(p).Float32()
		xs = append(xs, v)
		if p&0x7c00 != 0x7c00 { // finite: midpoint to the next pattern away from zero
			next := half.Float16(p + 1).Float32()
			if p&0x7fff == 0x7bff { // the largest finite: 65520 is the tie to Inf
				next = float32(math.Copysign(65536, float64(v)))
			}
			mid := (v + next) / 2
			m := math.Float32bits(mid)
			xs = append(xs, mid, math.Float32frombits(m-1), math.Float32frombits(m+1))
		}
		b := uint32(p) << 16
		xs = append(xs, math.Float32frombits(b|0x8000), math.Float32frombits(b|0x7fff), math.Float32frombits(b|0x8001))
	}
	r := rand.New(rand.NewPCG(7, 9))
	for range 50000 {
		xs = append(xs, math.Float32frombits(r.Uint32()))
	}
	for len(xs)%256 != 0 {
		xs = append(xs, 0)
	}
	return xs
}

func TestHalfConversionsMatchInternalHalf(t *testing.T) {
	xs := halfInputs()
	n := len(xs)
	hs := make([]uint16, n)
	for i := range hs {
		hs[i] = uint16(i)
	}
	mf16, mbf16, mwide := NewMem(2*n), NewMem(2*n), NewMem(4*n)
	require.NoError(t, Run(halfKernel(), launch(n/256, 256), MemOf(xs), MemOf(hs), mf16, mbf16, mwide))
	gf16, gbf16, gwide := View[uint16](mf16), View[uint16](mbf16), View[uint32](mwide)
	bad := 0
	for i, x := range xs {
		xb := math.Float32bits(x)
		if got, want := gf16[i], uint16(half.FromFloat32(x)); got != want {
			t.Errorf("f32tof16(%#08x) got:%#04x want:%#04x", xb, got, want)
			bad++
		}
		if got, want := gbf16[i], uint16(half.BFromFloat32(x)); got != want {
			t.Errorf("f32tobf16(%#08x) got:%#04x want:%#04x", xb, got, want)
			bad++
		}
		if got, want := gwide[i], math.Float32bits(half.Float16(hs[i]).Float32()); got != want {
			t.Errorf("f16tof32(%#04x) got:%#08x want:%#08x", hs[i], got, want)
			bad++
		}
		if bad > 20 {
			t.Fatal("too many mismatches")
		}
	}
}

func TestHalfConversionsVerify(t *testing.T) {
	f := NewFunc("badhalf")
	x := f.AddParam("x", gptrU32)
	b := NewBuilder(f)
	v := b.Load(b.Index(x, b.TidX()))
	b.Emit(OpF32ToF16, U16, v) // a u32 operand: must be f32
	b.Ret()
	err := f.Verify()
	require.Error(t, err)
	require.Contains(t, err.Error(), "f32tof16 converts f32 to u16, got u32 to u16")
}
