// The differential check shared by the GPU suite and the emulated one: a
// backend's results against the reference evaluator, with the CPU backend
// as a second opinion, and the float tolerance the GPU's math library
// needs.

package cuda

import (
	"context"
	"fmt"

	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// compareWithCPU evaluates outs on b, on the reference evaluator and on
// the CPU backend, and checks each output of b against the reference (see
// diffOutputs), reporting to t.
func compareWithCPU(t *testing.T, b *Backend, what string, outs []*graph.Node, exact []bool, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator) {
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
// CPU backend, and checks each output of b against the reference:
// exactly where exact[i] and the output computes no gpuApprox op, within
// randgraph's tolerance otherwise. A failure says whether the CPU backend
// sides with b or with the reference. Where the CPU backend alone
// disagrees with the reference, that is a note (it is exec/cpu's to fix),
// as are outputs not compared because they take sin, cos or tan of a
// value beyond the math library's documented reduction range (NaN there).
// b evaluates with dev bound where dev is not nil (device tensors holding
// what bound holds on the host). Safe for concurrent use.
func diffOutputs(b *Backend, what string, outs []*graph.Node, exact []bool, bound, dev map[*graph.Node]*exec.Tensor, alloc memory.Allocator) (errs []error, notes []string) {
	ctx := context.Background()
	want, err := ref.New().Eval(ctx, &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc})
	if err != nil {
		return []error{fmt.Errorf("%s: reference: %w", what, err)}, nil
	}
	defer releaseAll(want)
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
	exact = gpuExact(outs, exact)
	for i := range outs {
		h, err := b.ToHost(ctx, got[i], alloc)
		if err != nil {
			return append(errs, fmt.Errorf("%s: output %d: ToHost: %w", what, i, err)), notes
		}
		cerr := randgraph.Compare(h, want[i], exact[i])
		h.Release()
		cpuErr := randgraph.Compare(onCPU[i], want[i], exact[i])
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

// gpuApprox lists the float ops the GPU computes to within a few ulps of
// the reference rather than exactly (codegen/mathlib/ULP.md): the math
// library's functions that are not correctly rounded, and normal random
// numbers (made with them).
var gpuApprox = map[graph.Op]bool{
	graph.OpRsqrt: true, graph.OpExp: true, graph.OpExp2: true, graph.OpLog: true, graph.OpLog2: true,
	graph.OpLog1p: true, graph.OpExpm1: true, graph.OpSin: true, graph.OpCos: true, graph.OpTan: true,
	graph.OpTanh: true, graph.OpSigmoid: true, graph.OpErf: true, graph.OpPow: true, graph.OpAtan2: true,
	graph.OpRandN: true,
}

// gpuExact returns exact with the outputs that depend on a gpuApprox op
// on floats turned to tolerance comparisons.
func gpuExact(outs []*graph.Node, exact []bool) []bool {
	approx := map[*graph.Node]bool{}
	var visit func(n *graph.Node) bool
	visit = func(n *graph.Node) bool {
		if a, ok := approx[n]; ok {
			return a
		}
		a := gpuApprox[n.Op()] && n.DType().IsFloat()
		for _, in := range n.Inputs() {
			a = visit(in) || a
		}
		approx[n] = a
		return a
	}
	out := make([]bool, len(exact))
	for i, n := range outs {
		out[i] = exact[i] && !visit(n)
	}
	return out
}
