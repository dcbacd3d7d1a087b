// Tests of loading the driver: the process-wide Load, missing libraries and
// symbols, cuInit failures and the version query.

package cuda

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOpenMissingLibrary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "libcuda.so.1")
	d, err := Open(path)
	require.Nil(t, d)
	require.Error(t, err)
	require.ErrorIs(t, err, ErrNoDriver)
	require.Contains(t, err.Error(), path)
	var e *Error
	require.False(t, errors.As(err, &e), "a missing library is not a CUresult: %v", err)
}

func TestOpenMissingSymbol(t *testing.T) {
	f := needFake(t)
	d, err := Open(f.partial)
	require.Nil(t, d)
	require.ErrorIs(t, err, ErrNoDriver)
	require.Contains(t, err.Error(), "cuLaunchKernel")
}

func TestLoadUsesEnvironment(t *testing.T) {
	f := needFake(t)
	d, err := Load()
	require.NoError(t, err)
	require.Same(t, f.drv, d, "Load must load once per process")
	require.Equal(t, f.path, d.Path())
}

func TestOpenInitFailure(t *testing.T) {
	f := needFake(t)
	f.FailNext("cuInit", int32(ResultNoDevice))
	d, err := Open(f.path)
	require.Nil(t, d)
	require.True(t, IsResult(err, ResultNoDevice), "got:%v", err)
	require.Equal(t, "cuInit(0): CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected", err.Error())
	require.NotErrorIs(t, err, ErrNoDriver)
}

func TestVersion(t *testing.T) {
	f := needFake(t)
	v, err := f.drv.Version()
	require.NoError(t, err)
	require.Equal(t, 12080, v)
	require.Equal(t, "12.8", VersionString(v))

	f.FailNext("cuDriverGetVersion", int32(ResultUnknown))
	_, err = f.drv.Version()
	require.True(t, IsResult(err, ResultUnknown), "got:%v", err)
	require.True(t, strings.HasPrefix(err.Error(), "cuDriverGetVersion(): CUDA_ERROR_UNKNOWN"), "got:%v", err)
}

func TestVersionString(t *testing.T) {
	for _, tc := range []struct {
		v    int
		want string
	}{{12080, "12.8"}, {13000, "13.0"}, {11040, "11.4"}, {12010, "12.1"}} {
		if got := VersionString(tc.v); got != tc.want {
			t.Errorf("VersionString(%d) got:%v want:%v", tc.v, got, tc.want)
		}
	}
}
