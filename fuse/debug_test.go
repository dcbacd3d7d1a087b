// FUSEFLOW_DEBUG turns on the plan printout with the same words, in any
// case and with any separators, as the PTX printout.

package fuse

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// stderrOf returns what f writes to os.Stderr.
func stderrOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	old := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	func() {
		defer func() { os.Stderr = old }()
		f()
	}()
	require.NoError(t, w.Close())
	return <-done
}

func TestDebugPlanWords(t *testing.T) {
	tests := []struct {
		env   string
		print bool
	}{
		{"", false},
		{"ptx", false},
		{"plan", true},
		{"PLAN", true},
		{"all", true},
		{"ptx, plan", true},
		{"ptx plan", true},
		{" Plan ", true},
	}
	for _, tc := range tests {
		t.Setenv("FUSEFLOW_DEBUG", tc.env)
		out := stderrOf(t, func() { softmaxPlan(t) })
		if got := strings.Contains(out, "plan: 3 kernels"); got != tc.print {
			t.Errorf("FUSEFLOW_DEBUG=%q: plan printed got:%v want:%v", tc.env, got, tc.print)
		}
	}
}
