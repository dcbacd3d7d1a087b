// find_test.go tests CachePath and the order in which Find looks for ptxas.

package ptxas

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeExecutable writes an executable shell script at path that prints a
// ptxas-like version, creating its folder.
func fakeExecutable(t *testing.T, path string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	script := "#!/bin/sh\necho 'Cuda compilation tools, release 0.0, V0.0.0'\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

func TestCachePath(t *testing.T) {
	tests := []struct {
		cache, xdg, home string
		want             string
	}{
		{"/c", "/x", "/h", "/c/cuda-11.8/ptxas"},
		{"", "/x", "/h", "/x/fuseflow/cuda-11.8/ptxas"},
		{"", "", "/h", "/h/.cache/fuseflow/cuda-11.8/ptxas"},
	}
	for _, tc := range tests {
		t.Setenv(EnvCache, tc.cache)
		t.Setenv("XDG_CACHE_HOME", tc.xdg)
		t.Setenv("HOME", tc.home)
		got, err := CachePath()
		require.NoError(t, err)
		if got != tc.want {
			t.Errorf("CachePath(%+v) got:%v want:%v", tc, got, tc.want)
		}
	}
	t.Setenv(EnvCache, "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if _, err := CachePath(); err == nil {
		t.Errorf("CachePath with no variables set: err got:nil want: an error")
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	explicit := fakeExecutable(t, filepath.Join(dir, "explicit", "ptxas"))
	cached := fakeExecutable(t, filepath.Join(dir, "cache", "cuda-11.8", "ptxas"))
	onPath := fakeExecutable(t, filepath.Join(dir, "bin", "ptxas"))
	notExec := filepath.Join(dir, "plain", "ptxas")
	require.NoError(t, os.MkdirAll(filepath.Dir(notExec), 0o755))
	require.NoError(t, os.WriteFile(notExec, []byte("data"), 0o644))
	missing := filepath.Join(dir, "missing", "ptxas")

	tests := []struct {
		name             string
		env, cache, path string
		want             string // "" when Find must fail
	}{
		{"env wins", explicit, filepath.Join(dir, "cache"), filepath.Join(dir, "bin"), explicit},
		{"env missing does not fall back", missing, filepath.Join(dir, "cache"), filepath.Join(dir, "bin"), ""},
		{"env not executable", notExec, filepath.Join(dir, "cache"), filepath.Join(dir, "bin"), ""},
		{"env name on PATH", "ptxas", filepath.Join(dir, "empty"), filepath.Join(dir, "bin"), onPath},
		{"cache before PATH", "", filepath.Join(dir, "cache"), filepath.Join(dir, "bin"), cached},
		{"PATH last", "", filepath.Join(dir, "empty"), filepath.Join(dir, "bin"), onPath},
		{"nothing", "", filepath.Join(dir, "empty"), filepath.Join(dir, "empty"), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvPath, tc.env)
			t.Setenv(EnvCache, tc.cache)
			t.Setenv("PATH", tc.path)
			got, err := Find()
			if tc.want != "" {
				require.NoError(t, err)
				if got != tc.want {
					t.Errorf("Find() got:%v want:%v", got, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("Find() = %q, %v; want an error wrapping ErrNotFound", got, err)
			}
			require.True(t, strings.HasSuffix(err.Error(), FetchHint), "error %q lacks the fetch hint", err)
			if tc.env != "" {
				require.Contains(t, err.Error(), tc.env)
			}
		})
	}
}

func TestFindFeedsAssemble(t *testing.T) {
	t.Setenv(EnvPath, filepath.Join(t.TempDir(), "missing"))
	_, err := Assemble(".version 7.8\n.target sm_80\n", "sm_80")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("Assemble with %s missing: err got:%v want: ErrNotFound", EnvPath, err)
	}
}
