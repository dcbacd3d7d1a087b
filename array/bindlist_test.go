// Tests of how Eval passes bound results to the CPU backend: as a list
// up to maxBindList of them, as a map beyond, with the same results,
// cold and warm.

package array

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec/cpu"
)

func TestEvalBindsListOrMap(t *testing.T) {
	c := MustContext(WithBackend(cpu.New(cpu.Options{})))
	require.True(t, c.list, "the CPU backend reads bound values from a list")
	for _, n := range []int{1, maxBindList, maxBindList + 1, 3 * maxBindList} {
		t.Run(fmt.Sprintf("inputs=%d", n), func(t *testing.T) {
			ins := make([]*Array, n)
			want := make([]float32, 4)
			for i := range ins {
				v := []float32{float32(i), 1, 2 * float32(i), -1}
				ins[i] = FromSlice(c, v, 4)
				defer ins[i].Release()
				for k := range want {
					want[k] += v[k]
				}
			}
			for round := range 3 { // planned, then warm twice
				sum := ins[0].Add(0)
				for _, x := range ins[1:] {
					sum = sum.Add(x)
				}
				require.NoError(t, Eval(context.Background(), sum))
				got, err := ToSlice[float32](sum)
				require.NoError(t, err)
				if !slices.Equal(got, want) {
					t.Errorf("round %d: got:%v want:%v", round, got, want)
				}
				sum.Release()
			}
		})
	}
}
