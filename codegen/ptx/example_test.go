// This file holds the package example: emitting a small kernel.

package ptx_test

import (
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/ptx"
)

// Example emits a kernel that doubles a vector in place and prints the
// module header and the kernel's declaration.
func Example() {
	f := ir.NewFunc("scale")
	x := f.AddParam("x", ir.PtrTo(ir.SpaceGlobal, ir.F32))
	n := f.AddParam("n", ir.U32)
	f.MaxThreads = 128
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		p := b.Index(x, i)
		b.SetComment("mul")
		b.Store(p, b.Mul(b.Load(p), b.F32(2)))
	})
	b.Ret()
	text, err := ptx.Emit(f, ptx.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(text, "\n")
	fmt.Println(strings.Join(lines[4:16], "\n"))
	// Output:
	// .version 7.8
	// .target sm_80
	// .address_size 64
	//
	// 	// .globl	scale
	// .visible .entry scale(
	// 	.param .u64 x,
	// 	.param .u32 n
	// )
	// .maxntid 128, 1, 1
	// {
	// 	.reg .pred 	%p<2>;
}
