// The differential check shared by the GPU suite and the emulated one: a
// backend's results against the reference evaluator within the error
// bounds of randgraph.GPU (the math library's documented ulps), with the
// CPU backend, within randgraph.CPU's, as a second opinion.

package cuda

import (
	"context"
	"fmt"

	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// compareWithCPU evaluates outs on b, on the reference evaluator and on
// the CPU backend, and checks each output of b against the reference (see
// diffOutputs), reporting to t.
func compareWithCPU(t *testing.T, b *Backend, what string, outs []*graph.Node, exact []bool, bound bindings, alloc memory.Allocator) {
	t.Helper()
	errs, notes := diffOutputs(b, what, outs, exact, bound, nil, alloc)
	for _, n := range notes {
		t.Log(n)
	}
	for _, err := range errs {
		t.Error(err)
	}
}

// diffOutputs evaluates outs on b, on the reference evaluator and on the
// CPU backend, and checks each output of b against the reference within
// its error bound under randgraph.GPU (randgraph.Check), and where
// exact[i] (exact may be nil: the caller states the output is computed
// exactly, as randgraph.Case.Exact does for the CPU) also for equality up
// to the sign of zeros, unless it depends on a float op the GPU computes
// only to a few ulps (randgraph.GPU's ULP). A failure says
// whether the CPU backend, checked within its own bounds, sides with b or
// with the reference; where the CPU backend alone disagrees with the
// reference, that is a note (it is exec/cpu's to fix). b evaluates with
// dev bound where dev is not nil (device tensors holding what bound holds
// on the host). Safe for concurrent use.
func diffOutputs(b *Backend, what string, outs []*graph.Node, exact []bool, bound, dev bindings, alloc memory.Allocator) (errs []error, notes []string) {
	ctx := context.Background()
	want, gpuBounds, err := randgraph.Reference(ctx, outs, bound, alloc, randgraph.GPU)
	if err != nil {
		return []error{fmt.Errorf("%s: reference: %w", what, err)}, nil
	}
	defer releaseAll(want)
	defer releaseSome(gpuBounds)
	again, cpuBounds, err := randgraph.Reference(ctx, outs, bound, alloc, randgraph.CPU)
	if err != nil {
		return []error{fmt.Errorf("%s: reference: %w", what, err)}, nil
	}
	releaseAll(again) // the same as want
	defer releaseSome(cpuBounds)
	approx := gpuApprox(outs)
	onCPU, err := cpu.New(cpu.Options{}).Eval(ctx, &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc})
	if err != nil {
		return []error{fmt.Errorf("%s: cpu: %w", what, err)}, nil
	}
	defer releaseAll(onCPU)
	if dev == nil {
		dev = bound
	}
	got, err := b.Eval(ctx, &exec.Request{Outputs: outs, Bound: dev, Alloc: alloc})
	if err != nil {
		return []error{fmt.Errorf("%s: cuda: %w", what, err)}, nil
	}
	defer releaseAll(got)
	for i := range outs {
		h, err := b.ToHost(ctx, got[i], alloc)
		if err != nil {
			return append(errs, fmt.Errorf("%s: output %d: ToHost: %w", what, i, err)), notes
		}
		cerr := randgraph.Check(h, want[i], gpuBounds[i])
		if cerr == nil && exact != nil && exact[i] && !approx[i] {
			cerr = randgraph.Equal(h, want[i])
		}
		h.Release()
		cpuErr := randgraph.Check(onCPU[i], want[i], cpuBounds[i])
		switch {
		case cerr != nil:
			note := " (the CPU backend agrees with the reference)"
			if cpuErr != nil {
				note = fmt.Sprintf(" (the CPU backend disagrees too: %v)", cpuErr)
			}
			errs = append(errs, fmt.Errorf("%s: output %d (%v %v %v) against the reference: %v%s", what, i, outs[i].Op(), outs[i].Shape(), outs[i].DType(), cerr, note))
		case cpuErr != nil:
			notes = append(notes, fmt.Sprintf("%s: output %d: exec/cpu disagrees with the reference and CUDA: %v", what, i, cpuErr))
		}
	}
	return errs, notes
}

// gpuApprox reports for each of outs whether it depends on a float op
// that randgraph.GPU computes to a few ulps rather than exactly.
func gpuApprox(outs []*graph.Node) []bool {
	memo := map[*graph.Node]bool{}
	var visit func(n *graph.Node) bool
	visit = func(n *graph.Node) bool {
		if a, ok := memo[n]; ok {
			return a
		}
		a := n.DType().IsFloat() && randgraph.GPU.ULP(n.Op(), n.DType()) > 0
		for _, in := range n.Inputs() {
			a = visit(in) || a
		}
		memo[n] = a
		return a
	}
	res := make([]bool, len(outs))
	for i, n := range outs {
		res[i] = visit(n)
	}
	return res
}

// releaseSome releases the tensors of ts that are not nil.
func releaseSome(ts []*exec.Tensor) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}
