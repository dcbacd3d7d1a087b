// Explicit kernel calls: the kernel's Go function run on the CPU device
// over fresh Go slices holding copies of the call's inputs, the written
// slice of the requested output stored as the result. The Go function is
// the kernel's definition, so running it is the reference.

package ref

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/kernel"
)

// call runs the call of OpCall node n over the values ins of its inputs
// and returns the written slice of output n.Attr().Output. Each output of
// a call runs the kernel again, on copies of its own: the inputs are
// never changed.
func call(ctx context.Context, alloc memory.Allocator, n *graph.Node, ins []*exec.Tensor) (*exec.Tensor, error) {
	c := n.Attr().Call
	k, ok := c.Kernel.(*kernel.Kernel)
	if !ok {
		return nil, fmt.Errorf("call of %T: not a *kernel.Kernel", c.Kernel)
	}
	ps := k.Params()
	if len(ps) != len(c.Args) {
		return nil, fmt.Errorf("kernel %s: %d arguments for %d parameters", k.Name(), len(c.Args), len(ps))
	}
	args := make([]any, len(c.Args))
	for i, a := range c.Args {
		if a.Input < 0 {
			args[i] = a.Value
			continue
		}
		t := ins[a.Input]
		s, err := toGo(ps[i].Type, load(t, t.Shape))
		if err != nil {
			return nil, fmt.Errorf("kernel %s: parameter %s: %w", k.Name(), ps[i], err)
		}
		args[i] = s
	}
	cfg := kernel.Config{Grid: kernel.D3(c.Grid[0], c.Grid[1], c.Grid[2]), Block: kernel.D3(c.Block[0], c.Block[1], c.Block[2]),
		SharedBytes: c.SharedBytes, Device: kernel.CPU()}
	run := true
	if c.ForAll {
		var err error
		if cfg, err = k.ForAllConfig(kernel.CPU(), c.Tasks); err != nil {
			return nil, err
		}
		run = c.Tasks > 0
	}
	if run {
		if err := k.LaunchContext(ctx, cfg, args...); err != nil {
			return nil, err
		}
	}
	w := c.Written()
	j := n.Attr().Output
	if j < 0 || j >= len(w) {
		return nil, fmt.Errorf("kernel %s: output %d of %d", k.Name(), j, len(w))
	}
	return store(alloc, fromGo(args[w[j]]), n.DType(), n.Shape())
}

// toGo returns the lanes v as a Go slice of t's Go type.
func toGo(t kernel.Type, v vec) (any, error) {
	switch t {
	case kernel.Bool:
		out := make([]bool, len(v.i))
		for k, x := range v.i {
			out[k] = x != 0
		}
		return out, nil
	case kernel.Int:
		return convLane[int](v.i), nil
	case kernel.Int32:
		return convLane[int32](v.i), nil
	case kernel.Int64:
		return convLane[int64](v.i), nil
	case kernel.Float32:
		return convLane[float32](v.f), nil
	case kernel.Float64:
		return convLane[float64](v.f), nil
	}
	return nil, fmt.Errorf("no array holds %s elements", t)
}

// convLane converts each element of a lane.
func convLane[T, L int | int32 | int64 | float32 | float64](x []L) []T {
	out := make([]T, len(x))
	for k, v := range x {
		out[k] = T(v)
	}
	return out
}

// fromGo returns the lanes of a Go slice that toGo made.
func fromGo(s any) vec {
	switch x := s.(type) {
	case []bool:
		out := make([]int64, len(x))
		for k, b := range x {
			if b {
				out[k] = 1
			}
		}
		return vec{i: out}
	case []int:
		return vec{i: convLane[int64](x)}
	case []int32:
		return vec{i: convLane[int64](x)}
	case []int64:
		return vec{i: x}
	case []float32:
		return vec{f: convLane[float64](x)}
	case []float64:
		return vec{f: x}
	}
	panic(fmt.Sprintf("ref: fromGo of %T", s))
}
