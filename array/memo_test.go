// Tests of memoized node building: an op built again on the same
// operands gives the node graph gives, distinct scalars, axes and ops
// give distinct nodes (0 and -0 among them), the memo keeps no node
// alive, and concurrent builds agree.

package array_test

import (
	"math"
	"runtime"
	"sync"
	"testing"
	gcweak "weak"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/graph"
)

func TestMemoGivesGraphsNode(t *testing.T) {
	c := cpuContext()
	x := array.FromSlice(c, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	y := array.FromSlice(c, []float32{1, 2, 3}, 3)
	defer x.Release()
	defer y.Release()
	xn, yn := x.Node(), y.Node()
	for _, tc := range []struct {
		name  string
		build func() *array.Array
		graph func() *graph.Node
	}{
		{"exp", func() *array.Array { return x.Exp() }, func() *graph.Node { return graph.Unary(graph.OpExp, xn) }},
		{"neg", func() *array.Array { return x.Neg() }, func() *graph.Node { return graph.Unary(graph.OpNeg, xn) }},
		{"x+y", func() *array.Array { return x.Add(y) }, func() *graph.Node { return graph.Binary(graph.OpAdd, xn, yn) }},
		{"y+x", func() *array.Array { return y.Add(x) }, func() *graph.Node { return graph.Binary(graph.OpAdd, yn, xn) }},
		{"x*y", func() *array.Array { return x.Mul(y) }, func() *graph.Node { return graph.Binary(graph.OpMul, xn, yn) }},
		{"x+2", func() *array.Array { return x.Add(2) }, func() *graph.Node {
			return graph.BinaryWeak(graph.OpAdd, xn, graph.Weak{Kind: graph.KindInt, Int: 2}, false)
		}},
		{"x+2.5", func() *array.Array { return x.Add(2.5) }, func() *graph.Node {
			return graph.BinaryWeak(graph.OpAdd, xn, graph.Weak{Kind: graph.KindFloat, Float: 2.5}, false)
		}},
		{"sum", func() *array.Array { return x.Sum() }, func() *graph.Node { return graph.Reduce(graph.OpSum, xn, nil, false) }},
		{"sum 0", func() *array.Array { return x.Sum(0) }, func() *graph.Node { return graph.Reduce(graph.OpSum, xn, []int{0}, false) }},
		{"sum -1", func() *array.Array { return x.Sum(-1) }, func() *graph.Node { return graph.Reduce(graph.OpSum, xn, []int{-1}, false) }},
		{"sum 0 keep", func() *array.Array { return x.SumKeepDims(0) }, func() *graph.Node { return graph.Reduce(graph.OpSum, xn, []int{0}, true) }},
		{"max 0 1", func() *array.Array { return x.Max(0, 1) }, func() *graph.Node { return graph.Reduce(graph.OpReduceMax, xn, []int{0, 1}, false) }},
		{"argmax", func() *array.Array { return x.ArgMax() }, func() *graph.Node { return graph.Reduce(graph.OpArgMax, xn, nil, false) }},
		{"step 2 axis 1", func() *array.Array { return x.Slice(array.All, array.Stride(2)) }, func() *graph.Node {
			return graph.Slice(xn, []graph.Range{graph.All, {Step: 2, NoStart: true, NoStop: true}})
		}},
		{"rev axis 0", func() *array.Array { return x.Slice(array.Stride(-1)) }, func() *graph.Node {
			return graph.Slice(xn, []graph.Range{{Step: -1, NoStart: true, NoStop: true}})
		}},
		{"1:3", func() *array.Array { return y.Slice(array.R(1, 3)) }, func() *graph.Node {
			return graph.Slice(yn, []graph.Range{{Start: 1, Stop: 3, Step: 1}})
		}},
		{"0:1, 1:", func() *array.Array { return x.Slice(array.R(0, 1), array.Range{Start: 1, Step: 1, NoStop: true}) }, func() *graph.Node {
			return graph.Slice(xn, []graph.Range{{Start: 0, Stop: 1, Step: 1}, {Start: 1, Step: 1, NoStop: true}})
		}},
	} {
		first, second := tc.build(), tc.build()
		want := tc.graph()
		if first.Node() != want || second.Node() != want {
			t.Errorf("%s: nodes got:%p, %p want:%p (graph's)", tc.name, first.Node(), second.Node(), want)
		}
		first.Release()
		second.Release()
	}
	// Distinct builds give distinct nodes.
	seen := map[*graph.Node]string{}
	for name, a := range map[string]*array.Array{
		"exp": x.Exp(), "neg": x.Neg(), "x+y": x.Add(y), "y+x": y.Add(x), "x-y": x.Sub(y),
		"x+2": x.Add(2), "x+2.5": x.Add(2.5), "x+true": x.Add(true), "x+3": x.Add(3),
		"sum": x.Sum(), "sum 0": x.Sum(0), "sum 1": x.Sum(1), "sum 0 keep": x.SumKeepDims(0),
		"prod 0": x.Prod(0), "argmax": x.ArgMax(), "argmax 0": x.ArgMax(0),
		// Slices that differ in one field of their last range, or in
		// the axis it applies to.
		"y[::2]": y.Slice(array.Stride(2)), "y[::-1]": y.Slice(array.Stride(-1)),
		"y[1:]":  y.Slice(array.Range{Start: 1, Step: 1, NoStop: true}),
		"y[1:2]": y.Slice(array.R(1, 2)), "y[0:2]": y.Slice(array.R(0, 2)), "y[-1:]": y.Slice(array.Range{Start: -1, Step: 1, NoStop: true}),
		"x[:, ::-1]": x.Slice(array.All, array.Stride(-1)), "x[::-1]": x.Slice(array.Stride(-1)),
		// The flags: no start or stop against a start or stop of 0.
		"y[1:0]": y.Slice(array.R(1, 0)), "y[0::-1]": y.Slice(array.Range{Start: 0, Step: -1, NoStop: true}),
	} {
		if other, ok := seen[a.Node()]; ok {
			t.Errorf("%s and %s got the same node", name, other)
		}
		seen[a.Node()] = name
		defer a.Release()
	}
}

// TestMemoSignedZero: adding 0 and adding -0 are different expressions
// (-0 + 0 is 0, -0 + -0 is -0), however they are built in turn.
func TestMemoSignedZero(t *testing.T) {
	c := cpuContext()
	x := array.FromSlice(c, []float64{math.Copysign(0, -1)}, 1)
	defer x.Release()
	for range 2 {
		for _, tc := range []struct {
			w        float64
			wantSign bool
		}{{0, false}, {math.Copysign(0, -1), true}} {
			z := x.Add(tc.w)
			got, err := array.ToSlice[float64](z)
			require.NoError(t, err)
			if math.Signbit(got[0]) != tc.wantSign {
				t.Errorf("-0 + %v: sign bit got:%v want:%v", tc.w, math.Signbit(got[0]), tc.wantSign)
			}
			z.Release()
		}
	}
}

// TestMemoKeepsNoNode: the memo holds its nodes weakly.
func TestMemoKeepsNoNode(t *testing.T) {
	c := cpuContext()
	x := array.FromSlice(c, []float32{1, 2}, 2)
	defer x.Release()
	w := func() gcweak.Pointer[graph.Node] {
		z := x.Mul(x).Exp()
		defer z.Release()
		return gcweak.Make(z.Node())
	}()
	for range 5 {
		runtime.GC()
	}
	require.Nil(t, w.Value(), "a node nothing but the memo references is kept")
	// Built again, it is a new node, memoized again.
	z1, z2 := x.Mul(x).Exp(), x.Mul(x).Exp()
	defer z1.Release()
	defer z2.Release()
	require.Same(t, z1.Node(), z2.Node())
}

func TestMemoConcurrent(t *testing.T) {
	c := cpuContext()
	x := array.FromSlice(c, []float32{1, 2, 3}, 3)
	defer x.Release()
	want := x.Add(1).Mul(x).Sum().Node()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				// Other builds contend for the memo's slots meanwhile.
				other := x.Add(float64(w*1000 + i)).Exp()
				z := x.Add(1).Mul(x).Sum()
				if z.Node() != want {
					errs <- "a concurrent build got another node"
				}
				other.Release()
				z.Release()
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestMemoVariance: the variance's whole expression is memoized per
// operand, ddof, axis and keep dims; a memoized one gives the same node
// and the same values, and the others give distinct nodes.
func TestMemoVariance(t *testing.T) {
	c := cpuContext()
	x := array.FromSlice(c, []float64{1, 2, 4, 8, 16, 32}, 2, 3)
	defer x.Release()
	for _, tc := range []struct {
		name  string
		build func() *array.Array
		want  []float64
	}{
		{"var", func() *array.Array { return x.Var() }, []float64{117.25}},
		{"var 1", func() *array.Array { return x.Var(1) }, []float64{14.0 / 9, 896.0 / 9}},
		{"var -1", func() *array.Array { return x.Var(-1) }, []float64{14.0 / 9, 896.0 / 9}},
		{"var 0", func() *array.Array { return x.Var(0) }, []float64{12.25, 49, 196}},
		{"var ddof 1, 1", func() *array.Array { return x.VarDdof(1, 1) }, []float64{7.0 / 3, 448.0 / 3}},
		{"var 1 keep", func() *array.Array { return x.VarKeepDims(1) }, []float64{14.0 / 9, 896.0 / 9}},
		{"std 0", func() *array.Array { return x.Std(0) }, []float64{3.5, 7, 14}},
	} {
		first, second := tc.build(), tc.build()
		if first.Node() != second.Node() {
			t.Errorf("%s: built again got node %p want:%p", tc.name, second.Node(), first.Node())
		}
		for _, a := range []*array.Array{first, second} {
			got := array.MustToSlice[float64](a)
			require.InDeltaSlice(t, tc.want, got, 1e-9, tc.name)
			a.Release()
		}
	}
	seen := map[*graph.Node]string{}
	for name, a := range map[string]*array.Array{
		"var": x.Var(), "var 0": x.Var(0), "var 1": x.Var(1), "var ddof 1": x.VarDdof(1),
		"var keep": x.VarKeepDims(), "var 1 keep": x.VarKeepDims(1), "var ddof 1, 1": x.VarDdof(1, 1),
	} {
		if other, ok := seen[a.Node()]; ok {
			t.Errorf("%s and %s got the same node", name, other)
		}
		seen[a.Node()] = name
		defer a.Release()
	}
}
