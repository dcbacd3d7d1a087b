// Test support: the emulated device runs the loaded module's PTX itself
// on the PTX simulator (internal/ptxsim), so the emitter's output is
// executed, not only assembled. -emu.mode chooses how launches run:
//
//	ptx   the PTX simulator (the default)
//	ir    the kernel's IR on the IR interpreter (codegen/ir)
//	both  both, the interpreter on a copy of the memory, and every byte
//	      the two leave different is a fault reported as an emitter bug
//	      with both values
//
// Every module the code generator returns is parsed by the simulator
// when the plan is compiled (a module it cannot parse fails the compile),
// and filed under the FNV-1a hash of its text, which is what the fake
// driver hands the launch hook. A launch maps each buffer parameter's
// window (emulator.mem: the bytes the kernel may touch, inside one live
// allocation) as a region of global memory, so any access outside it is
// a simulator fault naming the kernel, the PTX line, the thread and the
// address.

package cuda

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
)

// emuMisalignedAddress is CUDA_ERROR_MISALIGNED_ADDRESS, the fault code of
// a misaligned access.
const emuMisalignedAddress = 716

var emuMode = flag.String("emu.mode", "ptx", "how the emulated device runs kernels: ptx (the PTX simulator), ir (the IR interpreter) or both (compared)")

// simModules maps module hashes to their parsed PTX.
var simModules sync.Map // uint64 -> *simModule

// simModule is a parsed module and whether it was generated with fast
// math (whose approximations the interpreter computes differently).
type simModule struct {
	m    *ptxsim.Module
	fast bool
}

// emuSimulates reports whether launches run on the PTX simulator.
func emuSimulates() bool { return *emuMode != "ir" }

// loadSimModule parses a module's PTX for the simulator, once; fast
// says whether it was generated with fast math.
func loadSimModule(mod uint64, text string, fast bool) error {
	if !emuSimulates() {
		return nil
	}
	if _, ok := simModules.Load(mod); ok {
		return nil
	}
	m, err := ptxsim.Parse(text)
	if err != nil {
		return fmt.Errorf("emulator: the PTX simulator cannot parse the module: %w", err)
	}
	simModules.Store(mod, &simModule{m: m, fast: fast})
	return nil
}

// simStats counts what the simulator executed, for tests that report it.
var simStats struct {
	mu sync.Mutex
	ptxsim.Stats
}

// launchPTX runs a launch of kernel k (entry of module mod) on the
// simulator; args are the interpreter's view of the buffer parameters
// (emulator.mem) and params the raw values. In both mode the interpreter
// runs first on a copy of the memory, and the results are compared. It
// returns 0 or the fault code.
func (e *emulator) launchPTX(k *emuKernel, entry string, mod uint64, cfg ir.Config, params []uint64, args []any) int32 {
	v, ok := simModules.Load(mod)
	if !ok {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s (%s): the simulator has no module %#x", k.name, entry, mod))
	}
	sm := v.(*simModule)
	sk, err := sm.m.Kernel(entry)
	if err != nil {
		return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s: %w", k.name, err))
	}
	var regions []ptxsim.Region
	vals := make([]uint64, len(params))
	for i, prm := range k.params {
		vals[i] = params[i]
		m, ok := args[i].(*ir.Mem)
		if prm.kind != codegen.ParamBuffer && prm.kind != codegen.ParamScratch || !ok || len(m.Data) <= m.Lo {
			continue
		}
		regions = append(regions, ptxsim.Region{
			Name: fmt.Sprintf("parameter %s (%v %d)", prm.name, prm.kind, prm.buffer),
			Addr: params[i] + uint64(m.Lo), Data: m.Data[m.Lo:],
		})
	}
	var check func() error
	if *emuMode == "both" {
		if check, err = e.runIRCopy(k, cfg, args, sm.fast); err != nil {
			return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s (%s): the IR interpreter: %w", k.name, entry, err))
		}
	}
	e.runs.Add(1)
	st, err := sk.Run(ptxsim.Config{Grid: cfg.Grid, Block: cfg.Block, Params: vals, Global: regions})
	simStats.mu.Lock()
	simStats.Blocks += st.Blocks
	simStats.WarpInstructions += st.WarpInstructions
	simStats.ThreadInstructions += st.ThreadInstructions
	simStats.mu.Unlock()
	if err != nil {
		code := int32(emuLaunchFailed)
		var se *ptxsim.Error
		if errors.As(err, &se) {
			switch se.Kind {
			case ptxsim.FaultAddress:
				code = emuIllegalAddress
			case ptxsim.FaultMisaligned:
				code = emuMisalignedAddress
			}
		}
		return e.fault(code, fmt.Errorf("kernel %s (%s): %w", k.name, entry, err))
	}
	if check != nil {
		if err := check(); err != nil {
			return e.fault(emuLaunchFailed, fmt.Errorf("kernel %s (%s): %w", k.name, entry, err))
		}
	}
	return 0
}

// runIRCopy runs the kernel's IR on a copy of the memory the launch may
// touch and returns a function that compares the copy with the memory
// after the simulator ran: exactly, or with fast math floats within a
// relative 1e-5 (the interpreter and the PTX approximations differ by a
// few ulps). Parameters whose windows start at the same byte share one
// copy, as they share the memory.
func (e *emulator) runIRCopy(k *emuKernel, cfg ir.Config, args []any, fast bool) (func() error, error) {
	type backing struct {
		lo, n int // the largest Lo and window of the parameters sharing it
		data  []byte
	}
	shared := map[*byte]*backing{}
	for _, a := range args {
		if m, ok := a.(*ir.Mem); ok && len(m.Data) > m.Lo {
			b := shared[&m.Data[m.Lo]]
			if b == nil {
				b = &backing{}
				shared[&m.Data[m.Lo]] = b
			}
			b.lo, b.n = max(b.lo, m.Lo), max(b.n, len(m.Data)-m.Lo)
		}
	}
	irArgs := append([]any(nil), args...)
	for i, a := range args {
		m, ok := a.(*ir.Mem)
		if !ok || len(m.Data) <= m.Lo {
			continue
		}
		b := shared[&m.Data[m.Lo]]
		if b.data == nil {
			b.data = make([]byte, b.lo+b.n)
			copy(b.data[b.lo:], m.Data[m.Lo:])
		}
		irArgs[i] = &ir.Mem{Data: b.data[b.lo-m.Lo : b.lo+len(m.Data)-m.Lo], Lo: m.Lo}
	}
	if err := k.prog.Run(cfg, irArgs...); err != nil {
		return nil, err
	}
	return func() error {
		for i, a := range args {
			m, ok := a.(*ir.Mem)
			if !ok || len(m.Data) <= m.Lo {
				continue
			}
			want := irArgs[i].(*ir.Mem).Data[m.Lo:]
			got := m.Data[m.Lo:]
			elem := k.prog.Func().Params[i].Type.Elem()
			if d := diffElems(got, want, elem, m.Lo, fast); d != "" {
				return fmt.Errorf("emitter bug: the PTX simulator and the IR interpreter disagree on parameter %s (buffer %d): %s", k.params[i].name, k.params[i].buffer, d)
			}
		}
		return nil
	}, nil
}

// diffElems describes the first elements of type t where got (the
// simulator's) and want (the interpreter's) differ, NaN matching NaN and,
// when approx, floats within a relative 1e-5; lo is the byte offset of
// the slices from element 0.
func diffElems(got, want []byte, t ir.Type, lo int, approx bool) string {
	size := max(t.Size(), 1)
	out := ""
	n := 0
	for i := 0; i+size <= len(got) && i+size <= len(want); i += size {
		g, w := got[i:i+size], want[i:i+size]
		if string(g) == string(w) {
			continue
		}
		gv, wv := loadLE(g), loadLE(w)
		switch t {
		case ir.F32:
			x, y := math.Float32frombits(uint32(gv)), math.Float32frombits(uint32(wv))
			if x != x && y != y || approx && math.Abs(float64(x)-float64(y)) <= 1e-5*math.Abs(float64(y)) {
				continue
			}
			out += fmt.Sprintf("element %d: ptx=%v ir=%v; ", (lo+i)/size, x, y)
		case ir.F64:
			x, y := math.Float64frombits(gv), math.Float64frombits(wv)
			if x != x && y != y || approx && math.Abs(x-y) <= 1e-5*math.Abs(y) {
				continue
			}
			out += fmt.Sprintf("element %d: ptx=%v ir=%v; ", (lo+i)/size, x, y)
		default:
			out += fmt.Sprintf("element %d: ptx=%#x ir=%#x; ", (lo+i)/size, gv, wv)
		}
		if n++; n == 4 {
			break
		}
	}
	return out
}

func loadLE(b []byte) uint64 {
	var v uint64
	for i := range b {
		v |= uint64(b[i]) << (8 * i)
	}
	return v
}

// TestEmulatedPTXRuns checks that launches ran the generated PTX on the
// simulator, and in both mode that it agrees with the interpreter on
// random graphs, a reduction of each strategy's shape and a GEMM.
func TestEmulatedPTXRuns(t *testing.T) {
	if !emuSimulates() {
		t.Skip("-emu.mode=ir: launches run on the IR interpreter")
	}
	b := emuBackend(t, emuSmall, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	prev := *emuMode
	*emuMode = "both"
	defer func() { *emuMode = prev }()
	simStats.mu.Lock()
	before := simStats.ThreadInstructions
	simStats.mu.Unlock()
	for seed := range uint64(30) {
		c := randCase(t, 20000+seed, alloc)
		compareWithCPU(t, b, fmt.Sprintf("seed %d", seed), c.Outputs, c.Exact, c.Bound, alloc)
		c.Release()
	}
	x := graph.Input(graph.Float32, graph.Shape{60, 70}, "x")
	y := graph.Input(graph.Float32, graph.Shape{70, 33}, "y")
	outs := []*graph.Node{
		graph.Reduce(graph.OpSum, x, []int{1}, false), graph.Reduce(graph.OpArgMax, x, []int{0}, false),
		graph.Reduce(graph.OpReduceMax, x, nil, false), graph.MatMul(x, y),
	}
	r := rand.New(rand.NewPCG(3, 4))
	bound := bindings{}
	for _, n := range []*graph.Node{x, y} {
		h := newHost(t, alloc, graph.Float32, n.Shape())
		fillSpecial(h, r, 50)
		bound[n] = h
	}
	compareWithCPU(t, b, "reductions and a GEMM", outs, []bool{false, true, true, false}, bound, alloc)
	for _, h := range bound {
		h.Release()
	}
	simStats.mu.Lock()
	ran := simStats.ThreadInstructions - before
	simStats.mu.Unlock()
	require.Positive(t, ran, "thread instructions simulated")
	t.Logf("%d thread instructions simulated", ran)
}

// TestEmulatedPTXFault runs PTX whose first global store is moved 1 MiB
// past its buffer: the simulator faults, naming the kernel, the PTX line
// and the thread, and Eval returns the driver's illegal-address error.
func TestEmulatedPTXFault(t *testing.T) {
	if !emuSimulates() {
		t.Skip("-emu.mode=ir: launches run on the IR interpreter")
	}
	e := needEmu(t)
	b := emuBackend(t, emuSmall, Options{})
	breakable(t, b) // the fault breaks the context, as on a GPU
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	store := regexp.MustCompile(`(st\.global(?:\.v[24])?\.f32\s+\[%rd[0-9]+)\]`)
	good := b.compile
	b.compile = e.wrap(func(p *fuse.Plan, tg codegen.Target) (*codegen.Module, error) {
		m, err := good(p, tg)
		if err != nil {
			return nil, err
		}
		bad := *m
		done := false
		bad.PTX = store.ReplaceAllStringFunc(m.PTX, func(s string) string {
			if done {
				return s
			}
			done = true
			return store.ReplaceAllString(s, "${1}+1048576]")
		})
		require.True(t, done, "no st.global.f32 in the module")
		return &bad, nil
	}, false)
	x := graph.Input(graph.Float32, graph.Shape{100}, "x")
	hx := newHost(t, alloc, graph.Float32, graph.Shape{100})
	defer hx.Release()
	_, err := b.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{graph.Unary(graph.OpNeg, x)}, Bound: bindings{x: hx}})
	require.Error(t, err)
	require.Contains(t, err.Error(), "CUDA_ERROR_ILLEGAL_ADDRESS")
	require.ErrorIs(t, err, ErrDeviceFault)
	faults := e.takeFaults()
	require.Len(t, faults, 1)
	t.Log(faults[0])
	for _, want := range []string{"ptxsim: kernel k0_map", "line ", "st.global.", "thread (", "address 0x", "out-of-bounds"} {
		require.Contains(t, faults[0].Error(), want)
	}
	require.Zero(t, b.Pool().Stats().Live)
	closeWithin(t, b)
}

// TestEmulatedMultiWave runs one kernel of each kind - a map, each
// reduction strategy, a GEMM - at a size where its grid does not fit on
// the small device at once or its threads loop over more than one grid's
// worth of work, so the PTX's grid-stride and tiling loops all turn.
func TestEmulatedMultiWave(t *testing.T) {
	b := emuBackend(t, emuSmall, Options{})
	alloc := checkedAlloc(t, memory.NewGoAllocator())
	tg := b.Target()
	f32 := graph.Float32
	cases := []struct {
		name   string
		shapes []graph.Shape
		build  func(x []*graph.Node) *graph.Node
		kind   fuse.Kind
		strat  codegen.Strategy
	}{
		{"map", []graph.Shape{{1 << 17}}, func(x []*graph.Node) *graph.Node {
			return graph.Unary(graph.OpExp, graph.Binary(graph.OpMul, x[0], x[0]))
		}, fuse.KindMap, codegen.StrategyNone},
		{"warp per row", []graph.Shape{{3000, 13}}, func(x []*graph.Node) *graph.Node {
			return graph.Reduce(graph.OpSum, x[0], []int{1}, false)
		}, fuse.KindReduce, codegen.StrategyWarpPerRow},
		{"block per row", []graph.Shape{{24, 5000}}, func(x []*graph.Node) *graph.Node {
			return graph.Reduce(graph.OpReduceMax, x[0], []int{1}, false)
		}, fuse.KindReduce, codegen.StrategyBlockPerRow},
		{"column", []graph.Shape{{300, 2048}}, func(x []*graph.Node) *graph.Node {
			return graph.Reduce(graph.OpSum, x[0], []int{0}, false)
		}, fuse.KindReduce, codegen.StrategyColumn},
		{"two passes", []graph.Shape{{1 << 17}}, func(x []*graph.Node) *graph.Node {
			return graph.Reduce(graph.OpArgMax, x[0], nil, false)
		}, fuse.KindReduce, codegen.StrategyTwoPass},
		{"matmul", []graph.Shape{{200, 150}, {150, 170}}, func(x []*graph.Node) *graph.Node {
			return graph.MatMul(x[0], x[1])
		}, fuse.KindMatMul, codegen.StrategyNone},
	}
	r := rand.New(rand.NewPCG(9, 9))
	for _, c := range cases {
		var xs []*graph.Node
		bound := bindings{}
		layouts := map[*graph.Node]graph.Layout{}
		for i, s := range c.shapes {
			x := graph.Input(f32, s, fmt.Sprintf("x%d", i))
			h := hostTensor(t, alloc, f32, s, func(int) float32 { return float32(r.NormFloat64()) })
			xs = append(xs, x)
			bound[x] = h
			layouts[x] = graph.ContiguousLayout(f32, s)
		}
		out := c.build(xs)
		p, err := fuse.Build([]*graph.Node{out}, layouts)
		require.NoError(t, err, c.name)
		found := false
		for i := range p.Kernels {
			k := &p.Kernels[i]
			g := kernelGeometry(k, tg)
			if k.Kind() != c.kind || g.Strategy != c.strat {
				continue
			}
			found = true
			points := 1
			for _, e := range k.Space {
				points *= e
			}
			resident := tg.SMs * max(1, tg.MaxThreadsPerSM/max(g.Block, 1))
			t.Logf("%s: %d points, grid %d of %d threads (vector %d), %d resident blocks", c.name, points, g.Grid, g.Block, g.VectorWidth, resident)
			if g.Grid <= resident && points <= g.Grid*g.Block*max(g.VectorWidth, 1) {
				t.Errorf("%s: grid %d of %d threads covers its %d points in one wave (%d resident blocks)", c.name, g.Grid, g.Block, points, resident)
			}
		}
		require.True(t, found, "%s: no %v kernel with strategy %v in the plan:\n%s", c.name, c.kind, c.strat, fuse.Explain(p))
		exact := c.kind == fuse.KindReduce && c.strat != codegen.StrategyColumn && c.name != "warp per row"
		compareWithCPU(t, b, c.name, []*graph.Node{out}, []bool{exact}, bound, alloc)
		for _, h := range bound {
			h.Release()
		}
	}
}
