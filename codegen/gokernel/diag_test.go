// This file tests the diagnostics: the packages under testdata/diag use
// constructs outside the kernel subset, each line with a diagnostic
// marked by a comment // want "regexp". One compilation must report every
// one of them (all at once), each as file:line:col: message, and nothing
// else.

package gokernel_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen/gokernel"
	"github.com/stretchr/testify/require"
)

var wantRE = regexp.MustCompile(`// want "((?:[^"\\]|\\.)*)"`)

// wants returns the expected diagnostics of the Go files in dir, by
// "file:line".
func wants(t *testing.T, dir string) map[string][]*regexp.Regexp {
	out := map[string][]*regexp.Regexp{}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
				pat, err := strconv.Unquote(`"` + m[1] + `"`)
				require.NoError(t, err)
				key := filepath.Base(f) + ":" + strconv.Itoa(i+1)
				out[key] = append(out[key], regexp.MustCompile(pat))
			}
		}
	}
	return out
}

func TestDiagnostics(t *testing.T) {
	cases := []string{"types", "calls", "memory", "signature", "barrier"}
	patterns := make([]string, len(cases))
	for i, c := range cases {
		patterns[i] = "./testdata/diag/" + c
	}
	pkgs, errs, err := gokernel.CompileAll(".", patterns, gokernel.Options{})
	require.NoError(t, err)
	require.Len(t, pkgs, len(cases))
	for i, e := range errs {
		var ge *gokernel.Error
		require.True(t, errors.As(e, &ge), "package %d: got %v", i, e)
		pkgDir := filepath.Dir(ge.Diags[0].Pos.Filename)
		want := wants(t, pkgDir)
		if testing.Verbose() {
			t.Logf("%v", ge)
		}
		for _, d := range ge.Diags {
			require.True(t, d.Pos.IsValid(), "diagnostic without a position: %s", d)
			key := filepath.Base(d.Pos.Filename) + ":" + strconv.Itoa(d.Pos.Line)
			ok := false
			for _, re := range want[key] {
				if re.MatchString(d.Msg) {
					ok = true
				}
			}
			require.True(t, ok, "unexpected diagnostic %s", d)
			require.Regexp(t, `^.+\.go:\d+:\d+: `, d.String())
		}
		for key, res := range want {
			for _, re := range res {
				found := false
				for _, d := range ge.Diags {
					if filepath.Base(d.Pos.Filename)+":"+strconv.Itoa(d.Pos.Line) == key && re.MatchString(d.Msg) {
						found = true
					}
				}
				require.True(t, found, "%s: no diagnostic matching %q; got:\n%v", key, re, ge)
			}
		}
	}
}
