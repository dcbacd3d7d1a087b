// Tests that Options.PTX forces the module's PTX ISA version and that a
// module written for a newer driver assembles with ptxas once forced to
// what ptxas accepts.

package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxas"
)

func TestCompileForcedISA(t *testing.T) {
	x := graph.Input(graph.Float32, graph.Shape{1000, 300}, "x")
	outs := []*graph.Node{
		graph.Unary(graph.OpTanh, graph.Binary(graph.OpMul, x, x)),
		graph.Reduce(graph.OpSum, x, []int{1}, false),
		graph.Reduce(graph.OpReduceMax, x, []int{0}, false),
		graph.MatMul(x, graph.Permute(x, []int{1, 0})),
	}
	bound := map[*graph.Node]graph.Layout{x: graph.ContiguousLayout(graph.Float32, x.Shape())}
	tg := codegen.H100()
	plan, err := fuse.Build(outs, bound)
	require.NoError(t, err)
	cuda13 := ptx.Version{Major: 13, Minor: 0}
	for _, tc := range []struct {
		opts codegen.Options
		want string
	}{
		{codegen.Options{CUDA: cuda13}, ".version 9.0\n"},
		{codegen.Options{CUDA: cuda13, PTX: ptx.Version{Major: 7, Minor: 8}}, ".version 7.8\n"},
		{codegen.Options{CUDA: cuda13, PTX: ptx.Version{Major: 8, Minor: 5}, FastMath: true}, ".version 8.5\n"},
	} {
		mod, err := codegen.Compile(plan, tg, tc.opts)
		require.NoError(t, err)
		require.True(t, strings.Contains(mod.PTX, tc.want), "options %+v: got:%q want:%q", tc.opts, mod.PTX[:40], tc.want)
	}

	// ptxas 11.8 (what CI has) accepts PTX ISA 7.8 at most, so the .version
	// 9.0 that a CUDA 13 driver gets cannot be assembled here; forced to
	// 7.8, the same kernels assemble for sm_90. A newer ptxas assembles
	// the 9.0 module too.
	path := ptxas.Require(t)
	for _, fast := range []bool{false, true} {
		mod, err := codegen.Compile(plan, tg, codegen.Options{CUDA: cuda13, PTX: ptx.Version{Major: 7, Minor: 8}, FastMath: fast})
		require.NoError(t, err)
		ptxas.AssembleAll(t, mod.PTX, "sm_90")
	}
	v, err := ptxas.Version(path)
	require.NoError(t, err)
	if acceptsISA90(v) {
		mod, err := codegen.Compile(plan, tg, codegen.Options{CUDA: cuda13})
		require.NoError(t, err)
		ptxas.AssembleAll(t, mod.PTX, "sm_90")
	} else {
		t.Logf("%s cannot assemble PTX ISA 9.0: the kernels for CUDA 13 drivers were assembled with the ISA forced to 7.8 only", v)
	}
}

// acceptsISA90 reports whether the ptxas whose version line is v ("Cuda
// compilation tools, release 11.8, V11.8.89") accepts PTX ISA 9.0.
func acceptsISA90(v string) bool {
	_, rel, ok := strings.Cut(v, "release ")
	if !ok {
		return false
	}
	var cuda ptx.Version
	if _, err := fmt.Sscanf(rel, "%d.%d", &cuda.Major, &cuda.Minor); err != nil {
		return false
	}
	isa, err := ptx.CUDAISA(cuda)
	return err == nil && !isa.IsZero() && ptx.CheckISA(ptx.Version{Major: 9, Minor: 0}, ptx.Capability{Major: 9}, cuda) == nil
}
