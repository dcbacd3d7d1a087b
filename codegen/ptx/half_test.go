// The 16-bit float conversions run on the simulator (internal/ptxsim)
// from the PTX emitted for sm_70 (bfloat16 rounded with integer
// operations), sm_80 and sm_90 (cvt.rn.bf16.f32), and agree bit for bit
// with internal/half, which is what the IR defines, NaNs included: the
// simulator's cvt gives the canonical NaN, which the templates' fix-up
// replaces by the IR's.

package ptx

import (
	le "encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/half"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// halfCvtKernel: f16[i] = f32tof16(x[i]), bf16[i] = f32tobf16(x[i]),
// wide[i] = f16tof32(h[i]).
func halfCvtKernel() *ir.Func {
	f := ir.NewFunc("halfcvt")
	x := f.AddParam("x", gptr(ir.F32))
	h := f.AddParam("h", gptr(ir.U16))
	f16 := f.AddParam("f16", gptr(ir.U16))
	bf16 := f.AddParam("bf16", gptr(ir.U16))
	wide := f.AddParam("wide", gptr(ir.F32))
	b := ir.NewBuilder(f)
	i := b.Add(b.Mul(b.CtaidX(), b.NtidX()), b.TidX())
	v := b.Load(b.Index(x, i))
	b.Store(b.Index(f16, i), b.F32ToF16(v))
	b.Store(b.Index(bf16, i), b.F32ToBF16(v))
	b.Store(b.Index(wide, i), b.F16ToF32(b.Load(b.Index(h, i))))
	b.Ret()
	return f
}

// halfCvtInputs returns every bfloat16 pattern as an f32 with its
// midpoint to the next and the f32 values either side of that (ties,
// overflow, subnormals and NaNs), every float16 value, and random bits.
func halfCvtInputs() []float32 {
	var xs []float32
	for p := range uint32(1 << 16) {
		xs = append(xs, half.Float16(p).Float32(), math.Float32frombits(p<<16|0x8000),
			math.Float32frombits(p<<16|0x7fff), math.Float32frombits(p<<16|0x8001),
			math.Float32frombits(p<<13|0x1000), math.Float32frombits(p<<13|0x1001))
	}
	r := rand.New(rand.NewPCG(3, 5))
	for range 1 << 14 {
		xs = append(xs, math.Float32frombits(r.Uint32()))
	}
	return xs[:len(xs)/256*256]
}

func TestHalfConversionsOnSimulator(t *testing.T) {
	xs := halfCvtInputs()
	n := len(xs)
	hs := make([]uint16, n)
	for i := range hs {
		hs[i] = uint16(i)
	}
	f := halfCvtKernel()
	// What the IR defines (codegen/ir checks its interpreter against
	// internal/half on every pattern).
	want := [3][]byte{make([]byte, 2*n), make([]byte, 2*n), make([]byte, 4*n)}
	for i, x := range xs {
		le.LittleEndian.PutUint16(want[0][2*i:], uint16(half.FromFloat32(x)))
		le.LittleEndian.PutUint16(want[1][2*i:], uint16(half.BFromFloat32(x)))
		le.LittleEndian.PutUint32(want[2][4*i:], math.Float32bits(half.Float16(hs[i]).Float32()))
	}
	grid, block := [3]int{n / 256}, [3]int{256}
	for _, arch := range []Capability{{7, 0}, {8, 0}, {9, 0}} {
		t.Run(arch.String(), func(t *testing.T) {
			text, err := Emit(f, Options{Arch: arch})
			require.NoError(t, err)
			require.Equal(t, arch.AtLeast(8, 0), strings.Contains(text, "cvt.rn.bf16.f32"), "native bfloat16 rounding on %s", arch)
			require.Contains(t, text, "cvt.rn.f16.f32")
			require.Contains(t, text, "cvt.f32.f16")
			ptxas.AssembleAll(t, text, arch.String())
			m, err := ptxsim.Parse(text)
			require.NoError(t, err)
			k, err := m.Kernel(f.Name)
			require.NoError(t, err)
			regions := []ptxsim.Region{
				{Name: "x", Addr: 0x1000_0000, Data: ir.MemOf(xs).Data},
				{Name: "h", Addr: 0x2000_0000, Data: ir.MemOf(hs).Data},
				{Name: "f16", Addr: 0x3000_0000, Data: make([]byte, 2*n)},
				{Name: "bf16", Addr: 0x4000_0000, Data: make([]byte, 2*n)},
				{Name: "wide", Addr: 0x5000_0000, Data: make([]byte, 4*n)},
			}
			params := make([]uint64, len(regions))
			for i, r := range regions {
				params[i] = r.Addr
			}
			_, err = k.Run(ptxsim.Config{Grid: grid, Block: block, Params: params, Global: regions})
			require.NoError(t, err)
			bad := 0
			for i, r := range regions[2:] {
				want := want[i]
				w := 2 << (i / 2) // bytes per element
				for j := 0; j < len(want) && bad < 10; j += w {
					if g, wt := r.Data[j:j+w], want[j:j+w]; string(g) != string(wt) {
						t.Errorf("%s of %#08x / %#04x: got:%x want:%x", r.Name,
							math.Float32bits(xs[j/w]), hs[j/w], le.LittleEndian.Uint32(append(g[:w:w], 0, 0)), le.LittleEndian.Uint32(append(wt[:w:w], 0, 0)))
						bad++
					}
				}
			}
		})
	}
}
