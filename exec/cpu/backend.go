// Backend: cpu.New and Eval — the shared runner (exec/runner) driving
// this target: plans lowered to vector programs, host buffers from the
// request's allocator, kernels run in order on the worker pool.

package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/runner"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// Options configures a CPU backend. The zero value is a good default.
type Options struct {
	// Workers is the number of goroutines a kernel runs on; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Chunk overrides the number of points a worker evaluates at a time
	// (chosen for each kernel so that its operands fit a worker's cache
	// when 0).
	Chunk int
	// CacheSize is the number of plans kept (256 when 0).
	CacheSize int
}

// Backend runs fused plans on the CPU. It is safe for concurrent use.
type Backend struct {
	workers int
	chunk   int
	runner  *runner.Runner

	evals sync.Pool // *evaluation, each with its workers' frames (evalpool.go)
}

// New returns a CPU backend with the given options.
func New(opts Options) *Backend {
	w := opts.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	b := &Backend{workers: w, chunk: opts.Chunk}
	b.runner = runner.New(target{b}, opts.CacheSize)
	return b
}

// Name returns "cpu".
func (b *Backend) Name() string { return "cpu" }

// CacheStats reports the plan cache's hits and misses.
func (b *Backend) CacheStats() exec.CacheStats { return b.runner.Stats() }

// AcceptsBoundList returns true: Eval reads bound values from
// req.BoundList as well as req.Bound (see exec.ListBinder).
func (b *Backend) AcceptsBoundList() bool { return true }

// Eval computes req.Outputs. The caller owns the returned tensors and must
// Release each; an output may be a view of a bound tensor's buffer or
// share a buffer with another output. On error (a graph error, an
// unsupported kernel, ctx cancelled) it returns no tensors and releases
// everything it allocated.
func (b *Backend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	if req == nil || req.Alloc == nil {
		return nil, fmt.Errorf("cpu: Eval needs a request with an allocator")
	}
	return b.runner.Eval(ctx, req)
}

// target is the backend as the runner's target.
type target struct{ b *Backend }

func (target) Name() string { return "cpu" }

// lowPlan holds a plan's kernels lowered for this backend.
type lowPlan struct {
	plan    *fuse.Plan
	kernels []lowKernel
}

// Release does nothing: a lowered plan holds only Go memory.
func (*lowPlan) Release() {}

type lowKernel struct {
	mp      *prog
	rd      *redKernel
	mm      *mmKernel
	call    *callKernel
	scan    *scanKernel
	index   *indexKernel
	sort    *sortKernel
	chunk   int
	workers int
	// group is the row group the kernel belongs to, or nil (sched.go):
	// the group runs whole at its first kernel.
	group *rowGroup
}

// Prepare lowers p's kernels to programs over chunks of their space.
// PlanOptions gives the planner the CPU's exchange rate between
// arithmetic and memory traffic.
func (t target) PlanOptions() fuse.Options { return fuse.CPUOptions() }

func (t target) Prepare(p *fuse.Plan) (runner.Program, error) {
	b := t.b
	lp := &lowPlan{plan: p}
	for i := range p.Kernels {
		k := &p.Kernels[i]
		lk := lowKernel{}
		lk.chunk, lk.workers = chunking(k, b.workers)
		if b.chunk > 0 {
			lk.chunk = b.chunk
		}
		// chunking sizes workers by the output; a product takes as many
		// as its m·n·k work is worth (internal/gemm and the integer loop
		// bound them themselves).
		if k.Kind() == fuse.KindMatMul || k.Kind() == fuse.KindIndex {
			lk.workers = b.workers
		}
		var err error
		switch k.Kind() {
		case fuse.KindMap:
			lk.mp, err = compile(newSpace(k.Space), k.Operands, k.Map().Body, k.Stores, nil, nil)
		case fuse.KindReduce:
			lk.rd, err = lowerReduce(k)
		case fuse.KindMatMul:
			lk.mm, err = lowerMatMul(k)
		case fuse.KindCall:
			lk.call, err = lowerCall(k)
		case fuse.KindScan:
			lk.scan, err = lowerScan(k)
		case fuse.KindIndex:
			lk.index, err = lowerIndex(k)
		case fuse.KindSort:
			lk.sort, err = lowerSort(k)
			lk.workers = b.workers
		default:
			err = fmt.Errorf("cpu: kernel %s of kind %v is not supported", k.Name, k.Kind())
		}
		if err != nil {
			return nil, err
		}
		lp.kernels = append(lp.kernels, lk)
	}
	markRowGroups(lp, b.workers)
	return lp, nil
}

// Start begins an evaluation of a lowered plan with host buffers from
// req.Alloc.
func (t target) Start(_ context.Context, prog runner.Program, req *exec.Request) (runner.Evaluation, error) {
	e := newEvaluation(t.b, prog.(*lowPlan), req.Alloc)
	if l := req.Buffers; l != nil && l.Allocator() == req.Alloc {
		e.headers = l
	}
	return e, nil
}

// evaluation is one evaluation on the CPU: the plan's host buffers it
// allocated (bufs, owned) and the base addresses of all of them, bound
// ones included.
type evaluation struct {
	b      *Backend
	lp     *lowPlan
	alloc  memory.Allocator
	bufs   []*memory.Buffer
	owned  []bool
	frames []frame // one per worker of b, kept while pooled
	ex     *runState
	// headers, when set, gives the headers of the buffers Alloc
	// allocates (exec.Request.Buffers).
	headers *exec.BufferList
}

func (e *evaluation) Bind(buf int, t *exec.Tensor, _ bool) error {
	if t.Buf == nil {
		return fmt.Errorf("cpu: bound value %v %v is in device memory: copy it to the host first", t.Shape, t.DType)
	}
	// Only the base address: the runner returns a bound buffer as an
	// output itself, and the evaluation neither owns nor frees it.
	e.ex.bases[buf] = unsafe.Pointer(unsafe.SliceData(t.Buf.Bytes()))
	return nil
}

func (e *evaluation) Alloc(i int) error {
	if e.bufs[i] != nil {
		return nil // allocated early by its row group (sched_run.go)
	}
	plan := e.lp.plan
	if !exec.AllocFits(e.alloc, plan.Buffers[i].Bytes) {
		d, s := bufferArray(plan, i)
		if err := exec.CheckAlloc(e.alloc, d, s); err != nil {
			return fmt.Errorf("cpu: %w", err)
		}
	}
	var buf *memory.Buffer
	if e.headers != nil {
		buf = e.headers.New()
	} else {
		buf = memory.NewResizableBuffer(e.alloc)
	}
	buf.Resize(int(plan.Buffers[i].Bytes))
	e.bufs[i], e.owned[i] = buf, true
	e.ex.bases[i] = unsafe.Pointer(unsafe.SliceData(buf.Bytes()))
	return nil
}

func (e *evaluation) Kernel(ctx context.Context, k int) error {
	lk := &e.lp.kernels[k]
	if g := lk.group; g != nil {
		if k != g.first {
			return nil // run with the group's first kernel
		}
		return e.runRowGroup(ctx, g)
	}
	switch {
	case lk.mp != nil:
		return e.ex.runChecked(lk.mp, func() error { return runProg(ctx, lk.mp, e.ex, nil, lk.chunk, lk.workers) })
	case lk.rd != nil:
		return e.ex.runChecked(lk.rd.pro, func() error { return lk.rd.run(ctx, e.ex, lk.chunk, lk.workers) })
	case lk.call != nil:
		return lk.call.runOn(ctx, e.ex.bases)
	case lk.scan != nil:
		return lk.scan.run(ctx, e.ex, lk.chunk, lk.workers)
	case lk.index != nil:
		return lk.index.run(ctx, e.ex.bases, lk.workers)
	case lk.sort != nil:
		return lk.sort.run(ctx, e.ex, lk.workers)
	default:
		return lk.mm.run(ctx, e.ex, lk.chunk, lk.workers)
	}
}

func (e *evaluation) Free(i int) {
	if e.owned[i] {
		e.bufs[i].Release()
		e.bufs[i], e.owned[i], e.ex.bases[i] = nil, false, nil
	}
}

// Finish does nothing: kernels run to completion in Kernel.
func (e *evaluation) Finish() error { return nil }

// Output hands buffer i to t: the evaluation's own reference moves to t
// the first time (End then leaves the buffer alone), a new one is taken
// for a second output of the same buffer.
func (e *evaluation) Output(i int, t *exec.Tensor) error {
	buf := e.bufs[i]
	if buf == nil {
		return fmt.Errorf("cpu: output buffer %d holds nothing", i)
	}
	if e.owned[i] {
		e.owned[i] = false
	} else {
		buf.Retain()
	}
	t.Buf = buf
	return nil
}

func (e *evaluation) End(bool) {
	for i := range e.bufs {
		e.Free(i)
	}
	e.recycle()
}

// bufferArray describes plan buffer i as an array for memory errors: an
// output's own shape and dtype, else a flat array of the buffer's
// elements with a dtype of their size.
func bufferArray(plan *fuse.Plan, i int) (graph.DType, graph.Shape) {
	for _, o := range plan.Outputs {
		if o.Buffer == i && !o.View {
			return o.Layout.DType, o.Layout.Shape
		}
	}
	d := graph.Float64
	switch plan.Buffers[i].ElemSize {
	case 1:
		d = graph.Bool
	case 2:
		d = graph.Uint16
	case 4:
		d = graph.Float32
	}
	return d, graph.Shape{plan.Buffers[i].Elems}
}
