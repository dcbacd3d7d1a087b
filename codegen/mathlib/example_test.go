package mathlib_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
)

// Example expands exp(x) on f32 and runs the expansion on the IR
// interpreter: the kernel then holds only arithmetic, compares, selects,
// conversions and a native round-to-integer call.
func Example() {
	f := ir.NewFunc("exp_kernel")
	x := f.AddParam("x", ir.PtrTo(ir.SpaceGlobal, ir.F32))
	n := f.AddParam("n", ir.S32)
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		p := b.Index(x, i)
		b.Store(p, b.Math(ir.MathExp, b.Load(p)))
	})
	b.Ret()
	if err := mathlib.Expand(f); err != nil {
		fmt.Println(err)
		return
	}
	native := 0
	for _, blk := range f.Blocks {
		for _, in := range blk.Instrs {
			if in.Op == ir.OpMath {
				native++
				fmt.Println("left:", in.Fn, mathlib.IsNative(in.Fn))
			}
		}
	}
	m := ir.MemOf([]float32{0, 1, -1, 100})
	if err := ir.Run(f, ir.Config{Grid: [3]int{1}, Block: [3]int{32}}, m, 4); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ir.View[float32](m))
	// Output:
	// left: roundeven true
	// [1 2.7182817 0.36787945 +Inf]
}
