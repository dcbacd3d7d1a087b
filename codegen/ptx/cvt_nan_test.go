// Float-to-integer conversions of NaN give 0 as the IR defines, checked
// by running the emitted PTX on the simulator (internal/ptxsim): PTX's
// cvt gives 1 << (width-1) for an .f64 source or a 64-bit destination.

package ptx

import (
	le "encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

func TestFloatToIntNaNIsZero(t *testing.T) {
	for _, from := range []ir.Type{ir.F32, ir.F64} {
		for _, to := range []ir.Type{ir.S8, ir.U8, ir.S16, ir.U16, ir.S32, ir.U32, ir.S64, ir.U64} {
			for _, rnd := range []ir.Rounding{ir.RndDefault, ir.RndRN, ir.RndRM} {
				name := fmt.Sprintf("nan_%s_%s_%d", to, from, rnd)
				f := ir.NewFunc(name)
				in := f.AddParam("in", gptr(from))
				out := f.AddParam("out", gptr(to))
				b := ir.NewBuilder(f)
				b.Store(out, b.CvtRnd(b.Load(in), to, rnd))
				b.Ret()
				k := simKernel(t, f)
				src := make([]byte, 8)
				if from == ir.F32 {
					le.LittleEndian.PutUint32(src, math.Float32bits(float32(math.NaN())))
				} else {
					le.LittleEndian.PutUint64(src, math.Float64bits(math.NaN()))
				}
				dst := []byte{0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5}
				_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{1}, Params: []uint64{0x1000, 0x2000},
					Global: []ptxsim.Region{{Name: "in", Addr: 0x1000, Data: src}, {Name: "out", Addr: 0x2000, Data: dst}}})
				require.NoError(t, err)
				got := le.LittleEndian.Uint64(dst)
				if to.Bits() < 64 {
					got &= 1<<uint(to.Bits()) - 1
				}
				if got != 0 {
					t.Errorf("cvt %s of NaN to %s got:%#x want:0", from, to, got)
				}
			}
		}
	}
}
