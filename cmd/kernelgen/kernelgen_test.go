// This file tests kernelgen: golden generated files for the packages
// under testdata/golden (go test ./cmd/kernelgen -update rewrites them)
// whose PTX ptxas assembles, the command's behaviour on a package it
// writes into (first generation, -check, stale and removed files,
// diagnostics), and that every generated file committed in the module is
// what kernelgen writes today.

package main

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/internal/ptxas"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// isPTX reports whether o is a PTX file.
func isPTX(o output) bool { return strings.HasSuffix(o.path, ".ptx") }

func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/golden/*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			outs, err := generate(dir)
			require.NoError(t, err)
			require.NotEmpty(t, outs)
			for _, o := range outs {
				golden := o.path + ".golden"
				if *update {
					require.NoError(t, os.WriteFile(golden, o.data, 0o644))
				}
				want, err := os.ReadFile(golden)
				require.NoError(t, err, "run go test ./cmd/kernelgen -update to create %s", golden)
				require.Equal(t, string(want), string(o.data), "%s differs from %s (rerun with -update after checking the diff)", o.path, golden)
				require.True(t, bytes.HasPrefix(o.data, []byte(headerPrefix+" from ")))
				require.Regexp(t, `(?m)^// Code generated .* DO NOT EDIT\.$`, string(o.data))
				require.NotContains(t, string(o.data), "golang.org/x/tools")
				require.NotContains(t, string(o.data), "/work/", "no machine paths")
				if isPTX(o) {
					ptxas.AssembleAll(t, string(o.data), "sm_80")
				}
			}
		})
	}
}

// tempPackage makes a package directory inside the module (so that it
// imports package kernel) holding files, removed after the test.
func tempPackage(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", "pkg")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	for name, src := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	return dir
}

const twoKernels = `package tmp

import "github.com/fuseflow/fuseflow/kernel"

//fuseflow:kernel
func Fill(t kernel.Thread, x []int32, v int32) {
	if i := t.Grid1(); i < len(x) {
		x[i] = v
	}
}

//fuseflow:kernel
func Twice(t kernel.Thread, x []int32) {
	if i := t.Grid1(); i < len(x) {
		x[i] *= 2
	}
}
`

// user refers to a handle: the package must load before generation.
const user = `package tmp

func use() error { return FillKernel.ForAll(1, []int32{0}, 3) }
`

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// ptxFiles returns the base names of the PTX files in dir, sorted.
func ptxFiles(t *testing.T, dir string) []string {
	t.Helper()
	ptxs, err := filepath.Glob(filepath.Join(dir, "*.ptx"))
	require.NoError(t, err)
	for i, p := range ptxs {
		ptxs[i] = filepath.Base(p)
	}
	return ptxs
}

func TestCommand(t *testing.T) {
	// Besides the kernels: PTX files kernelgen did not write (hand.ptx),
	// wrote for a source file of another build context (other_K.ptx),
	// which stay, and wrote for kernels that are gone, which go.
	gone := func(src string) string { return headerPrefix + " from " + src + ". DO NOT EDIT.\n" }
	dir := tempPackage(t, map[string]string{
		"k.go": twoKernels, "use.go": user,
		"other.go":    "//go:build fuseflow_never\n\npackage tmp\n",
		"other_K.ptx": gone("other.go"), "hand.ptx": "// written by hand\n",
		"k_Gone.ptx": gone("k.go"), "none_Gone.ptx": gone("none.go"),
	})
	gen := filepath.Join(dir, "k_kernels.go")

	code, out, errs := runCmd("-dir", dir, "-v")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "k_kernels.go")
	require.Equal(t, []string{"hand.ptx", "k_Fill.ptx", "k_Twice.ptx", "other_K.ptx"}, ptxFiles(t, dir))
	first, err := os.ReadFile(gen)
	require.NoError(t, err)
	require.Contains(t, string(first), `var FillKernel = kernel.MustFromFS(kernel.Bind2(Fill), kPTX, "k_Fill.ptx")`)
	require.Contains(t, string(first), `var TwiceKernel = kernel.MustFromFS(kernel.Bind1(Twice), kPTX, "k_Twice.ptx")`)
	require.Contains(t, string(first), "//go:embed k_Fill.ptx\n//go:embed k_Twice.ptx\nvar kPTX embed.FS")
	require.Contains(t, out, "k_Fill.ptx")
	for _, k := range []string{"Fill", "Twice"} {
		text, err := os.ReadFile(filepath.Join(dir, "k_"+k+".ptx"))
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(string(text), headerPrefix+" from k.go. DO NOT EDIT.\n"), "%s", text)
		require.Contains(t, string(text), ".entry "+k+"(")
		require.Contains(t, string(text), "\n//fuseflow:kernel "+k+"\n//fuseflow:param x []int32 written\n", "the record heads the PTX")
	}
	// The package builds with the PTX embedded.
	build := exec.Command("go", "build", "./"+filepath.ToSlash(dir))
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	msg, err := build.CombinedOutput()
	require.NoError(t, err, "%s", msg)

	code, _, errs = runCmd("-dir", dir, "-check")
	require.Equal(t, 0, code, errs)

	// An edited PTX file is out of date.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k_Fill.ptx"), []byte(headerPrefix+" from k.go. DO NOT EDIT.\n"), 0o644))
	code, _, errs = runCmd("-dir", dir, "-check")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "k_Fill.ptx is out of date")

	// A stale generated file (its kernel renamed) does not stop the
	// package from loading: it is regenerated.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.go"), []byte(strings.ReplaceAll(twoKernels, "Twice", "Thrice")), 0o644))
	code, _, errs = runCmd("-dir", dir)
	require.Equal(t, 0, code, errs)
	now, err := os.ReadFile(gen)
	require.NoError(t, err)
	require.Contains(t, string(now), "var ThriceKernel")
	require.NotContains(t, string(now), "TwiceKernel")
	require.FileExists(t, filepath.Join(dir, "k_Thrice.ptx"))
	require.NoFileExists(t, filepath.Join(dir, "k_Twice.ptx"), "the PTX of a kernel that is gone is removed")
	fill, err := os.ReadFile(filepath.Join(dir, "k_Fill.ptx"))
	require.NoError(t, err)
	require.Contains(t, string(fill), ".entry Fill(", "the edited PTX file is rewritten")

	// Kernels outside the subset: every diagnostic, relative to the
	// working directory's files, exit status 1, nothing written.
	bad := strings.Replace(twoKernels, "x[i] = v", "m := map[int]int{}\n\t\tm[i] = 1\n\t\tgo func() {}()\n\t\tx[i] = v", 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.go"), []byte(bad), 0o644))
	code, _, errs = runCmd("-dir", dir)
	require.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	require.Len(t, lines, 3, errs)
	require.Regexp(t, `^testdata/pkg\d+/k\.go:8:\d+: maps are not supported in kernels`, lines[0])
	require.Regexp(t, `k\.go:9:\d+: maps are not supported`, lines[1])
	require.Regexp(t, `k\.go:10:\d+: go statements are not supported`, lines[2])
	after, err := os.ReadFile(gen)
	require.NoError(t, err)
	require.Equal(t, now, after, "nothing is written on errors")

	// Without kernels the generated file goes away.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "k.go"), []byte("package tmp\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "use.go")))
	code, _, errs = runCmd("-dir", dir)
	require.Equal(t, 0, code, errs)
	_, err = os.Stat(gen)
	require.True(t, os.IsNotExist(err), "the generated file of a file without kernels is removed")
	require.Equal(t, []string{"hand.ptx", "other_K.ptx"}, ptxFiles(t, dir), "so are its PTX files, and no other")

	code, _, errs = runCmd("-nope")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "usage: kernelgen")
}

func TestStale(t *testing.T) {
	dir := tempPackage(t, map[string]string{"same": "x", "changed": "old", "gone": "y"})
	p := func(n string) string { return filepath.Join(dir, n) }
	outs := outputs{{p("same"), []byte("x")}, {p("changed"), []byte("new")}, {p("missing"), []byte("z")}, {p("gone"), nil}, {p("absent"), nil}}
	stale, err := outs.stale()
	require.NoError(t, err)
	require.Equal(t, []string{p("changed"), p("missing"), p("gone")}, stale)
	written, err := outs.write()
	require.NoError(t, err)
	require.Equal(t, stale, written)
	stale, err = outs.stale()
	require.NoError(t, err)
	require.Empty(t, stale)
	_, err = os.Stat(p("gone"))
	require.True(t, os.IsNotExist(err))
}

func TestRefusesToOverwrite(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"k_kernels.go", "package tmp\n", "k_kernels.go exists and was not written by kernelgen"},
		{"k_Twice.ptx", "// written by hand\n", "k_Twice.ptx exists and was not written by kernelgen"},
	} {
		dir := tempPackage(t, map[string]string{"k.go": twoKernels, tc.name: tc.src})
		code, _, errs := runCmd("-dir", dir)
		require.Equal(t, 1, code, tc.name)
		require.Contains(t, errs, tc.want)
		got, err := os.ReadFile(filepath.Join(dir, tc.name))
		require.NoError(t, err)
		require.Equal(t, tc.src, string(got), "%s is left alone", tc.name)
	}
}

// TestGeneratedFilesCurrent regenerates every generated file committed
// in the module and fails if one differs: run go generate ./... after
// changing a kernel or the compiler.
func TestGeneratedFilesCurrent(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dirs := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_kernels.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.HasPrefix(src, []byte(headerPrefix)) {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	var ptxs []string
	for dir := range dirs {
		outs, err := generate(dir)
		require.NoError(t, err, dir)
		stale, err := outs.stale()
		require.NoError(t, err)
		require.Empty(t, stale, "generated files out of date: run go generate ./... (then go build ./...)")
		if strings.Contains(dir, filepath.Join("gokernel", "internal", "testkernels")) {
			continue // codegen/gokernel's tests assemble these
		}
		for _, o := range outs {
			if isPTX(o) {
				ptxs = append(ptxs, string(o.data))
			}
		}
	}
	// The PTX of every other generated file assembles.
	ptxas.Require(t)
	for i, text := range ptxs {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			ptxas.AssembleAll(t, text, "sm_80")
		})
	}
}

func TestTooManyParams(t *testing.T) {
	const src = `package tmp

import "github.com/fuseflow/fuseflow/kernel"

//fuseflow:kernel
func Wide(t kernel.Thread, x []int32, a, b, c, d, e, f, g, h, i, j, k, l int32) {
	if n := t.Grid1(); n < len(x) {
		x[n] = a + b + c + d + e + f + g + h + i + j + k + l
	}
}
`
	dir := tempPackage(t, map[string]string{"k.go": src})
	_, err := generate(dir)
	require.ErrorContains(t, err, "kernel Wide has 13 parameters after the Thread, at most 12 are supported")
}

func TestFSName(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"vecadd.go", "vecaddPTX"}, {"Kernels.go", "kernelsPTX"}, {"my-file.go", "my_filePTX"}, {"2d.go", "ptx2dPTX"},
	} {
		if got := fsName(tc.base); got != tc.want {
			t.Errorf("fsName(%q) got:%v want:%v", tc.base, got, tc.want)
		}
	}
}
