// Tests of the forced PTX ISA version (FUSEFLOW_PTX_ISA, Options.PTX)
// and of the message of a module the driver's JIT rejects.

package cuda

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen/ptx"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
	"github.com/fuseflow/fuseflow/internal/ptxas"
)

// withDriverVersion makes the fake report CUDA version v until the test
// ends.
func withDriverVersion(t *testing.T, f *fakeDriver, v int32) {
	f.SetDriverVersion(v)
	t.Cleanup(func() { f.SetDriverVersion(12080) })
}

// compiledPTX returns the module b generates for outs over contiguous
// inputs.
func compiledPTX(t *testing.T, b *Backend, outs ...*graph.Node) string {
	t.Helper()
	plan, _, err := b.planOf(outs, graph.InputLayouts(outs...))
	require.NoError(t, err)
	m, err := b.compile(plan, b.Target())
	require.NoError(t, err)
	return m.PTX
}

func TestForcedPTXISA(t *testing.T) {
	f := needFake(t)
	x := graph.Input(graph.Float32, graph.Shape{1000}, "x")
	out := graph.Unary(graph.OpTanh, graph.Binary(graph.OpMul, x, x))
	for _, tc := range []struct {
		driver  int32
		env     string
		opt     ptx.Version
		want    string
		wantErr string
	}{
		{driver: 12080, want: ".version 8.7\n"},
		{driver: 13000, want: ".version 9.0\n"},
		{driver: 13000, env: "7.8", want: ".version 7.8\n"},
		{driver: 12080, env: "8.5", want: ".version 8.5\n"},
		{driver: 13000, env: "8.5", opt: ptx.Version{Major: 8, Minor: 0}, want: ".version 8.0\n"}, // the option wins
		{driver: 13000, env: "banana", wantErr: `cuda: device 0: FUSEFLOW_PTX_ISA="banana": ptx: PTX ISA version "banana": want major.minor, such as 8.5`},
		{driver: 13000, env: "8.9", wantErr: `FUSEFLOW_PTX_ISA="8.9": ptx: PTX ISA version 8.9 does not exist: versions go from 6.0 to 9.0`},
		{driver: 13000, env: " 8.5", wantErr: `FUSEFLOW_PTX_ISA=" 8.5": ptx: PTX ISA version " 8.5": want major.minor`},
		{driver: 12080, env: "9.0", wantErr: "FUSEFLOW_PTX_ISA=9.0: ptx: CUDA 12.8 accepts PTX ISA 8.7 at most, not 9.0"},
		{driver: 13000, env: "7.0", wantErr: "FUSEFLOW_PTX_ISA=7.0: ptx: sm_90 needs PTX ISA 7.8 or newer, not 7.0"},
		{driver: 13000, opt: ptx.Version{Major: 7, Minor: 5}, wantErr: "Options.PTX: ptx: sm_90 needs PTX ISA 7.8 or newer, not 7.5"},
	} {
		f.SetDriverVersion(tc.driver)
		t.Setenv(PTXISAEnv, tc.env)
		b, err := New(0, Options{PTX: tc.opt})
		f.SetDriverVersion(12080)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("driver %d, %s=%q, Options.PTX %v: got:%v want:%q", tc.driver, PTXISAEnv, tc.env, tc.opt, err, tc.wantErr)
			}
			if b != nil {
				b.Close()
			}
			continue
		}
		require.NoError(t, err)
		got := compiledPTX(t, b, out)
		require.NoError(t, b.Close())
		if !strings.Contains(got, tc.want) {
			t.Errorf("driver %d, %s=%q, Options.PTX %v: got:%q want:%q", tc.driver, PTXISAEnv, tc.env, tc.opt, got[:60], tc.want)
		}
	}
}

// A module the JIT rejects is an error with the JIT's log, the ISA and
// target the module declares, and how to force another ISA; forcing one
// makes the next backend work.
func TestRejectedModuleNamesISA(t *testing.T) {
	f := needFake(t)
	withDriverVersion(t, f, 13000)
	ctx := context.Background()
	mem := checkedAlloc(t, memory.DefaultAllocator)
	x := graph.Input(graph.Float32, graph.Shape{1000}, "x")
	hx := newHost(t, mem, graph.Float32, graph.Shape{1000})
	defer hx.Release()
	req := &exec.Request{Outputs: []*graph.Node{graph.Unary(graph.OpExp, x)}, Bound: bindings{x: hx}}

	_, b := fakeBackend(t, Options{})
	const log = "ptxas application ptx input, line 5; fatal   : Unsupported .version 9.0; current version is '8.8'"
	f.FailLoad(int32(drv.ResultUnsupportedPTXVersion), log)
	_, err := b.Eval(ctx, req)
	require.Error(t, err)
	for _, want := range []string{
		"loading the module of kernels",
		"(PTX ISA 9.0, sm_90; FUSEFLOW_PTX_ISA=major.minor forces another ISA)",
		"CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
		"JIT log:\n" + log,
	} {
		require.ErrorContains(t, err, want)
	}
	require.Nil(t, b.Fault(), "a rejected module does not break the device")

	t.Setenv(PTXISAEnv, "8.8")
	_, b2 := fakeBackend(t, Options{})
	res, err := b2.Eval(ctx, req)
	require.NoError(t, err)
	releaseAll(res)

	// Other load failures name the module without the hint.
	f.FailLoad(int32(drv.ResultOutOfMemory), "")
	_, err = b2.Eval(ctx, &exec.Request{Outputs: []*graph.Node{graph.Unary(graph.OpLog, x)}, Bound: req.Bound})
	require.ErrorContains(t, err, "(PTX ISA 8.8, sm_90): cuModuleLoadDataEx(")
	require.NotContains(t, err.Error(), "forces another ISA")
}

// TestForcedISAAssembles generates the suite's kernels as a CUDA 13
// driver would get them, with the ISA forced to 7.8, and assembles them
// with ptxas for sm_90. ptxas 11.8 (CI's) accepts PTX ISA 7.8 at most:
// the 9.0 modules a CUDA 13 driver gets by default are not assembled
// here, only on the GPU by the driver's JIT.
func TestForcedISAAssembles(t *testing.T) {
	f := needFake(t)
	ptxas.Require(t)
	withDriverVersion(t, f, 13000)
	t.Setenv(PTXISAEnv, "7.8")
	x := graph.Input(graph.Float32, graph.Shape{1000, 300}, "x")
	math := []*graph.Node{graph.Binary(graph.OpAdd, graph.Unary(graph.OpTanh, x), graph.Unary(graph.OpExp, graph.Unary(graph.OpSin, x))),
		graph.Reduce(graph.OpSum, graph.Unary(graph.OpLog, x), []int{1}, false)}
	for _, fast := range []exec.Switch{exec.Off, exec.On} {
		_, b := fakeBackend(t, Options{FastMath: fast})
		text := compiledPTX(t, b, math...)
		require.Contains(t, text, ".version 7.8\n")
		ptxas.AssembleAll(t, text, "sm_90")
	}
	_, b := fakeBackend(t, Options{})
	cases := gpuCases()
	step := 17 // a sample of the reductions, and the GEMMs at the end
	if testing.Short() || raceEnabled {
		step = 41
	}
	var pick []int
	for i := 0; i < len(cases)-2; i += step {
		pick = append(pick, i)
	}
	for _, i := range append(pick, len(cases)-2, len(cases)-1) {
		outs, _, _ := cases[i].build()
		require.NoError(t, graph.Verify(outs...), cases[i].name)
		text := compiledPTX(t, b, outs...)
		require.Contains(t, text, ".version 7.8\n", cases[i].name)
		ptxas.AssembleAll(t, text, "sm_90")
	}
}
