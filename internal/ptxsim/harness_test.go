// The harness of the generated-kernel tests: a graph is planned, every
// kernel is lowered to IR (run on the IR interpreter, codegen/ir) and
// compiled to PTX (run on the simulator), both over their own copy of the
// plan's buffers; after every launch the two copies must agree byte for
// byte (NaNs agreeing with NaNs), and at the end the outputs must agree
// with the reference evaluator (exec/ref). A disagreement between the
// simulator and the interpreter is an emitter bug (or a bug of one of the
// two): the report names the kernel, the launch, the buffer, the first
// elements that differ with both values, the plan and the PTX entry.

package ptxsim_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/codegen/mathlib"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxsim"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// bufBase is the device address of buffer 0; buffers are bufStride
// apart.
const (
	bufBase   = 0x7f0000000000
	bufStride = 1 << 32
)

// simResult is what runGraph found.
type simResult struct {
	plan     *fuse.Plan
	module   *codegen.Module
	stats    ptxsim.Stats
	kernels  int
	launches int
}

// runGraph plans outs for tg and runs every kernel on both the simulator
// and (unless fast math, whose approximations the interpreter computes
// differently) the IR interpreter, comparing after every launch, then
// compares the outputs with the reference. It returns an error describing
// the first disagreement.
func runGraph(outs []*graph.Node, exact []bool, bound map[*graph.Node]*exec.Tensor, tg codegen.Target, fast bool) (*simResult, error) {
	layouts := map[*graph.Node]graph.Layout{}
	for n, x := range bound {
		layouts[n] = x.Layout
	}
	p, err := fuse.Build(outs, layouts)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	_, slots, err := fuse.Key(outs, layouts)
	if err != nil {
		return nil, fmt.Errorf("key: %w", err)
	}
	mod, err := codegen.Compile(p, tg, codegen.Options{FastMath: fast})
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	if len(p.Kernels) == 0 {
		return &simResult{plan: p, module: mod}, nil
	}
	sm, err := ptxsim.Parse(mod.PTX)
	if err != nil {
		return nil, fmt.Errorf("the simulator cannot parse the module: %w", err)
	}
	res := &simResult{plan: p, module: mod}
	// Both copies of every buffer: uninitialized bytes are 0xa5 in both.
	sim := make([][]byte, len(p.Buffers))
	irm := make([]*ir.Mem, len(p.Buffers))
	dtypes := bufferDTypes(p)
	for i, b := range p.Buffers {
		n := int(b.Bytes)
		var src []byte
		if b.Kind == fuse.BufInput {
			src = bound[slots[b.Slot]].Bytes()
			n = max(n, len(src))
		}
		sim[i] = make([]byte, n)
		for j := range sim[i] {
			sim[i][j] = 0xa5
		}
		copy(sim[i], src)
		irm[i] = ir.NewMem(n)
		copy(irm[i].Data, sim[i])
	}
	regions := make([]ptxsim.Region, len(sim))
	for i := range sim {
		regions[i] = ptxsim.Region{Name: fmt.Sprintf("buffer %d", i), Addr: bufBase + uint64(i)*bufStride, Data: sim[i]}
	}
	nb := len(p.Buffers)
	for ki := range p.Kernels {
		k := &p.Kernels[ki]
		sig := mod.Kernels[ki]
		sk, err := sm.Kernel(sig.Entry)
		if err != nil {
			return res, err
		}
		// The kernel's scratch areas follow the plan buffers, in both
		// copies, uninitialized alike.
		sim, irm, regions, dtypes = sim[:nb], irm[:nb], regions[:nb], dtypes[:nb]
		for si, sc := range sig.Scratch {
			d := make([]byte, sc.Bytes)
			for j := range d {
				d[j] = 0xa5
			}
			m := ir.NewMem(len(d))
			copy(m.Data, d)
			sim, irm, dtypes = append(sim, d), append(irm, m), append(dtypes, graph.Invalid)
			regions = append(regions, ptxsim.Region{Name: fmt.Sprintf("scratch %d", si), Addr: bufBase + uint64(nb+si)*bufStride, Data: d})
		}
		var prog *ir.Program
		if !fast {
			fn, _, err := codegen.Lower(k, tg)
			if err != nil {
				return res, fmt.Errorf("kernel %d: lower: %w", ki, err)
			}
			if err := mathlib.Expand(fn); err != nil {
				return res, fmt.Errorf("kernel %d: math: %w", ki, err)
			}
			if prog, err = ir.Compile(fn); err != nil {
				return res, fmt.Errorf("kernel %d: %w", ki, err)
			}
		}
		res.kernels++
		for li, ln := range sig.Launches {
			params := make([]uint64, len(sig.Params))
			args := make([]any, len(sig.Params))
			for pi, prm := range sig.Params {
				switch prm.Kind {
				case codegen.ParamBuffer:
					params[pi] = bufBase + uint64(prm.Buffer)*bufStride
					args[pi] = irm[prm.Buffer]
				case codegen.ParamScratch:
					params[pi] = bufBase + uint64(nb+prm.Buffer)*bufStride
					args[pi] = irm[nb+prm.Buffer]
				case codegen.ParamPass:
					params[pi] = uint64(uint32(ln.Pass))
					args[pi] = ln.Pass
				}
			}
			var before [][]byte
			if prog != nil {
				before = snapshot(sim)
			}
			cfg := ptxsim.Config{Grid: ln.Grid.Array(), Block: ln.Block.Array(), Params: params, Global: regions}
			st, err := sk.Run(cfg)
			res.stats.Blocks += st.Blocks
			res.stats.WarpInstructions += st.WarpInstructions
			res.stats.ThreadInstructions += st.ThreadInstructions
			res.launches++
			if err != nil {
				return res, fmt.Errorf("kernel %d (%s) launch %d on the simulator: %w\n%s", ki, sig.Entry, li, err, fuse.Explain(p))
			}
			if prog == nil {
				continue
			}
			if err := prog.Run(ir.Config{Grid: ln.Grid.Array(), Block: ln.Block.Array()}, args...); err != nil {
				return res, fmt.Errorf("kernel %d (%s) launch %d on the IR interpreter: %w", ki, sig.Entry, li, err)
			}
			for bi := range sim {
				if d, first := diffBytes(sim[bi], irm[bi].Data, dtypes[bi]); d != "" {
					trace := explainWrite(sk, cfg, before, bufBase+uint64(bi)*bufStride+uint64(first))
					return res, fmt.Errorf("emitter bug? kernel %d (%s) launch %d: the PTX simulator and the IR interpreter disagree on buffer %d (%v): %s\n%s\n%s",
						ki, sig.Entry, li, bi, dtypes[bi], d, trace, fuse.Explain(p))
				}
			}
		}
	}
	want, err := ref.New().Eval(context.Background(), &exec.Request{Outputs: outs, Bound: bound})
	if err != nil {
		return res, fmt.Errorf("reference: %w", err)
	}
	defer func() {
		for _, w := range want {
			w.Release()
		}
	}()
	for i, o := range p.Outputs {
		got := &exec.Tensor{Buf: memory.NewBufferBytes(sim[o.Buffer]), Layout: o.Layout}
		if err := randgraph.Compare(got, want[i], exact[i] && !approxOf(outs[i])); err != nil {
			return res, fmt.Errorf("output %d (%v %v %v) against the reference: %w\n%s", i, outs[i].Op(), outs[i].Shape(), outs[i].DType(), err, fuse.Explain(p))
		}
	}
	return res, nil
}

// gpuApprox lists the float ops the math library computes to within a
// few ulps rather than correctly rounded (codegen/mathlib/ULP.md).
var gpuApprox = map[graph.Op]bool{
	graph.OpRsqrt: true, graph.OpExp: true, graph.OpExp2: true, graph.OpLog: true, graph.OpLog2: true,
	graph.OpLog1p: true, graph.OpExpm1: true, graph.OpSin: true, graph.OpCos: true, graph.OpTan: true,
	graph.OpTanh: true, graph.OpSigmoid: true, graph.OpErf: true, graph.OpPow: true, graph.OpAtan2: true,
	graph.OpRandN: true,
}

// approxOf reports whether n depends on a gpuApprox op on floats.
func approxOf(n *graph.Node) bool {
	seen := map[*graph.Node]bool{}
	var visit func(n *graph.Node) bool
	visit = func(n *graph.Node) bool {
		if seen[n] {
			return false
		}
		seen[n] = true
		if gpuApprox[n.Op()] && n.DType().IsFloat() {
			return true
		}
		for _, x := range n.Inputs() {
			if visit(x) {
				return true
			}
		}
		return false
	}
	return visit(n)
}

// bufferDTypes returns the dtype each buffer holds, as its operands and
// stores say (Invalid when none says, as for reduction scratch).
func bufferDTypes(p *fuse.Plan) []graph.DType {
	out := make([]graph.DType, len(p.Buffers))
	for _, k := range p.Kernels {
		for _, o := range k.Operands {
			if o.Buffer >= 0 && o.Buffer < len(out) {
				out[o.Buffer] = o.DType
			}
		}
		for _, s := range k.Stores {
			out[s.Buffer] = s.DType
		}
	}
	return out
}

// snapshot copies the buffers.
func snapshot(bufs [][]byte) [][]byte {
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		out[i] = append([]byte(nil), b...)
	}
	return out
}

// explainWrite reruns a launch from the memory before it (on a copy),
// watching addr, and traces the thread whose write put the wrong value
// there: the simulator's side of a disagreement, instruction by
// instruction with the values it computed.
func explainWrite(k *ptxsim.Kernel, cfg ptxsim.Config, before [][]byte, addr uint64) string {
	regions := make([]ptxsim.Region, len(cfg.Global))
	for i, r := range cfg.Global {
		regions[i] = r
		regions[i].Data = append([]byte(nil), before[i]...)
	}
	cfg.Global = regions
	cfg.Watch = &ptxsim.Watch{Addr: addr}
	if _, err := k.Run(cfg); err != nil || len(cfg.Watch.Hits) == 0 {
		return fmt.Sprintf("(no write to %#x found: %v)", addr, err)
	}
	h := cfg.Watch.Hits[len(cfg.Watch.Hits)-1]
	for i := range regions {
		regions[i].Data = append([]byte(nil), before[i]...)
	}
	cfg.Watch = nil
	cfg.Trace = &ptxsim.Trace{CTA: h.CTA, Thread: h.Thread, Limit: 60}
	_, _ = k.Run(cfg)
	return fmt.Sprintf("the simulator's last write there: %v\nits trace (last %d instructions):\n  %s",
		h, len(cfg.Trace.Lines), strings.Join(cfg.Trace.Lines, "\n  "))
}

// diffBytes describes where a (simulator) and b (interpreter) differ,
// floats comparing a NaN equal to any NaN, and returns the byte offset of
// the first difference; "" when they agree.
func diffBytes(a, b []byte, d graph.DType) (string, int) {
	var diffs []string
	first := -1
	size := d.Size()
	if d == graph.Invalid {
		size = 8
	}
	for i := 0; i < len(a); {
		if a[i] == b[i] {
			i++
			continue
		}
		e := i / size
		lo := e * size
		hi := min(lo+size, len(a))
		x, y := a[lo:hi], b[lo:hi]
		if nanPair(x, y, d) {
			i = hi
			continue
		}
		if first < 0 {
			first = lo
		}
		diffs = append(diffs, fmt.Sprintf("element %d: ptx=%s ir=%s", e, show(x, d), show(y, d)))
		if len(diffs) == 4 {
			break
		}
		i = hi
	}
	return strings.Join(diffs, "; "), first
}

// nanPair reports whether x and y are both NaNs of a float dtype (or, for
// untyped memory, of either float width).
func nanPair(x, y []byte, d graph.DType) bool {
	f32 := func(b []byte) bool {
		return len(b) >= 4 && math.IsNaN(float64(math.Float32frombits(le32(b))))
	}
	f64 := func(b []byte) bool {
		return len(b) >= 8 && math.IsNaN(math.Float64frombits(uint64(le32(b))|uint64(le32(b[4:]))<<32))
	}
	switch d {
	case graph.Float32:
		return f32(x) && f32(y)
	case graph.Float64:
		return f64(x) && f64(y)
	case graph.Invalid:
		if f64(x) && f64(y) {
			return true
		}
		for o := 0; o+4 <= len(x); o += 4 {
			if string(x[o:o+4]) != string(y[o:o+4]) && !(f32(x[o:]) && f32(y[o:])) {
				return false
			}
		}
		return true
	}
	return false
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// show renders an element's bytes as its dtype's value.
func show(b []byte, d graph.DType) string {
	switch {
	case d == graph.Float32 && len(b) == 4:
		return fmt.Sprint(math.Float32frombits(le32(b)))
	case d == graph.Float64 && len(b) == 8:
		return fmt.Sprint(math.Float64frombits(uint64(le32(b)) | uint64(le32(b[4:]))<<32))
	case d == graph.Int32 && len(b) == 4:
		return fmt.Sprint(int32(le32(b)))
	case d == graph.Int64 && len(b) == 8:
		return fmt.Sprint(int64(uint64(le32(b)) | uint64(le32(b[4:]))<<32))
	}
	return fmt.Sprintf("%x", b)
}

// collectInputs returns the Input leaves of outs.
func collectInputs(outs []*graph.Node) []*graph.Node {
	seen := map[*graph.Node]bool{}
	var in []*graph.Node
	var walk func(n *graph.Node)
	walk = func(n *graph.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.Op() == graph.OpInput {
			in = append(in, n)
		}
		for _, x := range n.Inputs() {
			walk(x)
		}
	}
	for _, o := range outs {
		walk(o)
	}
	return in
}

// randCase draws random graph seed with cfg.
func randCase(t testing.TB, seed uint64, cfg randgraph.Config) *randgraph.Case {
	t.Helper()
	r := randSource(seed)
	c, err := randgraph.Generate(r, memory.DefaultAllocator, cfg)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return c
}
