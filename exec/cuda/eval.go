// Eval: this backend as a target of the shared runner (exec/runner):
// programs prepared from plans, inputs bound (device tensors in place,
// host tensors uploaded), buffers from the pool, launches on the
// evaluation's stream, and device-resident results.

package cuda

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/runner"
	"github.com/fuseflow/fuseflow/fuse"
	drv "github.com/fuseflow/fuseflow/internal/cuda"
)

var _ exec.Backend = (*Backend)(nil)

// Eval computes req.Outputs on the device and returns device tensors (Dev
// set; copy them with ToHost). An output that is a view of a bound host
// tensor comes back as a host view of it. Bound device tensors must come
// from this backend and are used in place; bound host tensors are
// uploaded for the evaluation (from pinned memory by DMA). req.Alloc is
// not used: nothing is allocated on the host. The first evaluation of a
// plan generates its PTX and loads it; later ones (a structurally equal
// graph with inputs of the same layouts) only launch. Eval waits for its
// kernels to finish: a failing launch or a fault in a kernel is its
// error, naming the kernels. On error nothing is returned and every
// buffer it took goes back to the pool. A fault that breaks the device
// context (see Fault) makes this and every later call fail with an error
// wrapping ErrDeviceFault. Safe for concurrent use.
func (b *Backend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	if err := b.usable(); err != nil {
		return nil, err
	}
	return b.runner.Eval(ctx, req)
}

// AcceptsBoundList returns true: Eval hands the request to the runner,
// which reads bound values from req.BoundList as well as req.Bound (see
// exec.ListBinder).
func (b *Backend) AcceptsBoundList() bool { return true }

var _ exec.ListBinder = (*Backend)(nil)

// target is the backend as the runner's target.
type target struct{ b *Backend }

func (target) Name() string { return "cuda" }

// Prepare generates the plan's PTX, loads its module and resolves its
// kernels.
func (t target) Prepare(p *fuse.Plan) (runner.Program, error) {
	pr, err := t.b.buildProgram(p)
	if err != nil {
		return nil, t.b.faulted(err, "preparing kernels "+kernelNames(p), "")
	}
	return pr, nil
}

// Start takes a stream for one evaluation of prog, and the events that
// time its kernels when profiling.
func (t target) Start(ctx context.Context, prog runner.Program, req *exec.Request) (runner.Evaluation, error) {
	b, pr := t.b, prog.(*program)
	ln, err := b.lanes.acquire(ctx)
	if err != nil {
		return nil, b.faulted(err, "creating a stream", "")
	}
	b.evals.Add(1)
	nb := len(pr.plan.Buffers)
	r := &runState{b: b, ln: ln, prog: pr, ptrs: make([]drv.DevicePtr, nb), owned: make([]*Buffer, nb)}
	if b.profile && len(pr.kernels) > 0 {
		if r.events, err = b.lanes.events(ln, 2*len(pr.kernels)); err != nil {
			b.lanes.release(ln)
			return nil, b.faulted(err, "creating events", "")
		}
	}
	return r, nil
}

// runState is one evaluation on the device: its stream, the device
// address of every plan buffer and the buffers it allocated.
type runState struct {
	b      *Backend
	ln     *lane
	prog   *program
	ptrs   []drv.DevicePtr
	owned  []*Buffer // allocated by this run (temps and results)
	ups    []*Buffer // uploads of host inputs
	events []drv.Event
}

// fail returns err as the error of running the program's kernels (see
// Backend.faulted).
func (r *runState) fail(err error) error {
	return r.b.faulted(err, "running kernels "+r.prog.describe(), r.prog.ptx)
}

// Bind uses a device tensor of this backend in place, checking that its
// view stays inside its buffer, and uploads a host tensor that a kernel
// reads.
func (r *runState) Bind(buf int, t *exec.Tensor, read bool) error {
	if t.OnDevice() {
		db, err := r.b.deviceBuffer(t)
		if err != nil {
			return err
		}
		lo, hi := t.Span()
		if hi >= lo && (lo < 0 || (hi+1)*t.DType.Size() > db.Len()) {
			return fmt.Errorf("cuda: bound device tensor %v %v (offset %d, strides %v) reaches outside its %d-byte buffer",
				t.Shape, t.DType, t.Offset, t.Strides, db.Len())
		}
		r.ptrs[buf] = db.Ptr()
		return nil
	}
	if !read {
		return nil // only returned as a view: never read on the device
	}
	up, base, _, err := r.b.upload(r.ln, t)
	if err != nil {
		in := r.prog.plan.Inputs[r.prog.plan.Buffers[buf].Slot]
		return r.fail(fmt.Errorf("cuda: uploading input %q: %w", in.Label, err))
	}
	r.ups = append(r.ups, up)
	r.ptrs[buf] = base
	return nil
}

// Alloc gives plan buffer i a device buffer from the pool.
func (r *runState) Alloc(i int) error {
	buf, err := r.b.pool.Alloc(max(r.prog.plan.Buffers[i].Bytes, 16), r.ln.stream)
	if err != nil {
		return r.fail(err)
	}
	r.owned[i], r.ptrs[i] = buf, buf.Ptr()
	return nil
}

// Kernel queues kernel k's launches on the stream, between its events
// when profiling.
func (r *runState) Kernel(_ context.Context, k int) error {
	b := r.b
	if r.events != nil {
		if err := b.ctx.EventRecord(r.events[2*k], r.ln.stream); err != nil {
			return r.fail(err)
		}
	}
	pk := &r.prog.kernels[k]
	var err error
	if pk.call != nil {
		err = b.KernelDevice().(*kernelDevice).launchCall(r.ln, pk.call, r.ptrs)
	} else {
		err = b.launch(r.ln, pk, r.ptrs)
	}
	if err != nil {
		return r.fail(err)
	}
	if r.events != nil {
		if err := b.ctx.EventRecord(r.events[2*k+1], r.ln.stream); err != nil {
			return r.fail(err)
		}
	}
	return nil
}

// Free returns buffer i to the pool while the stream may still use it.
func (r *runState) Free(i int) { r.drop(&r.owned[i]) }

// drop returns *p to the pool, stream ordered, and clears it.
func (r *runState) drop(p **Buffer) {
	if buf := *p; buf != nil {
		buf.stream.Store(uintptr(r.ln.stream))
		buf.Release()
		*p = nil
	}
}

// Finish waits for the stream, records the kernels' times when
// profiling and gives back the uploads.
func (r *runState) Finish() error {
	b := r.b
	if err := b.ctx.StreamSynchronize(r.ln.stream); err != nil {
		return r.fail(fmt.Errorf("cuda: running kernels %s: %w", kernelNames(r.prog.plan), err))
	}
	if r.events != nil {
		b.record(r.prog, r.events)
	}
	for i := range r.ups {
		r.drop(&r.ups[i])
	}
	b.pool.StreamDone(r.ln.stream)
	return nil
}

// Output makes t a device tensor holding a new reference to buffer i.
func (r *runState) Output(i int, t *exec.Tensor) error {
	buf := r.owned[i]
	if buf == nil {
		return fmt.Errorf("cuda: output buffer %d holds nothing", i)
	}
	buf.Retain()
	t.Dev = buf
	return nil
}

// End gives back what the run holds: after a failure it first waits for
// the stream (ignoring its error: the runner reports the first one); the
// outputs hold their own references.
func (r *runState) End(failed bool) {
	if failed {
		_ = r.b.ctx.StreamSynchronize(r.ln.stream)
		for i := range r.owned {
			r.drop(&r.owned[i])
		}
		for i := range r.ups {
			r.drop(&r.ups[i])
		}
		r.b.pool.StreamDone(r.ln.stream)
	} else {
		for i, buf := range r.owned {
			if buf != nil {
				buf.Release()
				r.owned[i] = nil
			}
		}
	}
	r.b.lanes.release(r.ln)
}

// launch packs the kernel's arguments into a reused Args and makes its
// launches on ln's stream, with the scratch memory its signature asks for
// taken from the pool (cleared first where asked) and given back, stream
// ordered, after the last launch. It allocates nothing in the steady
// state.
func (b *Backend) launch(ln *lane, pk *progKernel, ptrs []drv.DevicePtr) error {
	a := pk.getArgs()
	defer pk.args.Put(a)
	var held [2]*Buffer
	scratch := held[:0]
	defer func() {
		for _, buf := range scratch {
			buf.stream.Store(uintptr(ln.stream))
			buf.Release()
		}
	}()
	for _, sc := range pk.sig.Scratch {
		buf, err := b.pool.Alloc(max(sc.Bytes, 16), ln.stream)
		if err != nil {
			return fmt.Errorf("cuda: scratch memory of kernel %s: %w", pk.k.Name, err)
		}
		scratch = append(scratch, buf)
		if sc.Zero {
			if err := b.ctx.MemsetD8Async(buf.Ptr(), 0, uint64(sc.Bytes), ln.stream); err != nil {
				return fmt.Errorf("cuda: clearing the scratch memory of kernel %s: %w", pk.k.Name, err)
			}
		}
	}
	for i := range pk.sig.Params {
		switch p := &pk.sig.Params[i]; p.Kind {
		case codegen.ParamBuffer:
			a.SetPtr(i, ptrs[p.Buffer])
		case codegen.ParamScratch:
			a.SetPtr(i, scratch[p.Buffer].Ptr())
		}
	}
	for li := range pk.sig.Launches {
		l := &pk.sig.Launches[li]
		for i := range pk.sig.Params {
			if pk.sig.Params[i].Kind == codegen.ParamPass {
				a.SetI32(i, l.Pass)
			}
		}
		err := b.ctx.Launch(pk.fn, dim3(l.Grid), dim3(l.Block), uint32(l.SharedBytes), ln.stream, a)
		if err != nil {
			return fmt.Errorf("cuda: launching kernel %s (entry %s, launch %d of %d: %v): %w",
				pk.k.Name, pk.sig.Entry, li+1, len(pk.sig.Launches), l, err)
		}
		b.launches.Add(1)
	}
	for _, c := range pk.sig.IndexChecks() {
		if err := b.checkIndex(ln, pk, c, scratch[c.Scratch].Ptr(), ptrs); err != nil {
			return err
		}
	}
	return nil
}

// checkIndex reads the error word of an Index kernel once its launches
// have run (waiting for the stream) and returns the error of the first
// index out of range, read back from the index buffer. It is the one
// place where a plan with an Index kernel waits for the device between
// kernels.
func (b *Backend) checkIndex(ln *lane, pk *progKernel, c *codegen.IndexCheck, word drv.DevicePtr, ptrs []drv.DevicePtr) error {
	w := new([2]uint64) // on the heap: the driver writes it
	if err := b.ctx.MemcpyDtoHAsync(unsafe.Pointer(&w[0]), word, 8, ln.stream); err != nil {
		return fmt.Errorf("cuda: reading the index check of kernel %s: %w", pk.k.Name, err)
	}
	if err := b.ctx.StreamSynchronize(ln.stream); err != nil {
		return fmt.Errorf("cuda: running kernel %s: %w", pk.k.Name, err)
	}
	pos, bad := c.Position(w[0])
	if !bad {
		return nil
	}
	size := uint64(c.DType.Size())
	src := ptrs[c.Buffer] + drv.DevicePtr(uint64(c.Element(pos))*size)
	if err := b.ctx.MemcpyDtoHAsync(unsafe.Pointer(&w[1]), src, size, ln.stream); err != nil {
		return fmt.Errorf("cuda: reading the bad index of kernel %s: %w", pk.k.Name, err)
	}
	if err := b.ctx.StreamSynchronize(ln.stream); err != nil {
		return fmt.Errorf("cuda: running kernel %s: %w", pk.k.Name, err)
	}
	return c.Err(c.Value(w[1]))
}

// dim3 converts a launch extent for the driver.
func dim3(d codegen.Dim3) drv.Dim3 {
	return drv.Dim3{X: uint32(d.X), Y: uint32(d.Y), Z: uint32(d.Z)}
}
