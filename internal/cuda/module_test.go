// Tests of module loading with JIT logs, function lookup, attributes and
// occupancy.

package cuda

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLoadModule(t *testing.T) {
	_, ctx := fakeContext(t)
	m, info, err := ctx.LoadModule(fakePTX, JITOptions{MaxRegisters: 64, LineInfo: true})
	require.NoError(t, err)
	require.Equal(t, "info    : fake JIT compiled 4 entry function(s) for sm_90", info.Log)
	require.Equal(t, 1500*time.Microsecond, info.WallTime)
	defer func() { require.NoError(t, ctx.ModuleUnload(m)) }()

	for _, name := range []string{"fake_add", "fake_axpy", "every_kind", "no_params"} {
		fn, err := ctx.ModuleFunction(m, name)
		require.NoError(t, err, name)
		require.NotZero(t, fn, name)
	}
	_, err = ctx.ModuleFunction(m, "missing_kernel")
	require.True(t, IsResult(err, ResultNotFound), "got:%v", err)
	require.Contains(t, err.Error(), `"missing_kernel"`)
	require.Contains(t, err.Error(), "CUDA_ERROR_NOT_FOUND")
}

func TestLoadModuleJITError(t *testing.T) {
	_, ctx := fakeContext(t)
	ptx := ".version 8.0\n.target sm_90\n\tFAKE_JIT_ERROR;\n"
	_, _, err := ctx.LoadModule(ptx, JITOptions{})
	require.True(t, IsResult(err, ResultInvalidPTX), "got:%v", err)
	e := err.(*Error)
	wantLog := "ptxas application ptx input, line 3; error   : Unknown symbol 'FAKE_JIT_ERROR'\nptxas fatal   : Ptx assembly aborted due to errors"
	require.Equal(t, wantLog, e.Log)
	require.Equal(t, fmt.Sprintf("cuModuleLoadDataEx(%d bytes of PTX): CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed; JIT log:\n%s", len(ptx), wantLog), err.Error())

	// A log buffer smaller than the log keeps what fits.
	_, _, err = ctx.LoadModule(ptx, JITOptions{LogSize: 20})
	require.Equal(t, wantLog[:19], err.(*Error).Log)

	_, _, err = ctx.LoadModule("not ptx at all", JITOptions{})
	require.True(t, IsResult(err, ResultInvalidImage), "got:%v", err)
	require.Empty(t, err.(*Error).Log)
}

func TestFunctionAttributes(t *testing.T) {
	_, ctx := fakeContext(t)
	m, _, err := ctx.LoadModule(fakePTX, JITOptions{})
	require.NoError(t, err)
	defer func() { require.NoError(t, ctx.ModuleUnload(m)) }()
	fn, err := ctx.ModuleFunction(m, "fake_add")
	require.NoError(t, err)

	for _, tc := range []struct {
		attr FuncAttribute
		want int
	}{
		{FuncMaxThreadsPerBlock, 1024},
		{FuncNumRegs, 32},
		{FuncSharedSizeBytes, 0},
		{FuncLocalSizeBytes, 0},
		{FuncPTXVersion, 90},
		{FuncMaxDynamicSharedSizeBytes, 49152},
	} {
		got, err := ctx.FuncAttribute(fn, tc.attr)
		require.NoError(t, err)
		if got != tc.want {
			t.Errorf("FuncAttribute(%d) got:%v want:%v", tc.attr, got, tc.want)
		}
	}
	require.NoError(t, ctx.SetFuncAttribute(fn, FuncMaxDynamicSharedSizeBytes, 200<<10))
	got, err := ctx.FuncAttribute(fn, FuncMaxDynamicSharedSizeBytes)
	require.NoError(t, err)
	require.Equal(t, 200<<10, got)
	err = ctx.SetFuncAttribute(fn, FuncMaxDynamicSharedSizeBytes, 1<<20)
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
	require.Contains(t, err.Error(), "cuFuncSetAttribute(")
	_, err = ctx.FuncAttribute(fn, FuncAttribute(77))
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)

	for _, tc := range []struct {
		block int
		dyn   uint64
		want  int
	}{
		{256, 0, 8},        // 2048 threads per SM
		{1024, 0, 2},       // 2048 threads per SM
		{32, 0, 32},        // blocks per SM
		{128, 48 << 10, 4}, // shared memory per SM
	} {
		got, err := ctx.MaxActiveBlocksPerSM(fn, tc.block, tc.dyn)
		require.NoError(t, err)
		if got != tc.want {
			t.Errorf("MaxActiveBlocksPerSM(%d, %d) got:%v want:%v", tc.block, tc.dyn, got, tc.want)
		}
	}
	_, err = ctx.MaxActiveBlocksPerSM(fn, 2048, 0)
	require.True(t, IsResult(err, ResultInvalidValue), "got:%v", err)
	require.True(t, strings.Contains(err.Error(), "block 2048"), "got:%v", err)
}

func TestModuleUnloadInvalidates(t *testing.T) {
	_, ctx := fakeContext(t)
	m, _, err := ctx.LoadModule(fakePTX, JITOptions{})
	require.NoError(t, err)
	require.NoError(t, ctx.ModuleUnload(m))
	err = ctx.ModuleUnload(Module(0))
	require.True(t, IsResult(err, ResultInvalidHandle), "got:%v", err)
}

func TestLoadModuleUnsupportedVersion(t *testing.T) {
	f, ctx := fakeContext(t)
	const log = "ptxas application ptx input, line 1; fatal   : Unsupported .version 9.0; current version is '8.8'"
	f.FailLoad(int32(ResultUnsupportedPTXVersion), log)
	before := f.ModuleCount()
	_, _, err := ctx.LoadModule(fakePTX, JITOptions{})
	require.True(t, IsResult(err, ResultUnsupportedPTXVersion), "got:%v", err)
	require.Equal(t, log, err.(*Error).Log)
	require.Contains(t, err.Error(), "CUDA_ERROR_UNSUPPORTED_PTX_VERSION")
	require.Contains(t, err.Error(), "JIT log:\n"+log)
	require.Equal(t, before, f.ModuleCount())
	require.Nil(t, ctx.Fault(), "a failed load does not break the context")

	m, _, err := ctx.LoadModule(fakePTX, JITOptions{})
	require.NoError(t, err, "only the next load fails")
	require.Equal(t, before+1, f.ModuleCount())
	require.NoError(t, ctx.ModuleUnload(m))
	require.Equal(t, before, f.ModuleCount())
}
