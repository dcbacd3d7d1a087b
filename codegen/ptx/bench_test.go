// This file benchmarks cold PTX generation for a fused elementwise kernel
// of about ten ops: building the IR, legalizing and emitting the text.

package ptx

import (
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/ptxas"
)

// fusedKernel builds out = ((a*b + c) * 2 + max(a, 0) - |b|) / (c + 1) with
// a sigmoid and a compare-select, over a grid-stride loop: eleven ops, the
// kind of body the planner fuses.
func fusedKernel() *ir.Func {
	f := ir.NewFunc("fused10")
	a := f.AddParam("a", gptr(ir.F32))
	bp := f.AddParam("b", gptr(ir.F32))
	c := f.AddParam("c", gptr(ir.F32))
	out := f.AddParam("out", gptr(ir.F32))
	n := f.AddParam("n", ir.U32)
	for i := range 3 {
		f.Params[i].ReadOnly = true
	}
	f.MaxThreads = 256
	b := ir.NewBuilder(f)
	b.GridStride(n, func(i *ir.Value) {
		x, y, z := b.Load(b.Index(a, i)), b.Load(b.Index(bp, i)), b.Load(b.Index(c, i))
		b.SetComment("fma")
		v := b.FMA(x, y, z)
		b.SetComment("mul")
		v = b.Mul(v, b.F32(2))
		b.SetComment("relu")
		v = b.Add(v, b.Max(x, b.F32(0)))
		b.SetComment("sub abs")
		v = b.Sub(v, b.Abs(y))
		b.SetComment("div")
		v = b.Div(v, b.Add(z, b.F32(1)))
		b.SetComment("sigmoid")
		v = b.MathApprox(ir.MathSigmoid, v)
		b.SetComment("where")
		v = b.Select(b.Gt(v, b.F32(0.5)), v, b.Neg(v))
		b.SetComment("")
		b.Store(b.Index(out, i), v)
	})
	b.Ret()
	return f
}

func BenchmarkEmitFused(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		text, err := Emit(fusedKernel(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(text)))
	}
}

func TestFusedKernelAssembles(t *testing.T) {
	text, err := Emit(fusedKernel(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ptxas.AssembleAll(t, text)
}
