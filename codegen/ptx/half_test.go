// The 16-bit float conversions run on the simulator (internal/ptxsim)
// from the PTX emitted for sm_70 (bfloat16 rounded with integer
// operations), sm_80 and sm_90 (cvt.rn.bf16.f32), and agree bit for bit
// with internal/half, which is what the IR defines, NaNs included: the
// simulator's cvt gives the canonical NaN, which the templates' fix-up
// replaces by the IR's.

package ptx

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/halftest"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

func TestHalfConversionsOnSimulator(t *testing.T) {
	xs, hs := halftest.CvtInputs()
	n := len(xs)
	f := halftest.CvtKernel()
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
			out := func(i int) *ir.Mem { return &ir.Mem{Data: regions[i].Data} }
			for _, m := range halftest.CvtMismatches(xs, hs, ir.View[uint16](out(2)), ir.View[uint16](out(3)), ir.View[uint32](out(4)), 10) {
				t.Error(m)
			}
		})
	}
}
