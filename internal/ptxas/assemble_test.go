// assemble_test.go tests Assemble and AssembleAll with the real ptxas on a
// valid vector add and on broken modules.

package ptxas

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// readVadd returns testdata/vadd.ptx.
func readVadd(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/vadd.ptx")
	require.NoError(t, err)
	return string(b)
}

func TestAssembleVectorAdd(t *testing.T) {
	infos := AssembleAll(t, readVadd(t))
	require.Len(t, infos, 2)
	for i, want := range []string{"sm_80", "sm_90"} {
		in := infos[i]
		if in.Arch != want {
			t.Errorf("arch got:%v want:%v", in.Arch, want)
		}
		f, ok := in.Function("vadd")
		require.True(t, ok, "no vadd in ptxas output:\n%s", in.Log)
		if !f.Entry {
			t.Errorf("%s: vadd.Entry got:%v want:true", want, f.Entry)
		}
		if f.Registers < 4 || f.Registers > 255 {
			t.Errorf("%s: registers got:%v want:4..255", want, f.Registers)
		}
		if f.SharedBytes != 1024 {
			t.Errorf("%s: shared bytes got:%v want:1024 (the .shared buf)", want, f.SharedBytes)
		}
		if f.SpillStoreBytes != 0 || f.SpillLoadBytes != 0 || f.StackBytes != 0 {
			t.Errorf("%s: stack/spills got:%d/%d/%d want:0/0/0", want, f.StackBytes, f.SpillStoreBytes, f.SpillLoadBytes)
		}
		if len(in.Warnings) != 0 {
			t.Errorf("%s: warnings got:%v want:none", want, in.Warnings)
		}
		if !strings.Contains(in.Log, "Compiling entry function 'vadd' for '"+want+"'") {
			t.Errorf("%s: log does not name the entry and arch:\n%s", want, in.Log)
		}
	}
}

func TestAssembleInvalid(t *testing.T) {
	Require(t)
	vadd := readVadd(t)
	addLine := 0 // of `add.f32 %f3, %f1, %f2;`, which the cases break
	for i, l := range strings.Split(vadd, "\n") {
		if strings.Contains(l, "add.f32 %f3, %f1, %f2;") {
			addLine = i + 1
		}
	}
	require.NotZero(t, addLine, "testdata/vadd.ptx lost its add.f32")
	tests := []struct {
		name    string
		ptx     string
		arch    string
		line    int
		message string
	}{
		{"unknown instruction", strings.Replace(vadd, "add.f32 %f3, %f1, %f2;", "frob.f32 %f3, %f1, %f2;", 1),
			"sm_80", addLine, "Not a name of any known instruction: 'frob'"},
		{"undeclared register", strings.Replace(vadd, "add.f32 %f3, %f1, %f2;", "add.f32 %f3, %f1, %f9;", 1),
			"sm_90", addLine, "Unknown symbol '%f9'"},
		{"type mismatch", strings.Replace(vadd, "add.f32 %f3, %f1, %f2;", "add.f32 %f3, %f1, %rd2;", 1),
			"sm_80", addLine, "Arguments mismatch for instruction 'add'"},
		{"target above arch", strings.Replace(vadd, ".target sm_80", ".target sm_90", 1),
			"sm_80", 0, "SM version specified by .target is higher than default SM version assumed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Assemble(tc.ptx, tc.arch)
			var ae *AssembleError
			require.ErrorAs(t, err, &ae)
			if ae.Arch != tc.arch {
				t.Errorf("arch got:%v want:%v", ae.Arch, tc.arch)
			}
			msg := err.Error()
			require.Contains(t, msg, tc.message)
			require.Contains(t, msg, "ptxas -arch="+tc.arch)
			var found bool
			for _, d := range ae.Errors() {
				if strings.Contains(d.Message, tc.message) {
					found = true
					if d.Line != tc.line {
						t.Errorf("line of %q got:%v want:%v", tc.message, d.Line, tc.line)
					}
				}
			}
			if !found {
				t.Errorf("no diagnostic %q in %v", tc.message, ae.Diagnostics)
			}
			if tc.line > 0 {
				require.Contains(t, msg, fmt.Sprintf("kernel.ptx, line %d;", tc.line))
				cited := strings.TrimSpace(strings.Split(tc.ptx, "\n")[tc.line-1])
				require.Contains(t, msg, fmt.Sprintf("%5d | \t%s", tc.line, cited))
			}
		})
	}
}

func TestAssembleBadArch(t *testing.T) {
	for _, arch := range []string{"", "80", "sm80", "sm_", "-arch=sm_80", "sm_80 -v"} {
		_, err := Assemble(".version 7.8\n.target sm_80\n", arch)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%q", arch)) {
			t.Errorf("Assemble(arch %q) err got:%v want: an error naming the arch", arch, err)
		}
	}
}

func TestAssembleCanceled(t *testing.T) {
	Require(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := AssembleContext(ctx, readVadd(t), "sm_80")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err got:%v want:%v", err, context.Canceled)
	}
}

func TestAssembleConcurrent(t *testing.T) {
	Require(t)
	vadd := readVadd(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			arch := []string{"sm_80", "sm_90"}[i%2]
			in, err := Assemble(vadd, arch)
			if err == nil && len(in.Functions) != 1 {
				err = fmt.Errorf("%s: functions got:%v want: vadd only", arch, in.Functions)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
}

func TestVersion(t *testing.T) {
	path := Require(t)
	v, err := Version(path)
	require.NoError(t, err)
	require.Contains(t, v, "release")
}
