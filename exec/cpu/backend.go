// Backend: cpu.New and Eval — plan lookup, buffer allocation by liveness,
// kernels run in order on the worker pool, outputs returned as tensors.

package cpu

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
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
	cache   *fuse.Cache

	mu      sync.Mutex
	lowered map[*fuse.Plan]*lowPlan

	scratch sync.Pool // *[]frame
}

// New returns a CPU backend with the given options.
func New(opts Options) *Backend {
	w := opts.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	size := opts.CacheSize
	if size <= 0 {
		size = 256
	}
	return &Backend{workers: w, chunk: opts.Chunk, cache: fuse.NewCache(size), lowered: map[*fuse.Plan]*lowPlan{}}
}

// Name returns "cpu".
func (b *Backend) Name() string { return "cpu" }

// CacheStats reports the plan cache's hits and misses.
func (b *Backend) CacheStats() fuse.CacheStats { return b.cache.Stats() }

// lowPlan holds a plan's kernels lowered for this backend.
type lowPlan struct {
	kernels []lowKernel
}

type lowKernel struct {
	mp      *prog
	rd      *redKernel
	mm      *mmKernel
	chunk   int
	workers int
}

// lower returns the lowered form of p, building it once.
func (b *Backend) lower(p *fuse.Plan) (*lowPlan, error) {
	b.mu.Lock()
	lp := b.lowered[p]
	b.mu.Unlock()
	if lp != nil {
		return lp, nil
	}
	lp = &lowPlan{}
	for i := range p.Kernels {
		k := &p.Kernels[i]
		lk := lowKernel{}
		lk.chunk, lk.workers = chunking(k, b.workers)
		if b.chunk > 0 {
			lk.chunk = b.chunk
		}
		var err error
		switch k.Kind {
		case fuse.KindMap:
			lk.mp, err = compile(newSpace(k.Space), k.Operands, k.Body, k.Stores, nil, nil)
		case fuse.KindReduce:
			lk.rd, err = lowerReduce(k)
		case fuse.KindMatMul:
			lk.mm, err = lowerMatMul(k)
		default:
			err = fmt.Errorf("cpu: kernel %s of kind %v is not supported", k.Name, k.Kind)
		}
		if err != nil {
			return nil, err
		}
		lp.kernels = append(lp.kernels, lk)
	}
	b.mu.Lock()
	if len(b.lowered) >= 1024 {
		clear(b.lowered)
	}
	b.lowered[p] = lp
	b.mu.Unlock()
	return lp, nil
}

// Eval computes req.Outputs. The caller owns the returned tensors and must
// Release each; an output may be a view of a bound tensor's buffer or
// share a buffer with another output. On error (a graph error, an
// unsupported kernel, ctx cancelled) it returns no tensors and releases
// everything it allocated.
func (b *Backend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	if req == nil || req.Alloc == nil {
		return nil, fmt.Errorf("cpu: Eval needs a request with an allocator")
	}
	if err := graph.Verify(req.Outputs...); err != nil {
		return nil, err
	}
	bound := make(map[*graph.Node]graph.Layout, len(req.Bound))
	for n, t := range req.Bound {
		if t == nil || t.Buf == nil {
			return nil, fmt.Errorf("cpu: bound value for %v %v has no buffer", n.Op(), n.Shape())
		}
		bound[n] = t.Layout
	}
	plan, slots, err := b.cache.Get(req.Outputs, bound)
	if err != nil {
		return nil, err
	}
	lp, err := b.lower(plan)
	if err != nil {
		return nil, err
	}
	return b.run(ctx, req, plan, lp, slots)
}

func (b *Backend) run(ctx context.Context, req *exec.Request, plan *fuse.Plan, lp *lowPlan, slots []*graph.Node) (out []*exec.Tensor, err error) {
	bufs := make([]*memory.Buffer, len(plan.Buffers))
	owned := make([]bool, len(plan.Buffers))
	defer func() {
		for i, buf := range bufs {
			if owned[i] && buf != nil {
				buf.Release()
			}
		}
	}()
	ex := &runState{bases: make([]unsafe.Pointer, len(plan.Buffers))}
	for i, in := range plan.Inputs {
		t := req.Bound[slots[i]]
		if t == nil {
			return nil, fmt.Errorf("cpu: no value bound for input %q", in.Label)
		}
		bufs[in.Buffer] = t.Buf
		ex.bases[in.Buffer] = unsafe.Pointer(unsafe.SliceData(t.Buf.Bytes()))
	}
	alloc := func(i int) error {
		if bufs[i] != nil {
			return nil
		}
		d, s := bufferArray(plan, i)
		if err := exec.CheckAlloc(req.Alloc, d, s); err != nil {
			return fmt.Errorf("cpu: %w", err)
		}
		buf := memory.NewResizableBuffer(req.Alloc)
		buf.Resize(int(plan.Buffers[i].Bytes))
		bufs[i], owned[i] = buf, true
		ex.bases[i] = unsafe.Pointer(unsafe.SliceData(buf.Bytes()))
		return nil
	}
	for i, bf := range plan.Buffers {
		if bf.Kind != fuse.BufInput && bf.First < 0 {
			if err := alloc(i); err != nil {
				return nil, err
			}
		}
	}
	frames := b.frames()
	defer b.scratch.Put(frames)
	ex.frames = *frames
	for ki := range plan.Kernels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i, bf := range plan.Buffers {
			if bf.Kind != fuse.BufInput && bf.First == ki {
				if err := alloc(i); err != nil {
					return nil, err
				}
			}
		}
		lk := &lp.kernels[ki]
		switch {
		case lk.mp != nil:
			err = runProg(ctx, lk.mp, ex, nil, lk.chunk, lk.workers)
		case lk.rd != nil:
			err = lk.rd.run(ctx, ex, lk.chunk, lk.workers)
		default:
			err = lk.mm.run(ctx, ex, lk.chunk, lk.workers)
		}
		if err != nil {
			return nil, err
		}
		for i, bf := range plan.Buffers {
			if bf.Kind == fuse.BufTemp && bf.Last == ki && owned[i] {
				bufs[i].Release()
				bufs[i], owned[i], ex.bases[i] = nil, false, nil
			}
		}
	}
	out = make([]*exec.Tensor, len(plan.Outputs))
	for i, o := range plan.Outputs {
		buf := bufs[o.Buffer]
		if buf == nil {
			for _, t := range out[:i] {
				t.Release()
			}
			return nil, fmt.Errorf("cpu: output %d reads buffer %d, which holds nothing", i, o.Buffer)
		}
		buf.Retain()
		out[i] = &exec.Tensor{Buf: buf, Layout: o.Layout.Clone()}
	}
	return out, nil
}

// frames returns per-worker scratch from the pool.
func (b *Backend) frames() *[]frame {
	if f, ok := b.scratch.Get().(*[]frame); ok && len(*f) >= b.workers {
		return f
	}
	f := make([]frame, b.workers)
	return &f
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
	case 4:
		d = graph.Float32
	}
	return d, graph.Shape{plan.Buffers[i].Elems}
}
