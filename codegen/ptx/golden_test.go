// This file implements the golden tests: kernels built with the IR
// builder, emitted, compared with testdata/*.ptx (rewritten by
// go test ./codegen/ptx -update) and assembled by ptxas for sm_80 and
// sm_90.

package ptx

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden PTX files under testdata")

// goldenCases are the kernels with golden PTX.
var goldenCases = []struct {
	name  string
	build func() *ir.Func
	opts  Options
}{
	{"vadd", vaddKernel, Options{}},
	{"strided_scale", stridedKernel, Options{}},
	{"block_sum", blockSumKernel, Options{}},
	{"atomics", atomicsKernel, Options{}},
	{"compare_all", compareKernel, Options{}},
	{"convert_all", convertKernel, Options{}},
	{"vector_copy", vectorKernel, Options{}},
	{"swap_loop", swapLoopKernel, Options{}},
	{"math_native", mathKernel, Options{}},
	{"math_fast", mathKernel, Options{FastMath: true}},
	{"vadd_debug_sm90", vaddKernel, Options{Arch: Capability{9, 0}, Debug: true}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			text, err := Emit(tc.build(), tc.opts)
			require.NoError(t, err)
			path := filepath.Join("testdata", tc.name+".ptx")
			if *update {
				require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "run go test ./codegen/ptx -update to create the golden file")
			require.Equal(t, string(want), text, "PTX of %s differs from %s (rerun with -update after checking the diff)", tc.name, path)
		})
	}
}

// TestGoldenAssembles assembles every golden kernel for sm_80 and sm_90:
// kernels with the same options share one module.
func TestGoldenAssembles(t *testing.T) {
	ptxas.Require(t)
	type group struct {
		opts Options
		fns  []*ir.Func
	}
	var groups []*group
	for _, tc := range goldenCases {
		var g *group
		for _, h := range groups {
			if h.opts.FastMath == tc.opts.FastMath && h.opts.Debug == tc.opts.Debug {
				g = h
			}
		}
		if g == nil {
			g = &group{opts: tc.opts}
			groups = append(groups, g)
		}
		f := tc.build()
		for _, h := range g.fns {
			if h.Name == f.Name {
				f = nil
				break
			}
		}
		if f != nil {
			g.fns = append(g.fns, f)
		}
	}
	for _, g := range groups {
		g.opts.Arch = Capability{}
		text, err := EmitModule(g.fns, g.opts)
		require.NoError(t, err)
		ptxas.AssembleAll(t, text)
	}
}

// assembleModule assembles text for sm_80 and sm_90 (skipping without
// ptxas, as ptxas.AssembleAll does).
func assembleModule(t *testing.T, text string) { ptxas.AssembleAll(t, text) }

// goldenFile compares text with testdata/name.ptx (rewritten under
// -update).
func goldenFile(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", name+".ptx")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./codegen/ptx -update to create the golden file")
	require.Equal(t, string(want), text, "PTX differs from %s (rerun with -update after checking the diff)", path)
}
