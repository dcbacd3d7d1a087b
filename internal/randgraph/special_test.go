// The hand-built GEMM cases and the special-value inputs.

package randgraph_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/randgraph"
)

func TestMatMulCaseProduct(t *testing.T) {
	cases := []struct {
		c    randgraph.MatMulCase
		want graph.Shape
	}{
		{randgraph.MatMulCase{A: graph.Shape{3, 4}, B: graph.Shape{4, 5}}, graph.Shape{3, 5}},
		{randgraph.MatMulCase{A: graph.Shape{4, 3}, B: graph.Shape{4, 5}, TransA: true}, graph.Shape{3, 5}},
		{randgraph.MatMulCase{A: graph.Shape{2, 3, 4}, B: graph.Shape{2, 5, 4}, TransB: true}, graph.Shape{2, 3, 5}},
	}
	for _, tc := range cases {
		a, b, p := tc.c.Product(graph.Float32)
		require.NoError(t, graph.Verify(p))
		if fmt.Sprint(a.Shape(), b.Shape(), p.Shape()) != fmt.Sprint(tc.c.A, tc.c.B, tc.want) {
			t.Errorf("%+v: got:%v %v %v want:%v %v %v", tc.c, a.Shape(), b.Shape(), p.Shape(), tc.c.A, tc.c.B, tc.want)
		}
	}
}

func TestSpecialInputs(t *testing.T) {
	alloc := checkedAlloc(t)
	x, y := graph.Input(graph.Int32, graph.Shape{200}, "x"), graph.Input(graph.Float64, graph.Shape{300}, "y")
	bound, err := randgraph.SpecialInputs(alloc, rand.New(rand.NewPCG(1, 2)), 10, x, y)
	require.NoError(t, err)
	defer func() {
		for _, v := range bound {
			v.Release()
		}
	}()
	for _, v := range exec.Elems[int32](bound[x]) {
		if v < -3 || v > 3 {
			t.Fatalf("int32 element: got:%v want:in [-3, 3]", v)
		}
	}
	special := 0
	for _, v := range exec.Elems[float64](bound[y]) {
		if v != v || v > 2.5 || v < -0.5 {
			special++ // NaN or an infinity: the others are in [-0.5, 2.5]
		}
	}
	if special == 0 || special > 100 {
		t.Errorf("special float64 elements: got:%v want:about one in 10 of 300", special)
	}
}
