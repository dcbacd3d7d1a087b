// This file benchmarks Expand on a kernel that calls every function,
// accurate and approximate, in f32 and f64.

package mathlib

import (
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
)

// BenchmarkExpandAll reports the time to expand the 30 expandable calls
// (15 functions, f32 and f64) of one kernel, and the instructions made.
func BenchmarkExpandAll(b *testing.B) {
	erfcPieces(ir.F32) // the one-time fits are not part of Expand's cost
	instrs := 0
	for b.Loop() {
		b.StopTimer()
		f := allFnsKernel(ir.F32, ir.F64)
		b.StartTimer()
		if err := Expand(f); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		instrs = 0
		for _, blk := range f.Blocks {
			instrs += len(blk.Instrs)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(instrs), "instrs")
}
