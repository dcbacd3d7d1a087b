// Tests of error names, descriptions and the Error type.

package cuda

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDriverErrorNames(t *testing.T) {
	f := needFake(t)
	for _, tc := range []struct {
		code     Result
		name     string
		desc     string
		fromDrvr bool
	}{
		{ResultOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", true},
		{ResultInvalidPTX, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed", true},
		{ResultLaunchFailed, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure", true},
		// Unknown to the fake driver: the package's own table answers.
		{ResultUnsupportedPTXVersion, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION", "PTX version not supported by this driver", false},
		{Result(12345), "CUresult(12345)", "unrecognized error code", false},
	} {
		name, err := f.drv.ErrorName(tc.code)
		if tc.fromDrvr {
			require.NoError(t, err)
			if name != tc.name {
				t.Errorf("ErrorName(%d) got:%v want:%v", tc.code, name, tc.name)
			}
			desc, err := f.drv.ErrorString(tc.code)
			require.NoError(t, err)
			if desc != tc.desc {
				t.Errorf("ErrorString(%d) got:%v want:%v", tc.code, desc, tc.desc)
			}
		} else {
			require.True(t, IsResult(err, ResultInvalidValue), "ErrorName(%d) got:%v", tc.code, err)
			_, err = f.drv.ErrorString(tc.code)
			require.True(t, IsResult(err, ResultInvalidValue), "ErrorString(%d) got:%v", tc.code, err)
		}
		e := f.drv.newError(tc.code, fnMemAlloc, "64")
		want := fmt.Sprintf("cuMemAlloc_v2(64): %s: %s", tc.name, tc.desc)
		if e.Error() != want {
			t.Errorf("newError(%d) got:%v want:%v", tc.code, e.Error(), want)
		}
	}
}

func TestResultString(t *testing.T) {
	for _, tc := range []struct {
		code Result
		want string
	}{
		{ResultSuccess, "CUDA_SUCCESS"},
		{ResultOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY"},
		{ResultNoDevice, "CUDA_ERROR_NO_DEVICE"},
		{ResultInvalidContext, "CUDA_ERROR_INVALID_CONTEXT"},
		{ResultIllegalAddress, "CUDA_ERROR_ILLEGAL_ADDRESS"},
		{ResultUnknown, "CUDA_ERROR_UNKNOWN"},
		{Result(-3), "CUresult(-3)"},
	} {
		if got := tc.code.String(); got != tc.want {
			t.Errorf("Result(%d).String() got:%v want:%v", int32(tc.code), got, tc.want)
		}
	}
}

func TestErrorFormatAndMatching(t *testing.T) {
	e := &Error{Code: ResultInvalidPTX, Name: "CUDA_ERROR_INVALID_PTX", Description: "a PTX JIT compilation failed",
		Call: "cuModuleLoadDataEx(10 bytes of PTX)", Log: "line 1: bad\n"}
	require.Equal(t, "cuModuleLoadDataEx(10 bytes of PTX): CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed; JIT log:\nline 1: bad", e.Error())

	oom := fmt.Errorf("pool: %w", &Error{Code: ResultOutOfMemory})
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{oom, true},
		{&Error{Code: ResultOutOfMemory}, true},
		{e, false},
		{errors.New("out of memory"), false},
		{nil, false},
	} {
		if got := IsOutOfMemory(tc.err); got != tc.want {
			t.Errorf("IsOutOfMemory(%v) got:%v want:%v", tc.err, got, tc.want)
		}
	}
}
