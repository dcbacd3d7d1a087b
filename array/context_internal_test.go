// Tests of the default backend's selection by FUSEFLOW_DEVICE.

package array

import (
	"github.com/fuseflow/fuseflow/exec/cuda"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDefaultBackendFromEnv(t *testing.T) {
	gpu, _ := cuda.Available()
	auto := "cpu"
	if gpu {
		auto = "cuda:0"
	}
	tests := []struct {
		env, name, err string
		noGPU          bool // only meaningful where no CUDA device exists
	}{
		{env: "", name: auto},
		{env: "ref", name: "ref"},
		{env: "cpu", name: "cpu"},
		{env: "cuda", name: "cuda (unavailable)", err: `array: FUSEFLOW_DEVICE="cuda": `, noGPU: true},
		{env: "cuda:x", name: "cuda:x (unavailable)", err: `want cuda:N with a device number`},
		{env: "tpu", name: "tpu (unavailable)", err: `array: FUSEFLOW_DEVICE="tpu": unknown backend (want cpu, ref, cuda or cuda:N)`},
	}
	for _, tt := range tests {
		if tt.noGPU && gpu {
			continue
		}
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
