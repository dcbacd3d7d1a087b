// Helpers the external tests and benchmarks of the package share:
// bound inputs, releasing results, and evaluating a graph on CPU
// backends against the reference evaluator, exactly or within the
// error bounds of randgraph.CPU.

package cpu_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

// checkedAlloc returns a checked allocator that must hold nothing when
// the test (and its deferred releases) ends.
func checkedAlloc(t testing.TB) *memory.CheckedAllocator {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { alloc.AssertSize(t, 0) })
	return alloc
}

// newInput returns an input node labeled label of d and s and a zeroed
// tensor for it from alloc, failing the test when the tensor cannot be
// made. The caller releases the tensor.
func newInput(t testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, label string) (*graph.Node, *exec.Tensor) {
	t.Helper()
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	return graph.Input(d, s, label), x
}

// floatTensor returns a tensor of float dtype d and shape s holding v
// (rounded to d), failing the test when it cannot be made. The caller
// releases it.
func floatTensor(t testing.TB, alloc memory.Allocator, d graph.DType, s graph.Shape, v []float64) *exec.Tensor {
	t.Helper()
	x, err := exec.NewTensor(alloc, d, s)
	require.NoError(t, err)
	for i, f := range v {
		if d == graph.Float32 {
			exec.Elems[float32](x)[i] = float32(f)
		} else {
			exec.Elems[float64](x)[i] = f
		}
	}
	return x
}

// setFloats sets each element of x, a float32 or float64 tensor, to
// f() (rounded to its dtype), in order.
func setFloats(x *exec.Tensor, f func() float64) {
	if x.DType == graph.Float32 {
		for i := range exec.Elems[float32](x) {
			exec.Elems[float32](x)[i] = float32(f())
		}
		return
	}
	for i := range exec.Elems[float64](x) {
		exec.Elems[float64](x)[i] = f()
	}
}

// release releases every non-nil tensor of ts.
func release(ts []*exec.Tensor) {
	for _, t := range ts {
		if t != nil {
			t.Release()
		}
	}
}

// releaseBound releases the bound tensors.
func releaseBound(bound map[*graph.Node]*exec.Tensor) {
	for _, t := range bound {
		t.Release()
	}
}

// evalOn evaluates outs on be and fails the test on an error (with
// msgAndArgs). The caller releases the results.
func evalOn(t testing.TB, be exec.Backend, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator, msgAndArgs ...any) []*exec.Tensor {
	t.Helper()
	res, err := be.Eval(context.Background(), &exec.Request{Outputs: outs, Bound: bound, Alloc: alloc})
	require.NoError(t, err, msgAndArgs...)
	return res
}

// evalBoth evaluates outs on the default CPU executor and on the
// reference and requires them to agree (floats within the error bounds
// of randgraph.CPU).
func evalBoth(t *testing.T, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator) {
	t.Helper()
	checkWithinRef(t, "", []*cpu.Backend{cpu.New(cpu.Options{})}, outs, bound, alloc)
}

// checkWithinRef evaluates outs on each backend and compares them with
// the reference, floats within the error bounds of randgraph.CPU; name
// and the backend's index in backends prefix the failures.
func checkWithinRef(t *testing.T, name string, backends []*cpu.Backend, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator) {
	t.Helper()
	for _, o := range outs {
		if err := o.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	want, bounds, err := randgraph.Reference(context.Background(), outs, bound, alloc, randgraph.CPU)
	if err != nil {
		t.Fatalf("%s: ref: %v", name, err)
	}
	defer release(want)
	defer release(bounds)
	for bi, be := range backends {
		got := evalOn(t, be, outs, bound, alloc, "%s: backend %d", name, bi)
		for i := range want {
			if err := randgraph.Check(got[i], want[i], bounds[i]); err != nil {
				t.Errorf("%s: backend %d: output %d (%v axes %v): %v", name, bi, i, outs[i].Op(), outs[i].Attr().Axes, err)
			}
		}
		release(got)
	}
}

// sameAsRef evaluates outs on be and on the reference and requires the
// same elements (sameElems); what names the case in failures.
func sameAsRef(t *testing.T, be exec.Backend, outs []*graph.Node, bound map[*graph.Node]*exec.Tensor, alloc memory.Allocator, what string) {
	t.Helper()
	want := evalOn(t, ref.New(), outs, bound, alloc, what)
	defer release(want)
	got := evalOn(t, be, outs, bound, alloc, what)
	defer release(got)
	for i := range want {
		sameElems(t, got[i], want[i], fmt.Sprintf("%s output %d", what, i))
	}
}

// sameElems reports whether two tensors of one dtype hold the same
// elements (bit for bit; any NaN equals any NaN).
func sameElems(t *testing.T, got, want *exec.Tensor, what string) {
	t.Helper()
	require.Equal(t, want.Shape, got.Shape, what)
	switch want.DType {
	case graph.Float32:
		g, w := exec.Elems[float32](got), exec.Elems[float32](want)
		for i := range w {
			if math.Float32bits(g[i]) != math.Float32bits(w[i]) && !(g[i] != g[i] && w[i] != w[i]) {
				t.Fatalf("%s: element %d got:%v want:%v", what, i, g[i], w[i])
			}
		}
	case graph.Float64:
		g, w := exec.Elems[float64](got), exec.Elems[float64](want)
		for i := range w {
			if math.Float64bits(g[i]) != math.Float64bits(w[i]) && !(g[i] != g[i] && w[i] != w[i]) {
				t.Fatalf("%s: element %d got:%v want:%v", what, i, g[i], w[i])
			}
		}
	default:
		g, w := got.Buf.Bytes(), want.Buf.Bytes()
		es := want.DType.Size()
		for i := range want.Size() {
			if string(g[i*es:(i+1)*es]) != string(w[i*es:(i+1)*es]) {
				t.Fatalf("%s: element %d differs (%v)", what, i, want.DType)
			}
		}
	}
}
