// Call: explicit kernels (package kernel) as nodes of the lazy graph —
// the launch geometry, the checks of the arguments against the kernel's
// parameters, and one new array per slice the kernel writes.

package array

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/kernel"
)

// Geometry is how a lazy Call launches its kernel: Launch (an explicit
// grid and block) or ForAll (one thread per task, the block size chosen
// by the device). The zero Geometry is Launch(kernel.Config{}): one block
// of one thread.
type Geometry struct {
	cfg    kernel.Config
	forAll bool
	tasks  int
}

// Launch returns the geometry of an explicit launch: cfg's Grid, Block
// and SharedBytes (Numba's kernel[grid, block, stream, shared]). Its
// Device and Stream must be nil: the Context's backend runs the call.
func Launch(cfg kernel.Config) Geometry { return Geometry{cfg: cfg} }

// ForAll returns the geometry of n tasks, one thread per task, in blocks
// of the size the evaluating device prefers for the kernel (see
// kernel.Kernel.ForAll): the kernel checks its index against n itself.
func ForAll(n int) Geometry { return Geometry{forAll: true, tasks: n} }

// Call adds a call of the explicit kernel k to the graph and returns its
// results: one new array per slice parameter the kernel writes
// (kernel.Param.Written), in parameter order, each with the shape and
// dtype of its argument. Nothing runs until a result is evaluated; the
// results then hold what the kernel left in those slices.
//
// args has one value per parameter after the Thread. A slice parameter
// takes an *Array whose dtype is the slice's element type (int and int64
// slices take Int64 arrays; uint32 and uint64 slices have no array
// dtype), seen by the kernel flattened in row-major order: len(slice) is
// the array's Size. A scalar parameter takes a Go value, converted as
// kernel.Kernel.Launch converts it. A written slice starts with its
// argument's values: the argument itself is never changed (copy-in
// semantics, as the graph is immutable); a slice the kernel does not
// write is read-only.
//
// The planner treats the call as a boundary: elementwise work on the
// arguments fuses into the kernels that store them, and work on the
// results reads them from their buffers like any stored value. The CPU
// backend runs the kernel's Go function on the CPU device, the CUDA
// backend its PTX on the GPU (a kernel without PTX is an error there:
// run go generate).
//
// Errors: a nil kernel, a geometry with a Device or Stream or outside
// the device limits, the wrong number of arguments, an argument of the
// wrong kind, dtype or value (named by kernel and parameter), arrays of
// two Contexts, or a kernel that writes none of its slices give arrays
// carrying the error (at least one array, every one of them carrying
// it). A kernel that fails while running (a *kernel.LaunchError: a failed
// bounds check) fails the Eval of its results. Safe for concurrent use.
func Call(k *kernel.Kernel, g Geometry, args ...any) []*Array {
	var c *Context
	for _, a := range args {
		if x, ok := a.(*Array); ok && x != nil {
			c = x.ctx
			break
		}
	}
	nw := 1
	if k != nil {
		nw = 0
		for _, p := range k.Params() {
			if p.Slice && p.Written {
				nw++
			}
		}
		nw = max(nw, 1)
	}
	fail := func(n *graph.Node) []*Array {
		out := make([]*Array, nw)
		for i := range out {
			out[i] = newArray(c, n)
		}
		return out
	}
	attr, in, err := callAttr(k, g, args)
	if err != nil {
		return fail(graph.ErrorNode(graph.OpCall, err))
	}
	for _, x := range in {
		if x.Err() != nil {
			return fail(x)
		}
	}
	nodes := graph.Call(attr, in)
	out := make([]*Array, len(nodes))
	for i, n := range nodes {
		out[i] = newArray(c, n).keep(args...)
	}
	return out
}

// arrayDTypes maps the element types of slice parameters to the array
// dtypes that hold them.
var arrayDTypes = map[kernel.Type]DType{
	kernel.Bool: Bool, kernel.Int: Int64, kernel.Int32: Int32, kernel.Int64: Int64,
	kernel.Float32: Float32, kernel.Float64: Float64,
}

// callAttr checks args against k's parameters and g, and returns the
// call's attributes and its array inputs.
func callAttr(k *kernel.Kernel, g Geometry, args []any) (*graph.CallAttr, []*graph.Node, error) {
	if k == nil {
		return nil, nil, errors.New("Call: nil kernel")
	}
	name := "Call: kernel " + k.Name()
	ps := k.Params()
	if len(args) != len(ps) {
		sig := make([]string, len(ps))
		for i, p := range ps {
			sig[i] = p.String()
		}
		return nil, nil, fmt.Errorf("%s: %d arguments for the %d parameters (%s)", name, len(args), len(ps), strings.Join(sig, ", "))
	}
	attr := &graph.CallAttr{Kernel: k, ForAll: g.forAll, Tasks: g.tasks}
	if g.forAll {
		if g.tasks < 0 {
			return nil, nil, fmt.Errorf("%s: ForAll of %d tasks", name, g.tasks)
		}
	} else {
		if g.cfg.Device != nil || g.cfg.Stream != nil {
			return nil, nil, fmt.Errorf("%s: the geometry names a device or stream; the Context's backend runs a lazy call", name)
		}
		cfg, err := k.CheckConfig(kernel.Config{Grid: g.cfg.Grid, Block: g.cfg.Block, SharedBytes: g.cfg.SharedBytes, Device: kernel.CPU()})
		if err != nil {
			return nil, nil, fmt.Errorf("Call: %w", err)
		}
		attr.Grid = [3]int{cfg.Grid.X, cfg.Grid.Y, cfg.Grid.Z}
		attr.Block = [3]int{cfg.Block.X, cfg.Block.Y, cfg.Block.Z}
		attr.SharedBytes = cfg.SharedBytes
	}
	var in []*graph.Node
	var first *Array
	for i, p := range ps {
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%s: argument %d for parameter %s: %s", name, i+1, p, fmt.Sprintf(format, a...))
		}
		arg := graph.CallArg{Name: p.Name, Input: -1, Written: p.Slice && p.Written}
		x, isArray := args[i].(*Array)
		if !p.Slice {
			if isArray {
				return nil, nil, bad("got an *Array; a scalar parameter takes a Go value")
			}
			v, err := p.Convert(args[i])
			if err != nil {
				return nil, nil, bad("%v", err)
			}
			arg.Value = v
			attr.Args = append(attr.Args, arg)
			continue
		}
		want, ok := arrayDTypes[p.Type]
		switch {
		case !ok:
			return nil, nil, bad("no array dtype holds %s elements", p.Type)
		case !isArray:
			return nil, nil, bad("got %T, want a %v *Array", args[i], want)
		case x == nil || x.node == nil:
			return nil, nil, bad("nil *Array")
		case x.node.Err() == nil && x.DType() != want:
			return nil, nil, bad("got a %v array %v, want %v", x.DType(), x.node.Shape(), want)
		}
		if first == nil {
			first = x
		} else if err := sameContext("Call", first, x); err != nil {
			return nil, nil, fmt.Errorf("%s: argument %d for parameter %s: %w", name, i+1, p, err)
		}
		arg.Input = len(in)
		in = append(in, x.node)
		attr.Args = append(attr.Args, arg)
	}
	return attr, in, nil
}
