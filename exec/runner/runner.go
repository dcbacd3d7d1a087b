// Runner: Target, Program and Evaluation, the per-target half of an
// evaluation, and Eval, the skeleton that drives them.

package runner

import (
	"context"
	"fmt"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// Target is what a Runner drives: one executor's way of running plans.
// Its methods are called concurrently.
type Target interface {
	// Name prefixes the runner's errors ("cpu", "cuda").
	Name() string
	// Prepare makes p ready to run: lowered, compiled, loaded. It is
	// called once per plan the runner caches; the runner releases the
	// program when it no longer needs it.
	Prepare(p *fuse.Plan) (Program, error)
	// Start begins one evaluation of prog for req (the request's
	// allocator, its bound tensors). The runner ends it with End.
	Start(ctx context.Context, prog Program, req *exec.Request) (Evaluation, error)
}

// PlanOptioner is a Target that plans with options of its own (see
// fuse.Options); the runner builds its plans with them.
type PlanOptioner interface {
	PlanOptions() fuse.Options
}

// Program is a plan prepared by a Target. Release is called once, after
// the runner's cache dropped the program and the last evaluation using
// it ended.
type Program interface {
	Release()
}

// Evaluation is one evaluation in progress on a target; plan buffers are
// named by their index in Plan.Buffers. The runner calls Bind for every
// input, Alloc for every other buffer before its first writer (all at
// the start for buffers no kernel writes), Kernel in plan order, Free for
// a temporary after its last reader, Finish once after the last kernel,
// Output for each output buffer that is not an input, and End last, in
// every case. An Evaluation is used by one goroutine.
type Evaluation interface {
	// Bind gives input buffer buf the bound tensor t (non-nil, with Buf or
	// Dev); read says whether a kernel reads it (else it is only returned
	// as a view, which the runner does itself). The evaluation does not
	// release t.
	Bind(buf int, t *exec.Tensor, read bool) error
	// Alloc gives buffer buf memory of Plan.Buffers[buf].Bytes bytes.
	Alloc(buf int) error
	// Kernel runs (or queues) kernel k of the plan.
	Kernel(ctx context.Context, k int) error
	// Free gives back buffer buf after its last use.
	Free(buf int)
	// Finish completes the kernels: afterwards every buffer holds its
	// value.
	Finish() error
	// Output sets t's buffer (Buf or Dev) to a new reference to the
	// memory of buffer buf, which Alloc gave it; the runner has set t's
	// layout and owns t.
	Output(buf int, t *exec.Tensor) error
	// End gives back everything the evaluation still holds; failed says
	// that an error ended it early.
	End(failed bool)
}

// Runner evaluates requests on one Target with a bounded plan cache. It
// is safe for concurrent use.
type Runner struct {
	t     Target
	cache *cache
}

// New returns a runner of t keeping at most capacity plans (256 when
// capacity <= 0).
func New(t Target, capacity int) *Runner {
	if capacity <= 0 {
		capacity = 256
	}
	return &Runner{t: t, cache: newCache(t, capacity)}
}

// Stats returns the plan cache's counters.
func (r *Runner) Stats() exec.CacheStats { return r.cache.stats() }

// Forget empties the plan cache; programs in use are released when their
// evaluations end.
func (r *Runner) Forget() { r.cache.forget() }

// Eval computes req.Outputs with the runner's target (see exec.Backend),
// reading bound values from req.Bound and req.BoundList.
// The caller owns the returned tensors and must Release each; an output
// that is an input of the plan is a view of the bound tensor. Errors: a
// nil request, a graph error, a bound value with no buffer, a missing
// input, the target's; on error no tensor is returned and the target's
// evaluation gives back everything it took.
func (r *Runner) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	if req == nil {
		return nil, fmt.Errorf("%s: Eval of a nil request", r.t.Name())
	}
	var vbuf [8]*exec.Tensor
	e, vals, err := r.cache.get(req, vbuf[:0])
	if err != nil {
		return nil, err
	}
	defer r.cache.release(e)
	return run(ctx, r.t, e.plan, e.prog, req, vals)
}

// Run evaluates plan p, prepared by t as prog, for req, whose bound
// tensors slots[i] are the values of p.Inputs[i]: the part of Eval after
// the cache, for a plan that is not in one. Ownership and errors are
// Eval's.
func Run(ctx context.Context, t Target, p *fuse.Plan, prog Program, req *exec.Request, slots []*graph.Node) (out []*exec.Tensor, err error) {
	var vbuf [8]*exec.Tensor
	vals := vbuf[:0]
	for _, n := range slots {
		vals = append(vals, req.BoundValue(n))
	}
	return run(ctx, t, p, prog, req, vals)
}

// run is Run with the bound values in slot order (nil where none is
// bound).
func run(ctx context.Context, t Target, p *fuse.Plan, prog Program, req *exec.Request, vals []*exec.Tensor) (out []*exec.Tensor, err error) {
	ev, err := t.Start(ctx, prog, req)
	if err != nil {
		return nil, err
	}
	// One deferred call and two returns: the compiler open-codes it (a
	// function with more returns would pay for a deferred record).
	defer func() { ev.End(err != nil) }()
	return drive(ctx, t, ev, p, req, vals)
}

// drive is run's part between Start and End: it binds, allocates and
// frees the plan's buffers around its kernels, and collects the outputs.
func drive(ctx context.Context, t Target, ev Evaluation, plan *fuse.Plan, req *exec.Request, vals []*exec.Tensor) ([]*exec.Tensor, error) {
	var bbuf [16]*exec.Tensor
	var bound []*exec.Tensor
	if n := len(plan.Buffers); n <= len(bbuf) {
		bound = bbuf[:n]
	} else {
		bound = make([]*exec.Tensor, n)
	}
	for i := range plan.Inputs {
		in := &plan.Inputs[i]
		v := vals[i]
		if v == nil {
			return nil, fmt.Errorf("%s: no value bound for input %q (%v %v)", t.Name(), in.Label, in.Layout.Shape, in.Layout.DType)
		}
		if v.Buf == nil && v.Dev == nil {
			return nil, fmt.Errorf("%s: bound value for input %q (%v %v) has no buffer", t.Name(), in.Label, in.Layout.Shape, in.Layout.DType)
		}
		if err := ev.Bind(in.Buffer, v, plan.Buffers[in.Buffer].First >= 0); err != nil {
			return nil, err
		}
		bound[in.Buffer] = v
	}
	for i := range plan.Buffers {
		if bf := &plan.Buffers[i]; bf.Kind != fuse.BufInput && bf.First < 0 {
			if err := ev.Alloc(i); err != nil {
				return nil, err
			}
		}
	}
	for ki := range plan.Kernels {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i := range plan.Buffers {
			if bf := &plan.Buffers[i]; bf.Kind != fuse.BufInput && bf.First == ki {
				if err := ev.Alloc(i); err != nil {
					return nil, err
				}
			}
		}
		if err := ev.Kernel(ctx, ki); err != nil {
			return nil, err
		}
		for i := range plan.Buffers {
			if bf := &plan.Buffers[i]; bf.Kind == fuse.BufTemp && bf.Last == ki {
				ev.Free(i)
			}
		}
	}
	if err := ev.Finish(); err != nil {
		return nil, err
	}
	return outputs(t, ev, plan, req, bound)
}

// outputs returns the tensors of plan's outputs: views of the bound
// tensors (bound, by buffer) or the evaluation's buffers. On error it
// releases those it made and returns none.
func outputs(t Target, ev Evaluation, plan *fuse.Plan, req *exec.Request, bound []*exec.Tensor) (out []*exec.Tensor, err error) {
	out = newOutputs(plan.Outputs, req.Results)
	defer func() {
		if err != nil {
			for _, t := range out {
				t.Release()
			}
			out = nil
		}
	}()
	for i := range plan.Outputs {
		o, v := &plan.Outputs[i], out[i]
		if b := bound[o.Buffer]; b != nil {
			v.Buf, v.Dev = b.Buf, b.Dev
			if v.Buf != nil {
				v.Buf.Retain()
			}
			if v.Dev != nil {
				v.Dev.Retain()
			}
			continue
		}
		if plan.Buffers[o.Buffer].Kind == fuse.BufInput {
			return out, fmt.Errorf("%s: output %d reads buffer %d, which holds nothing", t.Name(), i, o.Buffer)
		}
		if err := ev.Output(o.Buffer, v); err != nil {
			return out, err
		}
	}
	return out, nil
}
