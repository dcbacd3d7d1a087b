// The test harness: plan a graph, lower every kernel, run the launches
// on the IR interpreter over the plan's buffers, read the outputs, and
// compare them with the reference evaluator.

package codegen_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// bindings binds the Input nodes of a graph to tensors.
type bindings = map[*graph.Node]*exec.Tensor

// values is an array read back from memory: floats in f, ints and bools
// in i.
type values struct {
	d     graph.DType
	shape graph.Shape
	f     []float64
	i     []int64
}

// readElem reads element e of dtype d from b (uint64 as its bits).
func readElem(b []byte, d graph.DType, e int) (float64, int64) {
	v := exec.ScalarFromBytes(b[e*d.Size():], d)
	return v.F, v.I
}

// gather reads the view (shape, strides, offset) of b in row-major order.
func gather(b []byte, d graph.DType, shape graph.Shape, strides []int, offset int) values {
	v := values{d: d, shape: shape}
	n := shape.Size()
	idx := make([]int, len(shape))
	for k := 0; k < n; k++ {
		e := offset
		for a := range shape {
			e += idx[a] * strides[a]
		}
		f, i := readElem(b, d, e)
		if d.IsFloat() {
			v.f = append(v.f, f)
		} else {
			v.i = append(v.i, i)
		}
		for a := len(shape) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return v
}

// run is one planned and interpreted evaluation.
type run struct {
	plan    *fuse.Plan
	mems    []*ir.Mem
	outputs []values
	fns     []*ir.Func
}

// planOf plans outputs with the layouts of the bound tensors.
func planOf(t testing.TB, outputs []*graph.Node, bound bindings) (*fuse.Plan, []*graph.Node) {
	t.Helper()
	layouts := map[*graph.Node]graph.Layout{}
	for n, x := range bound {
		layouts[n] = x.Layout
	}
	p, err := fuse.Build(outputs, layouts)
	require.NoError(t, err)
	_, slots, err := fuse.Key(outputs, layouts)
	require.NoError(t, err)
	return p, slots
}

// planned returns the plan of outs over contiguous inputs.
func planned(t testing.TB, outs ...*graph.Node) *fuse.Plan {
	t.Helper()
	bound := bindings{}
	collectInputs(outs, bound)
	p, _ := planOf(t, outs, bound)
	return p
}

// tryPlan is planOf returning the planner's error.
func tryPlan(outputs []*graph.Node, bound bindings) (p *fuse.Plan, slots []*graph.Node, err error) {
	defer func() {
		if e := recover(); e != nil {
			p, slots, err = nil, nil, fmt.Errorf("planner panic: %v", e)
		}
	}()
	layouts := map[*graph.Node]graph.Layout{}
	for n, x := range bound {
		layouts[n] = x.Layout
	}
	if p, err = fuse.Build(outputs, layouts); err != nil {
		return nil, nil, err
	}
	_, slots, err = fuse.Key(outputs, layouts)
	return p, slots, err
}

// interpret runs plan p on the interpreter with the bound tensors.
func interpret(t testing.TB, p *fuse.Plan, slots []*graph.Node, bound bindings, tg codegen.Target) *run {
	t.Helper()
	return interpretWith(t, p, slots, bound, tg, nil)
}

// interpretWith is interpret with the geometry of each kernel changed by
// adjust (nil: as ChooseGeometry picks it).
func interpretWith(t testing.TB, p *fuse.Plan, slots []*graph.Node, bound bindings, tg codegen.Target,
	adjust func(*fuse.Kernel, *codegen.Geometry)) *run {
	t.Helper()
	r := &run{plan: p, mems: planMems(p, slots, bound)}
	for ki := range p.Kernels {
		k := &p.Kernels[ki]
		g, err := codegen.ChooseGeometry(k, tg)
		require.NoError(t, err, "kernel %d (%s)", ki, k.Name)
		if adjust != nil {
			adjust(k, &g)
		}
		fn, sig, err := codegen.LowerGeometry(k, tg, g)
		require.NoError(t, err, "kernel %d (%s)", ki, k.Name)
		r.fns = append(r.fns, fn)
		launchAll(t, fn, sig, r.mems, fmt.Sprintf("kernel %d (%s)", ki, k.Name), p)
	}
	r.outputs = planOutputs(p, r.mems)
	return r
}

// planMems returns interpreter memory for each buffer of plan p, the
// inputs holding the bytes of their bound tensors.
func planMems(p *fuse.Plan, slots []*graph.Node, bound bindings) []*ir.Mem {
	mems := make([]*ir.Mem, len(p.Buffers))
	for i, b := range p.Buffers {
		mems[i] = ir.NewMem(int(b.Bytes))
	}
	for i, in := range p.Inputs {
		src := bound[slots[i]].Bytes()
		m := mems[in.Buffer]
		if len(src) > len(m.Data) {
			m.Data = make([]byte, len(src))
		}
		copy(m.Data, src)
	}
	return mems
}

// launchAll compiles fn and runs every launch of its signature sig on
// the interpreter over the plan's buffers mems, and returns the kernel's
// scratch buffers. It fails t, naming what, the pass and plan p, when a
// launch fails.
func launchAll(t testing.TB, fn *ir.Func, sig *codegen.Signature, mems []*ir.Mem, what string, p *fuse.Plan) []*ir.Mem {
	t.Helper()
	prog, err := ir.Compile(fn)
	require.NoError(t, err, what)
	scratch := make([]*ir.Mem, len(sig.Scratch))
	for i, sc := range sig.Scratch {
		scratch[i] = ir.NewMem(int(sc.Bytes))
	}
	for _, ln := range sig.Launches {
		args := make([]any, len(sig.Params))
		for pi, prm := range sig.Params {
			switch prm.Kind {
			case codegen.ParamBuffer:
				args[pi] = mems[prm.Buffer]
			case codegen.ParamScratch:
				args[pi] = scratch[prm.Buffer]
			case codegen.ParamPass:
				args[pi] = ln.Pass
			}
		}
		err := prog.Run(ir.Config{Grid: ln.Grid.Array(), Block: ln.Block.Array()}, args...)
		require.NoError(t, err, "%s pass %d:\n%s", what, ln.Pass, fuse.Explain(p))
	}
	return scratch
}

// planOutputs reads the outputs of plan p from its buffers mems.
func planOutputs(p *fuse.Plan, mems []*ir.Mem) []values {
	var outs []values
	for _, o := range p.Outputs {
		l := o.Layout
		outs = append(outs, gather(mems[o.Buffer].Data, l.DType, l.Shape, l.Strides, l.Offset))
	}
	return outs
}

// refEval evaluates outputs with exec/ref; the caller releases the
// results.
func refEval(outputs []*graph.Node, bound bindings) ([]*exec.Tensor, error) {
	return ref.New().Eval(context.Background(), &exec.Request{Outputs: outputs, Bound: bound})
}

// reference evaluates outputs with exec/ref.
func reference(t testing.TB, outputs []*graph.Node, bound bindings) []values {
	t.Helper()
	res, err := ref.New().Eval(context.Background(), &exec.Request{Outputs: outputs, Bound: bound})
	require.NoError(t, err)
	out := make([]values, len(res))
	for i, x := range res {
		out[i] = gather(x.Bytes(), x.DType, x.Shape, x.Strides, x.Offset)
		x.Release()
	}
	return out
}

// tolerance is the allowed float error: |got - want| <= abs + rel*|want|.
type tolerance struct{ abs, rel float64 }

// compare checks got against want: integers and bools exactly, floats
// within tol (NaN matches NaN, infinities match by sign).
func compare(got, want values, tol tolerance) error {
	if got.d != want.d || !got.shape.Equal(want.shape) {
		return fmt.Errorf("got %v %v want:%v %v", got.shape, got.d, want.shape, want.d)
	}
	for k := range want.i {
		if got.i[k] != want.i[k] {
			return fmt.Errorf("element %d got:%v want:%v", k, got.i[k], want.i[k])
		}
	}
	for k, w := range want.f {
		g := got.f[k]
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if !(math.IsNaN(w) && math.IsNaN(g)) {
				return fmt.Errorf("element %d got:%v want:%v", k, g, w)
			}
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			if g != w {
				return fmt.Errorf("element %d got:%v want:%v", k, g, w)
			}
		case math.Abs(g-w) > tol.abs+tol.rel*math.Abs(w):
			return fmt.Errorf("element %d got:%v want:%v (diff %g)", k, g, w, math.Abs(g-w))
		}
	}
	return nil
}

// check plans, interprets and compares outputs with the reference.
func check(t testing.TB, outputs []*graph.Node, bound bindings, tg codegen.Target, tol tolerance) *run {
	t.Helper()
	p, slots := planOf(t, outputs, bound)
	r := interpret(t, p, slots, bound, tg)
	want := reference(t, outputs, bound)
	for i := range want {
		if err := compare(r.outputs[i], want[i], tol); err != nil {
			t.Fatalf("output %d (%v %v): %v\n%s", i, outputs[i].Op(), outputs[i].Shape(), err, fuse.Explain(p))
		}
	}
	return r
}

// tensorOf returns a contiguous tensor of dtype d and shape s filled by
// f(i) (converted like AsType from float64).
func tensorOf(t testing.TB, d graph.DType, s graph.Shape, f func(i int) float64) *exec.Tensor {
	t.Helper()
	x, err := exec.NewTensor(memory.DefaultAllocator, d, s)
	require.NoError(t, err)
	for i := range s.Size() {
		exec.PutScalar(x, i, graph.ScalarOf(graph.Float64, f(i)))
	}
	return x
}
