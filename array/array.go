// Array: the lazy, immutable handle users hold, its accessors, the
// ownership of the result it holds, and Release.

package array

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// DType is the element type of an array.
type DType = graph.DType

// The element types (see the README for the promotion rules).
const (
	Bool     = graph.Bool
	Int8     = graph.Int8
	Int16    = graph.Int16
	Int32    = graph.Int32
	Int64    = graph.Int64
	Uint8    = graph.Uint8
	Uint16   = graph.Uint16
	Uint32   = graph.Uint32
	Uint64   = graph.Uint64
	Float16  = graph.Float16
	BFloat16 = graph.BFloat16
	Float32  = graph.Float32
	Float64  = graph.Float64
)

// Shape lists the extent of each axis, outermost first.
type Shape = graph.Shape

// Array is a lazy, immutable handle on a value of an expression graph:
// building it computes nothing, Eval (or any result accessor) computes it.
// Methods never mutate the receiver; they return new Arrays. An Array built
// from invalid operands carries the error (Err) and so does everything
// built on it; it comes back from Eval, ToSlice and the other results.
//
// Ownership: an Array created from data (FromSlice, FromArrow, FromDense)
// holds its input buffer, and an evaluated Array holds its result, until
// Release (or until the garbage collector finds the Array unreachable).
// Arrays are safe for concurrent use.
type Array struct {
	node *graph.Node
	ctx  *Context
	// e is the registry entry whose result the Array holds (nil: none),
	// released says Release was called, final that the Array has a
	// finalizer, young its place in the Context's list of Arrays waiting
	// for one (index+1; 0: not there). See lifetime.go. Guarded by the
	// Context's mutex.
	e        *entry
	young    int32
	released bool
	final    bool
	// dep and deps are the operand Arrays of a's expression, kept
	// reachable while a may still be evaluated, so that the collector
	// does not finalize an operand (and free its input data or result)
	// that a still reads, as a NumPy array keeps what it was made from.
	// They are dropped once a holds its own result (see holdLocked); an
	// explicit Release of an operand still releases it. Operands beyond
	// two, of the ops that take more, are held by a chain of holders in
	// dep[1] (see addDeps), so that an Array takes 48 bytes: the fewer
	// bytes a loop of small evaluations allocates, the less often the
	// collector runs and makes every pointer write pay its barrier.
	dep [2]*Array
}

func newArray(c *Context, n *graph.Node) *Array {
	return &Array{node: n, ctx: c}
}

// errArray returns an Array of c carrying err.
func errArray(c *Context, op graph.Op, err error) *Array {
	return newArray(c, graph.ErrorNode(op, err))
}

// opErr formats an error the way graph.OpError does, for ops the array
// package composes itself: "Name(shape dtype, ...): message".
func opErr(name string, nodes []*graph.Node, format string, args ...any) error {
	var b strings.Builder
	b.WriteString(name)
	if len(nodes) > 0 {
		b.WriteString("(")
		for i, n := range nodes {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%v %v", n.Shape(), n.DType())
		}
		b.WriteString(")")
	}
	b.WriteString(": ")
	fmt.Fprintf(&b, format, args...)
	return errors.New(b.String())
}

// named returns n, or, when building n failed for a reason of its own
// (not an error an operand already carried), an error node that names the
// op the user called, name, with its operands: the ops the array package
// composes from several graph ops report as themselves ("Mean((3,) bool):
// ..."), not as the internal op that failed.
func named(name string, n *graph.Node, operands ...*graph.Node) *graph.Node {
	if n.Err() == nil {
		return n
	}
	for _, x := range operands {
		if x.Err() != nil {
			return n
		}
	}
	return graph.ErrorNode(n.Op(), opErr(name, operands, "%v", unwrapMsg(n.Err())))
}

var errNilArray = errors.New("nil *Array")

// nodeOf returns a's node, or an error node for a nil Array.
func nodeOf(a *Array) *graph.Node {
	if a == nil || a.node == nil {
		return graph.ErrorNode(graph.OpInvalid, errNilArray)
	}
	return a.node
}

// nodeFor is nodeOf for an operand of the op name: a nil Array gives an
// error node naming the op ("Sum: nil *Array").
func nodeFor(a *Array, name string) *graph.Node {
	if a == nil || a.node == nil {
		return graph.ErrorNode(graph.OpInvalid, fmt.Errorf("%s: %w", name, errNilArray))
	}
	return a.node
}

// ctxOf returns a's Context, nil for a nil Array.
func ctxOf(a *Array) *Context {
	if a == nil {
		return nil
	}
	return a.ctx
}

// derive returns an Array of a's Context for n, an expression of a.
func (a *Array) derive(n *graph.Node) *Array {
	r := newArray(ctxOf(a), n)
	r.dep[0] = a
	return r
}

// keep records the Arrays among ops (other values are ignored) as
// operands of r's expression (see Array.dep) and returns r.
func (r *Array) keep(ops ...any) *Array {
	for _, o := range ops {
		x, ok := o.(*Array)
		if !ok || x == nil {
			continue
		}
		if r.dep[1] == nil {
			r.dep[1] = x
			continue
		}
		r.addDeps(x)
	}
	return r
}

// addDeps adds xs to r's operands (see Array.dep): each in a holder, an
// Array of no node and no Context that keeps it and the rest of the
// chain in its dep, which takes dep[1]'s place.
func (r *Array) addDeps(xs ...*Array) {
	for _, x := range xs {
		if x != nil {
			r.dep[1] = &Array{dep: [2]*Array{x, r.dep[1]}}
		}
	}
}

// DType returns the element type (Invalid for an Array carrying an error).
func (a *Array) DType() DType { return nodeOf(a).DType() }

// Shape returns a copy of the shape (empty for 0-d arrays and for Arrays
// carrying an error).
func (a *Array) Shape() Shape { return nodeOf(a).Shape().Clone() }

// Rank returns the number of axes.
func (a *Array) Rank() int { return len(nodeOf(a).Shape()) }

// Size returns the number of elements.
func (a *Array) Size() int { return nodeOf(a).Size() }

// Err returns the error recorded when the Array or one of its operands was
// built, or the error of its Context; nil when it is valid.
func (a *Array) Err() error {
	if err := nodeOf(a).Err(); err != nil {
		return err
	}
	if a.ctx != nil {
		return checkContext(a.ctx)
	}
	return nil
}

// Node returns the graph node the Array stands for (for planners, tests
// and Explain). Nodes are immutable.
func (a *Array) Node() *graph.Node { return nodeOf(a) }

// Context returns the Context the Array belongs to (nil for an Array that
// carries an error and belongs to none).
func (a *Array) Context() *Context { return ctxOf(a) }

// Evaluated reports whether the Array currently holds a result (or input
// data).
func (a *Array) Evaluated() bool {
	if a == nil || a.ctx == nil {
		return false
	}
	a.ctx.mu.Lock()
	defer a.ctx.mu.Unlock()
	return a.e != nil
}

// register stores t as the value of a's node (a fresh input) and makes a
// hold it. It takes ownership of t.
func (c *Context) register(a *Array, t *exec.Tensor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.newEntryLocked()
	e.node, e.t = a.node, t
	c.results[a.node] = e
	c.holdLocked(a, e)
}

// tensor returns a view of the result a holds on the host (evaluating a
// first when it holds none), with context.Background(); see hostTensor.
func (a *Array) tensor(op string) (*exec.Tensor, error) {
	return a.hostTensor(context.Background(), op)
}

// hostTensor returns a view of the result a holds, on the host: the
// result itself, or for a device result its host copy, made by the first
// reader and kept with the entry. The copy runs outside the Context's
// lock, so evaluations and other reads of the Context go on meanwhile;
// readers of the same result wait for it (or for ctx), and when a copy
// fails (its reader's ctx was cancelled) the next reader makes it again.
// A cancelled ctx gives ctx.Err(). The caller owns the view and must
// Release it.
func (a *Array) hostTensor(ctx context.Context, op string) (*exec.Tensor, error) {
	if a == nil {
		return nil, fmt.Errorf("%s: %w", op, errNilArray)
	}
	if err := Eval(ctx, a); err != nil {
		return nil, err
	}
	c := a.ctx
	for {
		c.mu.Lock()
		e := a.e
		if e == nil {
			c.mu.Unlock()
			return nil, fmt.Errorf("%s: array %v %v was released", op, a.node.Shape(), a.node.DType())
		}
		if t := e.hostLocked(); t != nil {
			c.mu.Unlock()
			return t, nil
		}
		if job := e.copying; job != nil {
			c.mu.Unlock()
			select {
			case <-job.done: // made, or failed: look again
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			continue
		}
		job := &hostCopy{done: make(chan struct{})}
		e.copying = job
		src := e.t.View(e.t.Shape, e.t.Strides, e.t.Offset)
		c.mu.Unlock()
		return c.copyToHost(ctx, e, job, src, op)
	}
}

// hostLocked returns a view of e's tensor on the host (the tensor itself,
// or the host copy of a device result), or nil while a device result has
// no host copy. The caller holds the Context's mutex.
func (e *entry) hostLocked() *exec.Tensor {
	t := e.t
	if t.OnDevice() {
		if t = e.host; t == nil {
			return nil
		}
	}
	return t.View(t.Shape, t.Strides, t.Offset)
}

// copyToHost makes the host copy of e's device result from src (a view
// the call releases) without holding c.mu, then keeps it with e and
// returns a view of it; when e was freed meanwhile (its arrays
// released), the caller gets the copy itself. job is e's copy in
// progress, finished here.
func (c *Context) copyToHost(ctx context.Context, e *entry, job *hostCopy, src *exec.Tensor, op string) (*exec.Tensor, error) {
	defer src.Release()
	h, err := c.toHost(ctx, src, op)
	c.mu.Lock()
	defer c.mu.Unlock()
	e.copying = nil
	close(job.done)
	if err != nil {
		return nil, err
	}
	if e.refs == 0 {
		return h, nil
	}
	e.host = h
	return h.View(h.Shape, h.Strides, h.Offset), nil
}

// toHost copies the device tensor t to the host with the backend. A
// cancelled ctx gives ctx.Err().
func (c *Context) toHost(ctx context.Context, t *exec.Tensor, op string) (*exec.Tensor, error) {
	hc, ok := c.backend.(exec.HostCopier)
	if !ok {
		return nil, fmt.Errorf("%s: backend %s returned a device result it cannot copy to the host", op, c.name)
	}
	h, err := hc.ToHost(ctx, t, c.limited)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return h, nil
}
