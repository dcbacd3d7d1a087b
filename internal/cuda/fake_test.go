// Test support: builds the fake driver in testdata/fakecuda.c with the
// system gcc and exposes its test-only controls.

package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	fakedrv "github.com/fuseflow/fuseflow/internal/cuda/fake"
)

// fake is the fake driver built for this test run; nil when gcc is missing
// (and FUSEFLOW_REQUIRE_GCC is off).
var fake *fakeDriver

// fakeErr says why fake is nil.
var fakeErr error

// fakeDriver is the built fake library with its controls.
type fakeDriver struct {
	path    string // libcuda.so.1 with every symbol
	partial string // a library without cuLaunchKernel
	drv     *Driver
	*fakedrv.Controls
}

// launchRecord is what the fake recorded about the last launch.
type launchRecord struct {
	grid, block Dim3
	shared      uint32
	params      []uint64
	name        string
}

func (f *fakeDriver) lastLaunch() launchRecord {
	l := f.LastLaunch()
	dim := func(d [3]uint32) Dim3 { return Dim3{d[0], d[1], d[2]} }
	return launchRecord{grid: dim(l.Grid), block: dim(l.Block), shared: l.Shared, params: l.Params, name: l.Name}
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fakecuda")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		if err := buildFake(dir); err != nil {
			if !fakedrv.Skippable(err) {
				fmt.Fprintln(os.Stderr, "building the fake driver:", err)
				return 1
			}
			fakeErr = err
		}
		return m.Run()
	}()
	os.Exit(code)
}

// buildFake compiles the fake driver into dir, points FUSEFLOW_LIBCUDA at
// it and opens it. Without gcc the error wraps fakedrv.ErrNoGCC.
func buildFake(dir string) error {
	f := &fakeDriver{path: filepath.Join(dir, "libcuda.so.1"), partial: filepath.Join(dir, "libcuda_partial.so")}
	if err := fakedrv.Build(f.path); err != nil {
		return err
	}
	if err := fakedrv.Build(f.partial, "FAKE_OMIT_LAUNCH"); err != nil {
		return err
	}
	if err := os.Setenv(LibraryEnv, f.path); err != nil {
		return err
	}
	var err error
	if f.drv, err = Load(); err != nil {
		return err
	}
	if f.Controls, _, err = fakedrv.Open(f.path); err != nil {
		return err
	}
	fake = f
	return nil
}

// needFake returns the fake driver or skips the test when it could not be
// built for want of gcc (never under FUSEFLOW_REQUIRE_GCC=1).
func needFake(t testing.TB) *fakeDriver {
	t.Helper()
	if fake == nil {
		fakedrv.Skip(t, fakeErr)
	}
	return fake
}

// fakeContext returns the fake device's primary context, released when the
// test ends, and restores the fake's memory limit afterwards.
func fakeContext(t testing.TB) (*fakeDriver, *Context) {
	t.Helper()
	f := needFake(t)
	ctx, err := f.drv.RetainPrimaryContext(0)
	if err != nil {
		t.Fatalf("RetainPrimaryContext: %v", err)
	}
	t.Cleanup(func() {
		f.SetMemLimit(1 << 30)
		if err := ctx.Release(); err != nil {
			t.Errorf("Release: %v", err)
		}
	})
	return f, ctx
}

// hostPtr returns the address of the first element of s for a copy.
func hostPtr[T any](s []T) unsafe.Pointer { return unsafe.Pointer(&s[0]) }

// fakePTX is a PTX module with the fake driver's two working kernels and
// a kernel with every parameter kind.
const fakePTX = `.version 8.0
.target sm_90
.address_size 64

.visible .entry fake_add(
	.param .u64 a,
	.param .u64 b,
	.param .u64 c,
	.param .u32 n
)
{
	ret;
}

.visible .entry fake_axpy(
	.param .f32 alpha,
	.param .u64 x,
	.param .u64 y,
	.param .u32 n
)
{
	ret;
}

.visible .entry every_kind(
	.param .u64 p,
	.param .s32 i,
	.param .u32 u,
	.param .f32 f,
	.param .s64 l,
	.param .u64 q,
	.param .f64 d
)
{
	ret;
}

.visible .entry no_params()
{
	ret;
}
`
