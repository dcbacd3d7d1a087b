// The 16-bit float conversions on the interpreter agree bit for bit with
// internal/half on every float16 and bfloat16 pattern, the midpoints
// between them and their neighbours.

package ir_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/halftest"
)

func TestHalfConversionsMatchInternalHalf(t *testing.T) {
	xs, hs := halftest.CvtInputs()
	n := len(xs)
	mf16, mbf16, mwide := ir.NewMem(2*n), ir.NewMem(2*n), ir.NewMem(4*n)
	cfg := ir.Config{Grid: [3]int{n / 256}, Block: [3]int{256}}
	require.NoError(t, ir.Run(halftest.CvtKernel(), cfg, ir.MemOf(xs), ir.MemOf(hs), mf16, mbf16, mwide))
	for _, m := range halftest.CvtMismatches(xs, hs, ir.View[uint16](mf16), ir.View[uint16](mbf16), ir.View[uint32](mwide), 20) {
		t.Error(m)
	}
}
