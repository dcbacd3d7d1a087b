// This file holds the helper of the tests that run emitted PTX on the
// simulator (internal/ptxsim).

package ptx

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// simKernel emits f with the default options and returns it parsed by
// the simulator, ready to run.
func simKernel(t *testing.T, f *ir.Func) *ptxsim.Kernel {
	t.Helper()
	text, err := Emit(f, Options{})
	require.NoError(t, err)
	m, err := ptxsim.Parse(text)
	require.NoError(t, err)
	k, err := m.Kernel(f.Name)
	require.NoError(t, err)
	return k
}
