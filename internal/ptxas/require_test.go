// require_test.go tests that Require skips, or fails when asked to, without
// a usable ptxas.

package ptxas

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// recordingTB records Skip and Fatal instead of stopping the test.
type recordingTB struct {
	testing.TB
	skipped, fatal string
}

func (r *recordingTB) Helper() {}

func (r *recordingTB) Skipf(format string, args ...any) { r.skipped = fmt.Sprintf(format, args...) }

func (r *recordingTB) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

func TestRequireWithoutPtxas(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	require.NoError(t, os.WriteFile(broken, []byte("#!/bin/sh\nexit 3\n"), 0o755))
	tests := []struct {
		name, ptxas, require string
		skip                 bool
	}{
		{"missing skips", filepath.Join(dir, "missing"), "", true},
		{"missing fails when required", filepath.Join(dir, "missing"), "1", false},
		{"broken skips", broken, "0", true},
		{"broken fails when required", broken, "1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvPath, tc.ptxas)
			t.Setenv(EnvRequire, tc.require)
			r := &recordingTB{TB: t}
			if got := Require(r); got != "" {
				t.Errorf("Require() got:%q want:\"\"", got)
			}
			msg := r.fatal
			if tc.skip {
				msg = r.skipped
				require.Empty(t, r.fatal)
			} else {
				require.Empty(t, r.skipped)
			}
			require.Contains(t, msg, tc.ptxas)
			require.Contains(t, msg, "scripts/fetch-ptxas.sh")
			require.Contains(t, msg, EnvRequire)
			if infos := AssembleAll(r, ".version 7.8\n.target sm_80\n"); infos != nil {
				t.Errorf("AssembleAll without ptxas got:%v want:nil", infos)
			}
		})
	}
}
