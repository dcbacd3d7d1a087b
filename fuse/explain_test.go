// Tests of Explain, WriteDOT and FUSEFLOW_DEBUG=plan.

package fuse

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

func softmaxPlan(t *testing.T) *Plan {
	x := input(8, 16)
	m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
	e := exp(sub(x, m))
	return mustPlanOn(t, H100(), bindAll(e), div(e, graph.Reduce(graph.OpSum, e, []int{1}, true)))
}

func TestExplain(t *testing.T) {
	s := Explain(softmaxPlan(t))
	for _, want := range []string{"3 kernels", "fused: Sub Exp Div", "strides [16 1]", "strategy warp-per-row", "bytes: read 512 written 32", "output 0"} {
		require.Contains(t, s, want)
	}
}

func TestWriteDOT(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, WriteDOT(&b, softmaxPlan(t)))
	s := b.String()
	require.Equal(t, 3, strings.Count(s, "subgraph cluster_"))
	require.True(t, strings.HasPrefix(s, "digraph plan {"))
	require.Contains(t, s, "[style=bold]")
}

func TestDebugPrintsPlan(t *testing.T) {
	t.Setenv("FUSEFLOW_DEBUG", "ptx,plan")
	r, w, err := os.Pipe()
	require.NoError(t, err)
	old := os.Stderr
	os.Stderr = w
	softmaxPlan(t)
	os.Stderr = old
	require.NoError(t, w.Close())
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	require.Contains(t, string(out), "plan for H100: 3 kernels")
}
