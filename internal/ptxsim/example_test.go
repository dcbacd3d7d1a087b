package ptxsim_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// A kernel that scales a vector, launched over two blocks, and the fault
// it reports when the launch gives it too little memory.
func Example() {
	const text = `.version 7.8
.target sm_80
.address_size 64

.visible .entry scale(.param .u64 x, .param .f32 k)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	.reg .f32 %f<4>;
	ld.param.u64 %rd1, [x];
	ld.param.f32 %f1, [k];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %tid.x;
	mad.lo.u32 %r1, %r1, 32, %r2;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.f32 %f2, [%rd3];
	mul.rn.f32 %f3, %f2, %f1;
	st.global.f32 [%rd3], %f3;
	ret;
}
`
	m, err := ptxsim.Parse(text)
	if err != nil {
		fmt.Println(err)
		return
	}
	k, _ := m.Kernel("scale")
	x := make([]byte, 4*64)
	for i := range 64 {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i)))
	}
	cfg := ptxsim.Config{Grid: [3]int{2}, Block: [3]int{32},
		Params: []uint64{0x10000, uint64(math.Float32bits(0.5))},
		Global: []ptxsim.Region{{Name: "x", Addr: 0x10000, Data: x}}}
	st, err := k.Run(cfg)
	fmt.Println(err, st.ThreadInstructions, math.Float32frombits(binary.LittleEndian.Uint32(x[4*63:])))

	cfg.Global[0].Data = x[:4*40]
	_, err = k.Run(cfg)
	fmt.Println(err)
	// Output:
	// <nil> 704 31.5
	// ptxsim: kernel scale, line 17 (ld.global.f32 %f2, [%rd3];), block (1,0,0) thread (8,0,0), address 0x100a0: out-of-bounds 4-byte global read: 0 bytes after the end of x [0x10000, 0x100a0)
}
