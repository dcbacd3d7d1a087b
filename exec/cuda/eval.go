// Eval: plan lookup, the program of the plan, inputs bound (device
// tensors in place, host tensors uploaded), buffers from the pool by
// liveness, launches on the evaluation's stream, and device-resident
// results.

package cuda

import (
	"context"
	"fmt"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
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
	if req == nil {
		return nil, fmt.Errorf("cuda: Eval of a nil request")
	}
	if err := b.usable(); err != nil {
		return nil, err
	}
	plan, slots, ok := b.recent.lookup(req)
	if !ok {
		var err error
		if plan, slots, err = b.plan(req); err != nil {
			return nil, err
		}
		b.recent.remember(req, plan, slots)
	}
	prog, err := b.program(plan)
	if err != nil {
		return nil, b.faulted(err, "preparing kernels "+kernelNames(plan), "")
	}
	defer b.releaseProgram(prog)
	ln, err := b.lanes.acquire(ctx)
	if err != nil {
		return nil, b.faulted(err, "creating a stream", "")
	}
	defer b.lanes.release(ln)
	b.evals.Add(1)
	out, err := b.run(ctx, ln, req, prog, slots)
	if err != nil {
		return nil, b.faulted(err, "running kernels "+prog.describe(), prog.ptx)
	}
	return out, nil
}

// plan verifies the request's graph and bound tensors and returns its
// plan from the plan cache.
func (b *Backend) plan(req *exec.Request) (*fuse.Plan, []*graph.Node, error) {
	if err := graph.Verify(req.Outputs...); err != nil {
		return nil, nil, err
	}
	bound := make(map[*graph.Node]graph.Layout, len(req.Bound))
	for n, t := range req.Bound {
		if t == nil || (t.Buf == nil && t.Dev == nil) {
			return nil, nil, fmt.Errorf("cuda: bound value for %v %v has no buffer", n.Op(), n.Shape())
		}
		bound[n] = t.Layout
	}
	return b.cache.Get(req.Outputs, bound)
}

// runState is what one evaluation holds: the device address of every
// plan buffer and the buffers it allocated.
type runState struct {
	b     *Backend
	ln    *lane
	ptrs  []drv.DevicePtr
	owned []*Buffer // allocated by this run (temps, results, uploads)
	hosts []*exec.Tensor
}

// alloc gives plan buffer i a fresh device buffer.
func (r *runState) alloc(i int, bytes int64) error {
	buf, err := r.b.pool.Alloc(max(bytes, 16), r.ln.stream)
	if err != nil {
		return err
	}
	r.owned[i], r.ptrs[i] = buf, buf.Ptr()
	return nil
}

// drop returns buffer i to the pool while the stream may still use it.
func (r *runState) drop(i int) {
	if buf := r.owned[i]; buf != nil {
		buf.stream.Store(uintptr(r.ln.stream))
		buf.Release()
		r.owned[i] = nil
	}
}

// abort synchronizes the stream (ignoring its error: the caller reports
// the first one) and returns everything the run took.
func (r *runState) abort() {
	_ = r.b.ctx.StreamSynchronize(r.ln.stream)
	for i := range r.owned {
		r.drop(i)
	}
	r.b.pool.StreamDone(r.ln.stream)
}

func (b *Backend) run(ctx context.Context, ln *lane, req *exec.Request, prog *program, slots []*graph.Node) (out []*exec.Tensor, err error) {
	plan := prog.plan
	nb := len(plan.Buffers)
	// uploads of host inputs live in owned[nb:]: one per input slot.
	r := &runState{b: b, ln: ln, ptrs: make([]drv.DevicePtr, nb), owned: make([]*Buffer, nb+len(plan.Inputs)),
		hosts: make([]*exec.Tensor, nb)}
	defer func() {
		if err != nil {
			r.abort()
		}
	}()
	for i, in := range plan.Inputs {
		t := req.Bound[slots[i]]
		if t == nil {
			return nil, fmt.Errorf("cuda: no value bound for input %q (%v %v)", in.Label, in.Layout.Shape, in.Layout.DType)
		}
		if t.OnDevice() {
			buf, err := b.deviceBuffer(t)
			if err != nil {
				return nil, err
			}
			lo, hi := t.Span()
			if hi >= lo && (lo < 0 || (hi+1)*t.DType.Size() > buf.Len()) {
				return nil, fmt.Errorf("cuda: bound device tensor %v %v (offset %d, strides %v) reaches outside its %d-byte buffer",
					t.Shape, t.DType, t.Offset, t.Strides, buf.Len())
			}
			r.ptrs[in.Buffer] = buf.Ptr()
			continue
		}
		r.hosts[in.Buffer] = t
		if plan.Buffers[in.Buffer].First < 0 {
			continue // only returned as a view: never read on the device
		}
		buf, base, _, err := b.upload(ln, t)
		if err != nil {
			return nil, fmt.Errorf("cuda: uploading input %q: %w", in.Label, err)
		}
		r.owned[nb+i], r.ptrs[in.Buffer] = buf, base
	}
	for i, bf := range plan.Buffers {
		if bf.Kind != fuse.BufInput && bf.First < 0 {
			if err := r.alloc(i, bf.Bytes); err != nil {
				return nil, err
			}
		}
	}
	var events []drv.Event
	if b.profile && len(prog.kernels) > 0 {
		if events, err = b.lanes.events(ln, 2*len(prog.kernels)); err != nil {
			return nil, err
		}
	}
	for ki := range prog.kernels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i, bf := range plan.Buffers {
			if bf.Kind != fuse.BufInput && bf.First == ki {
				if err := r.alloc(i, bf.Bytes); err != nil {
					return nil, err
				}
			}
		}
		if events != nil {
			if err := b.ctx.EventRecord(events[2*ki], ln.stream); err != nil {
				return nil, err
			}
		}
		if err := b.launch(ln, &prog.kernels[ki], r.ptrs); err != nil {
			return nil, err
		}
		if events != nil {
			if err := b.ctx.EventRecord(events[2*ki+1], ln.stream); err != nil {
				return nil, err
			}
		}
		for i, bf := range plan.Buffers {
			if bf.Kind == fuse.BufTemp && bf.Last == ki {
				r.drop(i)
			}
		}
	}
	if err := b.ctx.StreamSynchronize(ln.stream); err != nil {
		return nil, fmt.Errorf("cuda: running kernels %s: %w", kernelNames(plan), err)
	}
	if events != nil {
		b.record(prog, events)
	}
	for i := nb; i < len(r.owned); i++ {
		r.drop(i)
	}
	b.pool.StreamDone(ln.stream)
	out = make([]*exec.Tensor, len(plan.Outputs))
	for i, o := range plan.Outputs {
		out[i] = &exec.Tensor{Layout: o.Layout.Clone()}
		switch {
		case r.hosts[o.Buffer] != nil:
			out[i].Buf = r.hosts[o.Buffer].Buf
			out[i].Buf.Retain()
		case r.owned[o.Buffer] != nil:
			out[i].Dev = r.owned[o.Buffer]
			out[i].Dev.Retain()
		default:
			t := boundDevice(req, slots, plan, o.Buffer)
			if t == nil {
				for _, t := range out[:i] {
					t.Release()
				}
				return nil, fmt.Errorf("cuda: output %d reads buffer %d, which holds nothing", i, o.Buffer)
			}
			out[i].Dev = t.Dev
			out[i].Dev.Retain()
		}
	}
	// The run's own references go; the outputs hold theirs.
	for i := range nb {
		if buf := r.owned[i]; buf != nil {
			buf.Release()
			r.owned[i] = nil
		}
	}
	return out, nil
}

// boundDevice returns the bound device tensor of plan buffer buf, or nil.
func boundDevice(req *exec.Request, slots []*graph.Node, plan *fuse.Plan, buf int) *exec.Tensor {
	for i, in := range plan.Inputs {
		if in.Buffer == buf {
			if t := req.Bound[slots[i]]; t != nil && t.OnDevice() {
				return t
			}
		}
	}
	return nil
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
	return nil
}

// dim3 converts a launch extent for the driver.
func dim3(d codegen.Dim3) drv.Dim3 {
	return drv.Dim3{X: uint32(d.X), Y: uint32(d.Y), Z: uint32(d.Z)}
}
