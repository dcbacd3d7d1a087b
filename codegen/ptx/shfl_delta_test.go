// Shuffles whose delta or xor mask exceeds 31 give each lane its own
// value, as the IR defines, checked by running the emitted PTX on the
// simulator (internal/ptxsim): PTX's shfl.sync uses only the low 5 bits
// of that operand.

package ptx

import (
	le "encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

func TestShflDeltaBeyondWarp(t *testing.T) {
	for _, mode := range []ir.ShflMode{ir.ShflUp, ir.ShflDown, ir.ShflBfly, ir.ShflIdx} {
		for _, ty := range []ir.Type{ir.U32, ir.F64} {
			name := "shfl_" + mode.String() + "_" + ty.String()
			f := ir.NewFunc(name)
			out := f.AddParam("out", gptr(ty))
			delta := f.AddParam("delta", ir.U32)
			b := ir.NewBuilder(f)
			lane := b.LaneID()
			v := b.Cvt(b.Mul(lane, b.U32(10)), ty)
			r := b.Shfl(mode, v, delta, b.FullMask())
			b.Store(b.Index(out, lane), r)
			b.Ret()
			k := simKernel(t, f)
			for _, d := range []uint32{1, 5, 31, 32, 33, 40, 0xffffffff} {
				buf := make([]byte, 32*8)
				_, err := k.Run(ptxsim.Config{Grid: [3]int{1}, Block: [3]int{32}, Params: []uint64{0x1000, uint64(d)},
					Global: []ptxsim.Region{{Name: "out", Addr: 0x1000, Data: buf}}})
				require.NoError(t, err)
				for l := range 32 {
					src := l // the IR's source lane (ir.ShflMode)
					switch mode {
					case ir.ShflIdx:
						src = int(d & 31)
					case ir.ShflUp:
						if int64(l)-int64(d) >= 0 {
							src = l - int(d)
						}
					case ir.ShflDown:
						if int64(l)+int64(d) <= 31 {
							src = l + int(d)
						}
					case ir.ShflBfly:
						if uint32(l)^d <= 31 {
							src = int(uint32(l) ^ d)
						}
					}
					var got uint64
					if ty == ir.U32 {
						got = uint64(le.LittleEndian.Uint32(buf[4*l:]))
					} else {
						got = uint64(math.Float64frombits(le.LittleEndian.Uint64(buf[8*l:])))
					}
					if got != uint64(10*src) {
						t.Errorf("%s delta %d lane %d got:%d want:%d", name, d, l, got, 10*src)
					}
				}
			}
		}
	}
}
