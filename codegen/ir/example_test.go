package ir_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// Example builds a kernel that scales a vector with a grid-stride loop,
// verifies it and prints its text form.
func Example() {
	f := ir.NewFunc("scale")
	x := f.AddParam("x", ir.PtrTo(ir.SpaceGlobal, ir.F32))
	n := f.AddParam("n", ir.U32)
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		p := b.Index(x, i)
		b.Store(p, b.Mul(b.Load(p), b.F32(2)))
	})
	b.Ret()
	if err := f.Verify(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(f)
	// Output:
	// kernel @scale(%x: ptr.global.f32, %n: u32) {
	// entry:
	//   %ctaid_x = special.ctaid.x
	//   %ntid_x = special.ntid.x
	//   %tid_x = special.tid.x
	//   %5 = mul.u32 %ctaid_x, %ntid_x
	//   %gid = add.u32 %5, %tid_x
	//   %ntid_x1 = special.ntid.x
	//   %nctaid_x = special.nctaid.x
	//   %gsize = mul.u32 %ntid_x1, %nctaid_x
	//   br for_head(%gid)
	// for_head(%i: u32):
	//   %11 = cmp.lt.u32 %i, %n
	//   condbr %11, for_body, for_end
	// for_body:
	//   %12 = index.ptr.global.f32 %x, %i
	//   %13 = ld.global.f32 %12
	//   %15 = mul.f32 %13, 2:f32
	//   st.global.f32 %12, %15
	//   %16 = add.u32 %i, %gsize
	//   br for_head(%16)
	// for_end:
	//   ret
	// }
}

// ExampleRun builds a kernel that sums a vector into one value with an
// atomic add per thread and runs it on the interpreter.
func ExampleRun() {
	f := ir.NewFunc("sum")
	x := f.AddParam("x", ir.PtrTo(ir.SpaceGlobal, ir.S32))
	out := f.AddParam("out", ir.PtrTo(ir.SpaceGlobal, ir.S32))
	n := f.AddParam("n", ir.S32)
	b := ir.NewBuilder(f)
	part := b.GridStrideCarry(n, []*ir.Value{b.S32(0)}, func(i *ir.Value, acc []*ir.Value) []*ir.Value {
		return []*ir.Value{b.Add(acc[0], b.Load(b.Index(x, i)))}
	})
	b.Atomic(ir.AtomAdd, out, part[0])
	b.Ret()

	xs := make([]int32, 1000)
	for i := range xs {
		xs[i] = int32(i)
	}
	res := ir.NewMem(4)
	err := ir.Run(f, ir.Config{Grid: [3]int{2}, Block: [3]int{128}}, ir.MemOf(xs), res, len(xs))
	fmt.Println(ir.View[int32](res)[0], err)

	// Reading past the end is an error that names the buffer.
	err = ir.Run(f, ir.Config{Grid: [3]int{2}, Block: [3]int{128}}, ir.MemOf(xs), res, len(xs)+1)
	fmt.Println(err)
	// Output:
	// 499500 <nil>
	// ir: run @sum: block (1,0,0) thread (104,0,0): at for_body instr 1 (%18 = ld.global.s32 %17): out-of-bounds load of parameter "x": offset 4000, size 4, the buffer is 4000 bytes
}
