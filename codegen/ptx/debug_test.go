// This file tests FUSEFLOW_DEBUG=ptx.

package ptx

import (
	"bytes"
	"strings"
	"testing"
)

func TestDebugPrints(t *testing.T) {
	var buf bytes.Buffer
	debugMu.Lock()
	old := debugOut
	debugOut = &buf
	debugMu.Unlock()
	t.Cleanup(func() { debugMu.Lock(); debugOut = old; debugMu.Unlock() })

	tests := []struct {
		env   string
		print bool
	}{
		{"", false},
		{"plan", false},
		{"ptx", true},
		{"plan, PTX", true},
		{"all", true},
		{"ptxas", false},
	}
	for _, tc := range tests {
		buf.Reset()
		t.Setenv(EnvDebug, tc.env)
		text, err := Emit(vaddKernel(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := buf.Len() > 0; got != tc.print {
			t.Errorf("FUSEFLOW_DEBUG=%q: printed got:%v want:%v", tc.env, got, tc.print)
			continue
		}
		if !tc.print {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		if len(got) != len(lines) {
			t.Fatalf("printed lines: got:%v want:%v", len(got), len(lines))
		}
		for i, l := range []int{0, len(lines) / 2, len(lines) - 1} {
			want := strings.TrimSpace(strings.Fields(got[l])[0])
			if want != itoa(l+1) || !strings.HasSuffix(got[l], "| "+lines[l]) {
				t.Errorf("line %d (%d): got:%q want:%q", l+1, i, got[l], lines[l])
			}
		}
	}
}
