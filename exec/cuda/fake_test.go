// Test support: the fake CUDA driver (../../internal/cuda/testdata/
// fakecuda.c, built with the system gcc) with its test-only controls, the
// GPU switch (FUSEFLOW_DEVICE=cuda runs against the real driver instead),
// and test code generators whose entries the fake can load and run.

package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/internal/config"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
	fakedrv "github.com/fuseflow/fuseflow/internal/cuda/fake"
)

// noDriverEnv makes the test binary run with a driver path that does not
// exist (the missing-driver test runs itself that way).
const noDriverEnv = "FUSEFLOW_CUDA_TEST_NODRIVER"

// fakeDriver is the built fake library with its controls.
type fakeDriver struct {
	path string
	*fakedrv.Controls
}

// launchRecord is what the fake recorded about the last launch: the x
// extents of its grid and block, all of dims (grid x, y, z, block x, y,
// z, dynamic shared bytes), its parameters' values and its entry.
type launchRecord struct {
	grid, block uint32
	dims        [7]uint32
	params      []uint64
	name        string
}

func (f *fakeDriver) lastLaunch() launchRecord {
	l := f.LastLaunch()
	dims := [7]uint32{l.Grid[0], l.Grid[1], l.Grid[2], l.Block[0], l.Block[1], l.Block[2], l.Shared}
	return launchRecord{grid: l.Grid[0], block: l.Block[0], dims: dims, params: l.Params, name: l.Name}
}

var (
	fake     *fakeDriver
	fakeSkip string
	// fakeErr is why the fake could not be built (no gcc), nil when it
	// was or when fakeSkip says why none was.
	fakeErr error
	// gpuOrdinal is the device of the GPU tests, -1 unless FUSEFLOW_DEVICE
	// asks for cuda.
	gpuOrdinal = -1
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	defer func() {
		if err := closeBench(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the benchmark backend:", err)
		}
	}()
	if os.Getenv(noDriverEnv) == "1" {
		os.Setenv(drv.LibraryEnv, "/nonexistent/libcuda.so.1")
		return m.Run()
	}
	if dev := config.Value(config.Device); strings.HasPrefix(dev, "cuda") {
		gpuOrdinal = 0
		if _, err := fmt.Sscanf(dev, "cuda:%d", &gpuOrdinal); err != nil && dev != "cuda" {
			fmt.Fprintf(os.Stderr, "FUSEFLOW_DEVICE=%q: want cuda or cuda:N\n", dev)
			return 2
		}
		fakeSkip = "FUSEFLOW_DEVICE=" + dev + ": running against the real driver, not the fake"
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "fakecuda")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := buildFake(dir); err != nil {
		if !fakedrv.Skippable(err) {
			fmt.Fprintln(os.Stderr, "building the fake driver:", err)
			return 1
		}
		fakeErr, fakeSkip = err, err.Error()
	}
	return m.Run()
}

// buildFake compiles the fake driver into dir and points the driver
// loader at it. Without gcc the error wraps fakedrv.ErrNoGCC.
func buildFake(dir string) error {
	f := &fakeDriver{path: filepath.Join(dir, "libcuda.so.1")}
	if err := fakedrv.Build(f.path); err != nil {
		return err
	}
	if err := os.Setenv(drv.LibraryEnv, f.path); err != nil {
		return err
	}
	if _, err := drv.Load(); err != nil {
		return err
	}
	var lib uintptr
	var err error
	if f.Controls, lib, err = fakedrv.Open(f.path); err != nil {
		return err
	}
	fake = f
	return setupEmulator(lib)
}

// needFake returns the fake driver or skips the test.
func needFake(t testing.TB) *fakeDriver {
	t.Helper()
	if fake == nil && fakeErr != nil {
		fakedrv.Skip(t, fakeErr)
	}
	if fake == nil {
		t.Skip(fakeSkip)
	}
	return fake
}

// fakeBackend opens the fake device with opts, closes it when the test
// ends (checking that no device memory is left) and restores the fake's
// memory limit.
func fakeBackend(t testing.TB, opts Options) (*fakeDriver, *Backend) {
	t.Helper()
	f := needFake(t)
	b, err := New(0, opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		f.SetMemLimit(1 << 30)
		if live := b.Pool().Stats().Live; live != 0 {
			t.Errorf("pool live bytes at the end got:%d want:0", live)
		}
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return f, b
}

// kernelBuffers lists the plan buffers a kernel touches in the order
// codegen declares their parameters: operands, GEMM operands, stores.
func kernelBuffers(k *fuse.Kernel) []int {
	var out []int
	seen := map[int]bool{}
	add := func(b int) {
		if b >= 0 && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	for _, o := range k.Operands {
		add(o.Buffer)
	}
	if k.MatMul() != nil {
		add(k.MatMul().A.Buffer)
		add(k.MatMul().B.Buffer)
	}
	for _, s := range k.Stores {
		add(s.Buffer)
	}
	return out
}

// stubCompile is a code generator for the fake: one entry per kernel
// taking a pointer per buffer the kernel touches, one to its scratch
// memory when codegen's geometry has any, and an s32 pass, with that
// geometry (two launches when there is scratch memory). The bodies are
// empty: the fake records launches but cannot run them.
func stubCompile(p *fuse.Plan, t codegen.Target) (*codegen.Module, error) {
	var sb strings.Builder
	sb.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n")
	m := &codegen.Module{}
	for i := range p.Kernels {
		k := &p.Kernels[i]
		sig := codegen.Signature{Entry: fmt.Sprintf("k%d_%s", i, k.Kind())}
		fmt.Fprintf(&sb, "\n.visible .entry %s(\n", sig.Entry)
		for _, b := range kernelBuffers(k) {
			fmt.Fprintf(&sb, "\t.param .u64 b%d,\n", b)
			sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamBuffer, Name: fmt.Sprintf("b%d", b), Buffer: b})
		}
		g := kernelGeometry(k, t)
		if g.ScratchBytes > 0 {
			sb.WriteString("\t.param .u64 s0,\n")
			sig.Scratch = []codegen.Scratch{{Bytes: g.ScratchBytes}}
			sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamScratch, Name: "s0"})
		}
		sb.WriteString("\t.param .s32 pass\n)\n{\n\tret;\n}\n")
		sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamPass, Name: "pass", Buffer: -1})
		block := max(g.Block, 32)
		sig.Launches = []codegen.Launch{{Grid: codegen.D1(max(g.Grid, 1)), Block: codegen.D1(block)}}
		if g.ScratchBytes > 0 {
			sig.Launches = append(sig.Launches, codegen.Launch{Grid: codegen.D1(1), Block: codegen.D1(block), Pass: 1})
		}
		m.Kernels = append(m.Kernels, sig)
	}
	m.PTX = sb.String()
	return m, nil
}

// addCompile generates, for a plan whose single kernel adds two int32
// operands, the fake's runnable fake_add entry (c[i] = a[i] + b[i] for
// i < n, n passed as the pass parameter). It lets tests check what the
// executor moves and binds, with the fake computing on the host.
func addCompile(p *fuse.Plan, t codegen.Target) (*codegen.Module, error) {
	if len(p.Kernels) != 1 || p.Kernels[0].Kind() != fuse.KindMap {
		return nil, fmt.Errorf("addCompile: want one map kernel, have %d", len(p.Kernels))
	}
	k := &p.Kernels[0]
	bufs := kernelBuffers(k)
	if len(bufs) != 3 {
		return nil, fmt.Errorf("addCompile: kernel %s touches %d buffers, want 3", k.Name, len(bufs))
	}
	n := 1
	for _, e := range k.Space {
		n *= e
	}
	const ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry fake_add(\n\t.param .u64 a,\n\t.param .u64 b,\n\t.param .u64 c,\n\t.param .u32 n\n)\n{\n\tret;\n}\n"
	sig := codegen.Signature{Entry: "fake_add", Launches: []codegen.Launch{{Grid: codegen.D1((n + 255) / 256), Block: codegen.D1(256), Pass: int32(n)}}}
	for _, b := range bufs {
		sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamBuffer, Buffer: b})
	}
	sig.Params = append(sig.Params, codegen.Param{Kind: codegen.ParamPass, Buffer: -1})
	return &codegen.Module{PTX: ptx, Kernels: []codegen.Signature{sig}}, nil
}
