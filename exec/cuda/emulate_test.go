// Test support: the emulated device. The fake driver hands every launch of
// a generated kernel to a Go callback (fake_set_launch_hook), which runs
// the kernel over the fake's device memory - its PTX on the PTX simulator,
// or its IR on the interpreter (-emu.mode, emulate_ptx_test.go) - so the
// whole GPU path (planning, code generation, the module cache, argument
// packing, buffer binding and offsets, scratch buffers, multi-pass
// launches, transfers) is checked end to end on the CPU. Only real
// hardware stays unchecked.
//
// The IR a launch runs is recorded when the plan is compiled: the code
// generator is wrapped so that every module also lowers each kernel again
// (codegen.Lower, then the math library's expansion as the PTX emitter
// does) and files it under the module's PTX hash and entry name, the two
// things the fake knows about a launched function. Each pointer parameter
// becomes an ir.Mem aliasing the fake's allocation directly; its bounds
// are the bytes the kernel may touch (a bound view's range for an input,
// the whole buffer otherwise), which must lie inside one live allocation.

package cuda

import (
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/fuse"
)

// Fault codes the emulator reports to the fake (CUDA's numbering).
const (
	emuIllegalAddress = 700 // CUDA_ERROR_ILLEGAL_ADDRESS
	emuLaunchFailed   = 719 // CUDA_ERROR_LAUNCH_FAILED
)

// emuKey names a kernel as the fake sees it: the FNV-1a hash of its
// module's PTX and its entry.
type emuKey struct {
	mod   uint64
	entry string
}

// emuKernel is a generated kernel ready to interpret.
type emuKernel struct {
	name   string // the plan kernel's name
	prog   *ir.Program
	params []emuParam
}

// emuParam is one parameter: a buffer with the byte range [lo, hi) from
// its element 0 that the kernel may touch, or the pass.
type emuParam struct {
	kind   codegen.ParamKind
	name   string
	buffer int
	lo, hi int64
}

// emulator runs launched kernels on the interpreter. Safe for concurrent
// use: the fake calls it from every thread that launches.
type emulator struct {
	allocOf func(p uint64, base *unsafe.Pointer, size *uint64) int32

	mu      sync.RWMutex
	kernels map[emuKey]*emuKernel
	// explicit holds the explicit kernels filed by emuExplicit.
	explicit map[emuKey]*explicitKernel
	// shapes counts the kernel shapes compiled ("reduce column split",
	// "matmul"), for tests that must cover each.
	shapes map[string]int

	faultMu sync.Mutex
	faults  []error

	// runs counts kernels interpreted; unknown counts launches of
	// kernels it has no IR for (the stub code generators' empty ones).
	runs, unknown atomic.Int64
}

var (
	emu *emulator
	// emuSkip says why emu is nil.
	emuSkip = "the fake CUDA driver was not built"
	// emuSetHook and emuHook register and name the launch hook, so a test
	// that must see the fake's own launch path can take it away.
	emuSetHook func(fn uintptr)
	emuHook    uintptr
)

// withoutLaunchHook removes the emulator's launch hook for the rest of
// t: launches then reach only the fake driver, which records them.
func withoutLaunchHook(t interface{ Cleanup(func()) }) {
	if emuSetHook == nil {
		return
	}
	emuSetHook(0)
	t.Cleanup(func() { emuSetHook(emuHook) })
}

// setupEmulator registers the launch hook in the fake library lib.
// Callbacks from C into Go are what purego.NewCallback provides; where
// the platform lacks them, emuSkip says so.
func setupEmulator(lib uintptr) (err error) {
	e := &emulator{kernels: map[emuKey]*emuKernel{}, explicit: map[emuKey]*explicitKernel{}, shapes: map[string]int{}}
	var setHook func(fn uintptr)
	purego.RegisterLibFunc(&setHook, lib, "fake_set_launch_hook")
	purego.RegisterLibFunc(&e.allocOf, lib, "fake_alloc_of")
	defer func() {
		if r := recover(); r != nil {
			emuSkip = fmt.Sprintf("purego cannot make a C callback on %s/%s: %v", runtime.GOOS, runtime.GOARCH, r)
			err = nil
		}
	}()
	hook := purego.NewCallback(e.launch)
	setHook(hook)
	emuSetHook, emuHook = setHook, hook
	emu = e
	return nil
}

// needEmu returns the emulator or skips the test.
func needEmu(t interface {
	Helper()
	Skip(...any)
}) *emulator {
	t.Helper()
	if fake == nil {
		t.Skip(fakeSkip)
	}
	if emu == nil {
		t.Skip(emuSkip)
	}
	return emu
}

// wrap returns a code generator that calls inner and records, for every
// kernel of the module, the IR that the PTX was emitted from. fast says
// whether inner generates fast math (the accurate math calls are expanded
// as the PTX emitter does otherwise).
func (e *emulator) wrap(inner CompileFunc, fast bool) CompileFunc {
	return func(p *fuse.Plan, t codegen.Target) (*codegen.Module, error) {
		m, err := inner(p, t)
		if err != nil {
			return nil, err
		}
		if m.PTX == "" {
			return m, nil // only Call kernels, which run their own PTX
		}
		h := fnv.New64a()
		h.Write([]byte(m.PTX))
		mod := h.Sum64()
		if err := loadSimModule(mod, m.PTX, fast); err != nil {
			return nil, err
		}
		for i := range p.Kernels {
			k := &p.Kernels[i]
			if k.Kind() == fuse.KindCall {
				continue // an explicit kernel, filed with emuExplicit
			}
			fn, sig, err := codegen.Lower(k, t)
			if err != nil {
				return nil, fmt.Errorf("emulator: lowering kernel %d (%s) again: %w", i, k.Name, err)
			}
			if !fast {
				if err := mathlib.Expand(fn); err != nil {
					return nil, fmt.Errorf("emulator: kernel %s: %w", k.Name, err)
				}
			}
			prog, err := ir.Compile(fn)
			if err != nil {
				return nil, fmt.Errorf("emulator: kernel %s: %w", k.Name, err)
			}
			ek, err := emuKernelOf(p, k, prog, sig, &m.Kernels[i])
			if err != nil {
				return nil, err
			}
			key := emuKey{mod, m.Kernels[i].Entry}
			e.mu.Lock()
			if _, ok := e.kernels[key]; !ok {
				e.kernels[key] = ek
			}
			e.shapes[kernelShape(k, t)]++
			e.mu.Unlock()
		}
		return m, nil
	}
}

// kernelShape names the code template of k on t: "map", "matmul", or the
// reduction strategy ("reduce column split" when split over blocks).
func kernelShape(k *fuse.Kernel, t codegen.Target) string {
	switch k.Kind() {
	case fuse.KindReduce:
		g := kernelGeometry(k, t)
		s := "reduce " + g.Strategy.String()
		if g.Strategy == codegen.StrategyColumn && g.Split > 1 {
			s += " split"
		}
		return s
	case fuse.KindMatMul:
		return "matmul"
	case fuse.KindScan:
		return "scan " + kernelGeometry(k, t).Strategy.String()
	case fuse.KindSort:
		return "sort " + kernelGeometry(k, t).Strategy.String()
	}
	return "map"
}

// kernelGeometry returns the geometry codegen chooses for k on t (the
// zero Geometry when none fits: Lower then reports the error).
func kernelGeometry(k *fuse.Kernel, t codegen.Target) codegen.Geometry {
	g, _ := codegen.ChooseGeometry(k, t)
	return g
}

// compiled returns how many kernels of each shape were compiled so far.
func (e *emulator) compiled() map[string]int {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make(map[string]int, len(e.shapes))
	for k, v := range e.shapes {
		out[k] = v
	}
	return out
}

// emuKernelOf checks that the executor's signature got agrees with the
// lowered one and works out each buffer's reachable bytes.
func emuKernelOf(p *fuse.Plan, k *fuse.Kernel, prog *ir.Program, want *codegen.Signature, got *codegen.Signature) (*emuKernel, error) {
	if len(got.Params) != len(want.Params) || len(got.Launches) != len(want.Launches) {
		return nil, fmt.Errorf("emulator: kernel %s: the module's signature has %d params and %d launches, Lower's %d and %d",
			k.Name, len(got.Params), len(got.Launches), len(want.Params), len(want.Launches))
	}
	if !slices.Equal(got.Scratch, want.Scratch) {
		return nil, fmt.Errorf("emulator: kernel %s: the module's scratch %+v, Lower's %+v", k.Name, got.Scratch, want.Scratch)
	}
	for i, l := range want.Launches {
		if g := got.Launches[i]; g.Grid != l.Grid || g.Block != l.Block || g.Pass != l.Pass {
			return nil, fmt.Errorf("emulator: kernel %s launch %d: module %+v, Lower %+v", k.Name, i, g, l)
		}
	}
	ek := &emuKernel{name: k.Name, prog: prog}
	for i, prm := range want.Params {
		if g := got.Params[i]; int(g.Kind) != int(prm.Kind) || g.Buffer != prm.Buffer {
			return nil, fmt.Errorf("emulator: kernel %s param %d: module %+v, Lower %+v", k.Name, i, g, prm)
		}
		ep := emuParam{kind: prm.Kind, name: prm.Name, buffer: prm.Buffer}
		if prm.Kind == codegen.ParamScratch {
			ep.hi = want.Scratch[prm.Buffer].Bytes
		}
		if prm.Kind == codegen.ParamBuffer {
			bf := p.Buffers[prm.Buffer]
			ep.hi = bf.Bytes
			if bf.Kind == fuse.BufInput {
				l := p.Inputs[bf.Slot].Layout
				es := int64(l.DType.Size())
				lo, hi := l.Span()
				ep.lo, ep.hi = int64(lo)*es, int64(hi+1)*es
				if hi < lo {
					ep.lo, ep.hi = 0, 0
				}
			}
		}
		ek.params = append(ek.params, ep)
	}
	return ek, nil
}

// fault records err and returns the code the fake reports.
func (e *emulator) fault(code int32, err error) int32 {
	e.faultMu.Lock()
	e.faults = append(e.faults, err)
	e.faultMu.Unlock()
	return code
}

// takeFaults returns the faults recorded since the last call.
func (e *emulator) takeFaults() []error {
	e.faultMu.Lock()
	defer e.faultMu.Unlock()
	f := e.faults
	e.faults = nil
	return f
}

// launch is the fake's launch hook: it runs the kernel and returns 0, or
// a CUDA error code for a fault (recorded with its cause).
func (e *emulator) launch(name *byte, mod uint64, dims *[7]uint32, params *[32]uint64, n int32) (code int32) {
	raw := unsafe.Slice(name, 128)
	entry := string(raw[:strings.IndexByte(string(raw), 0)])
	defer func() {
		if r := recover(); r != nil {
			code = e.fault(emuLaunchFailed, fmt.Errorf("entry %s: the emulator panicked: %v", entry, r))
		}
	}()
	e.mu.RLock()
	k := e.kernels[emuKey{mod, entry}]
	ek := e.explicit[emuKey{mod, entry}]
	e.mu.RUnlock()
	if ek != nil {
		return e.launchExplicit(ek, entry, mod, dims, params[:n])
	}
	if k == nil {
		e.unknown.Add(1)
		return 0
	}
	if int(n) != len(k.params) {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s (%s): launched with %d parameters, it has %d", k.name, entry, n, len(k.params)))
	}
	if dims[6] != 0 {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s (%s): %d bytes of dynamic shared memory, the generated code declares its own", k.name, entry, dims[6]))
	}
	args := make([]any, n)
	for i, prm := range k.params {
		v := params[i]
		if prm.kind == codegen.ParamPass {
			args[i] = int32(uint32(v))
			continue
		}
		m, err := e.mem(v, prm)
		if err != nil {
			return e.fault(emuIllegalAddress, fmt.Errorf("kernel %s (%s): %w", k.name, entry, err))
		}
		args[i] = m
	}
	cfg := ir.Config{Grid: [3]int{int(dims[0]), int(dims[1]), int(dims[2])}, Block: [3]int{int(dims[3]), int(dims[4]), int(dims[5])}}
	if emuSimulates() {
		return e.launchPTX(k, entry, mod, cfg, params[:n], args)
	}
	e.runs.Add(1)
	if err := k.prog.Run(cfg, args...); err != nil {
		code := int32(emuLaunchFailed)
		var re *ir.RunError
		if errors.As(err, &re) && strings.Contains(re.Msg, "out-of-bounds") {
			code = emuIllegalAddress
		}
		return e.fault(code, fmt.Errorf("kernel %s (%s): %w", k.name, entry, err))
	}
	return 0
}

// mem returns the interpreter's view of buffer parameter prm at device
// address p: Data starts at p (element 0) and ends at the last byte the
// kernel may touch; Lo marks the first. Those bytes must lie in one live
// allocation of the fake.
func (e *emulator) mem(p uint64, prm emuParam) (*ir.Mem, error) {
	if p == 0 {
		return nil, fmt.Errorf("parameter %s (buffer %d) is a null pointer", prm.name, prm.buffer)
	}
	if p%16 != 0 {
		return nil, fmt.Errorf("parameter %s (buffer %d): address %#x is not 16-byte aligned", prm.name, prm.buffer, p)
	}
	if prm.hi <= prm.lo {
		return &ir.Mem{}, nil
	}
	start := p + uint64(prm.lo)
	var base unsafe.Pointer
	var size uint64
	if e.allocOf(start, &base, &size) == 0 {
		return nil, fmt.Errorf("parameter %s (buffer %d): bytes [%d, %d) from address %#x are in no live device allocation",
			prm.name, prm.buffer, prm.lo, prm.hi, p)
	}
	off := start - uint64(uintptr(base)) // of start in the allocation
	if off+uint64(prm.hi-prm.lo) > size {
		return nil, fmt.Errorf("parameter %s (buffer %d): bytes [%d, %d) from address %#x overrun their %d-byte allocation (they start %d bytes in)",
			prm.name, prm.buffer, prm.lo, prm.hi, p, size, off)
	}
	first := unsafe.Add(base, int64(off)-prm.lo) // element 0, maybe before the allocation
	return &ir.Mem{Data: unsafe.Slice((*byte)(first), prm.hi), Lo: int(prm.lo)}, nil
}

// emuDevice is the device an emulated test runs on.
type emuDevice int

const (
	// emuH100 is the fake's own device: 132 SMs, 1024 threads a block.
	emuH100 emuDevice = iota
	// emuSmall has 2 SMs and 256 threads a block (512 an SM), so that
	// small shapes already spread over several blocks and every
	// reduction strategy shows at sizes the interpreter runs quickly.
	emuSmall
)

// smallAttrs are the device attributes of emuSmall, by CUDA attribute
// number, with the fake's defaults.
var smallAttrs = []struct{ attr, small, def int32 }{
	{16, 2, 132},    // multiprocessors
	{1, 256, 1024},  // max threads per block
	{39, 512, 2048}, // max threads per multiprocessor
	{75, 8, 9},      // compute capability major
}

// emuOpen counts the emulated backends open; emuBaseline is the fake's
// device memory in use when the first of them opened.
var (
	emuOpenMu   sync.Mutex
	emuOpen     int
	emuBaseline uint64
)

// emuBackend opens the fake device with opts, its code generator wrapped
// by the emulator so that launches run on the interpreter. At the end of
// the test it checks that no kernel faulted, that the pool holds no live
// bytes, and, after Close of the last emulated backend open, that the
// fake's device memory is all freed.
func emuBackend(t testing.TB, dev emuDevice, opts Options) *Backend {
	t.Helper()
	e := needEmu(t)
	f := fake
	emuOpenMu.Lock()
	if emuOpen == 0 {
		emuBaseline = f.MemUsed()
	}
	emuOpen++
	emuOpenMu.Unlock()
	if dev == emuSmall {
		for _, a := range smallAttrs {
			f.SetAttr(a.attr, a.small)
		}
	}
	b, err := New(0, opts)
	if dev == emuSmall {
		for _, a := range smallAttrs {
			f.SetAttr(a.attr, a.def)
		}
	}
	if err != nil {
		emuOpenMu.Lock()
		emuOpen--
		emuOpenMu.Unlock()
		t.Fatalf("New: %v", err)
	}
	b.compile = e.wrap(b.compile, opts.FastMath.Resolve(FastMathEnv))
	e.takeFaults()
	t.Cleanup(func() {
		for _, err := range e.takeFaults() {
			t.Errorf("kernel fault: %v", err)
		}
		if live := b.Pool().Stats().Live; live != 0 {
			t.Errorf("pool live bytes at the end got:%d want:0", live)
		}
		if err := b.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		emuOpenMu.Lock()
		defer emuOpenMu.Unlock()
		if emuOpen--; emuOpen == 0 {
			if got := f.MemUsed(); got != emuBaseline {
				t.Errorf("fake device memory in use after Close got:%d want:%d", got, emuBaseline)
			}
		}
	})
	return b
}
