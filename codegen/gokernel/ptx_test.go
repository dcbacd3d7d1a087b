// This file assembles the PTX of every test kernel with ptxas for sm_80
// and sm_90, with and without line information, and checks what the
// compiler records beside it: written slices, cooperation, shared memory
// and check sites.

package gokernel_test

import (
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/gokernel"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/fuseflow/fuseflow/kernel"
	"github.com/stretchr/testify/require"
)

func TestTestKernelsAssemble(t *testing.T) {
	compiled(t, "Saxpy")
	ptxas.Require(t)
	var fns []*ir.Func
	for _, k := range testPkg.pkg.Kernels {
		fns = append(fns, k.Func)
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			text, err := k.PTX(ptx.Options{LineInfo: true})
			require.NoError(t, err, k.Name)
			require.Contains(t, text, ".target sm_80")
			ptxas.AssembleAll(t, text, "sm_80")
		})
	}
	// All in one module without line information, for sm_90.
	text, err := ptx.EmitModule(fns, ptx.Options{Arch: ptx.Capability{Major: 9}, ExpandMath: mathExpand})
	require.NoError(t, err)
	ptxas.AssembleAll(t, text, "sm_90")
}

func TestRecordedFacts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		written []string
		sync    kernel.Sync
		shared  int
		checks  bool
	}{
		{"Saxpy", []string{"y"}, 0, 0, true},
		{"TiledMatMul", []string{"c"}, kernel.SyncBarrier | kernel.SyncShared, 2 * 8 * 8 * 4, true},
		{"WarpOps", []string{"out"}, kernel.SyncWarp | kernel.SyncShared, 64 * 4, true},
		{"Histogram", []string{"bins"}, kernel.SyncBarrier | kernel.SyncShared, 64, true},
		{"BlockVotes", []string{"out"}, kernel.SyncBarrier | kernel.SyncShared, 0, true},
		{"Bools", []string{"out", "count"}, 0, 0, true},
		{"Unchecked", []string{"y"}, 0, 0, false},
	} {
		k := compiled(t, tc.name)
		var w []string
		for _, p := range k.Params {
			if p.Written {
				w = append(w, p.Name)
			}
		}
		require.Equal(t, tc.written, w, tc.name)
		require.Equal(t, tc.sync, k.Sync, tc.name)
		require.Equal(t, tc.shared, k.SharedBytes, tc.name)
		require.Equal(t, tc.checks, len(k.Checks) > 0, tc.name)
		for _, c := range k.Checks {
			require.Regexp(t, `^[a-z0-9_]+\.go:\d+:\d+: (index out of range|slice bounds out of range|integer divide by zero|negative shift amount)$`, c)
		}
		hasTrap := strings.Contains(k.Func.String(), "trap")
		require.Equal(t, tc.checks, hasTrap, tc.name)
		if !tc.checks {
			require.True(t, k.NoBounds)
		}
	}
	// A slice only read is read-only: its loads may take the
	// non-coherent path.
	text, err := compiled(t, "Saxpy").PTX(ptx.Options{})
	require.NoError(t, err)
	require.Contains(t, text, "ld.global.nc.f32")
}

var mathExpand = (&gokernel.Kernel{}).ExpandMath
