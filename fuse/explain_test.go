// Tests of Explain, WriteDOT and FUSEFLOW_DEBUG=plan.

package fuse

import (
	"bytes"
	"fmt"
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
	return mustPlanOn(t, bindAll(e), div(e, graph.Reduce(graph.OpSum, e, []int{1}, true)))
}

func TestExplain(t *testing.T) {
	s := Explain(softmaxPlan(t))
	for _, want := range []string{"plan: 3 kernels", "fused: Sub Exp Div", "strides [16 1]", "bytes: read 512 written 32", "output 0"} {
		require.Contains(t, s, want)
	}
	require.NotContains(t, s, "block", "the plan holds nothing about threads")
}

// noteTarget annotates kernel i with "kernel i of n".
type noteTarget struct{ n int }

func (noteTarget) Target() string { return "test" }
func (a noteTarget) Kernel(i int) string {
	if i == 1 {
		return "" // adds nothing
	}
	return fmt.Sprintf("kernel %d of %d", i, a.n)
}

func TestExplainFor(t *testing.T) {
	p := softmaxPlan(t)
	s := ExplainFor(p, noteTarget{len(p.Kernels)})
	require.Contains(t, s, "plan for test: 3 kernels")
	require.Contains(t, s, "  test: kernel 0 of 3\n")
	require.Contains(t, s, "  test: kernel 2 of 3\n")
	require.NotContains(t, s, "kernel 1 of 3")
	require.Equal(t, strings.Count(Explain(p), "\n")+2, strings.Count(s, "\n"), "one line for each kernel annotated")
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
	require.Contains(t, string(out), "plan: 3 kernels")
}
