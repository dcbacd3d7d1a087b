// Tests of the default backend's selection by FUSEFLOW_DEVICE.

package array

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDefaultBackendFromEnv(t *testing.T) {
	tests := []struct {
		env, name, err string
	}{
		{"", "ref", ""},
		{"ref", "ref", ""},
		{"cuda", "cuda (unavailable)", `array: FUSEFLOW_DEVICE="cuda": backend "cuda" is not available in this build (available: ref)`},
		{"cpu", "cpu (unavailable)", `backend "cpu" is not available in this build`},
	}
	for _, tt := range tests {
		t.Setenv("FUSEFLOW_DEVICE", tt.env)
		c := newDefault()
		require.Equal(t, tt.name, c.Backend(), "env %q", tt.env)
		if tt.err == "" {
			require.NoError(t, c.Err())
			v, err := c.Ones(Float64, 2).Sum().Value()
			require.NoError(t, err)
			require.Equal(t, 2.0, v)
			continue
		}
		require.ErrorContains(t, c.Err(), tt.err)
		x := c.Ones(Float64, 2)
		require.ErrorContains(t, x.Err(), tt.err)
		require.ErrorContains(t, x.Eval(), tt.err)
		require.ErrorContains(t, FromSlice(c, []float64{1}).Err(), tt.err)
		_, err := NewContext()
		require.ErrorContains(t, err, tt.err)
	}
}

func TestDefaultIsShared(t *testing.T) {
	require.Same(t, Default(), Default())
	require.NotNil(t, Default().Allocator())
}
