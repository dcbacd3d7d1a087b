package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
)

func TestParseExpr(t *testing.T) {
	tests := []struct {
		src    string
		shape  graph.Shape
		dtype  graph.DType
		inputs int
		err    string
	}{
		{src: "exp(-a*a)*b + sqrt(c)", shape: graph.Shape{4, 5}, dtype: graph.Float32, inputs: 3},
		{src: "a * 2", shape: graph.Shape{4, 5}, dtype: graph.Float32, inputs: 1},
		{src: "2.5 - a", shape: graph.Shape{4, 5}, dtype: graph.Float32, inputs: 1},
		{src: "sum(a, 1)", shape: graph.Shape{4}, dtype: graph.Float32, inputs: 1},
		{src: "mean(a)", shape: graph.Shape{}, dtype: graph.Float32, inputs: 1},
		{src: "argmax(a, 0)", shape: graph.Shape{5}, dtype: graph.Int64, inputs: 1},
		{src: "where(a > b, a, b)", shape: graph.Shape{4, 5}, dtype: graph.Float32, inputs: 2},
		{src: "matmul(a, transpose(b))", shape: graph.Shape{4, 4}, dtype: graph.Float32, inputs: 2},
		{src: "maximum(a, 0) && a < 1", err: "And"},
		{src: "1 + 2", err: "two constants"},
		{src: "frob(a)", err: `unknown function "frob"`},
		{src: "a[1]", err: "unsupported expression"},
		{src: "sum(a, 7)", err: "axis 7 is out of bounds"},
		{src: "exp(", err: "parsing"},
	}
	for _, tt := range tests {
		e, err := parseExpr(tt.src, graph.Float32, graph.Shape{4, 5})
		if parseFailed(t, tt.src, err, tt.err) {
			continue
		}
		if !e.root.Shape().Equal(tt.shape) || e.root.DType() != tt.dtype || len(e.inputs) != tt.inputs {
			t.Errorf("%q got:%v %v %d inputs want:%v %v %d", tt.src, e.root.Shape(), e.root.DType(), len(e.inputs), tt.shape, tt.dtype, tt.inputs)
		}
	}
}

func TestExplainAndEval(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"explain", "-shape", "64,64", "exp(-a*a)*b + sqrt(c)"}, []string{"1 kernels", "fused: Neg Mul Exp Mul Sqrt Add"}},
		{[]string{"explain", "-device", "h100", "-shape", "256,256", "sum(a*a, 1)"}, []string{"plan for", "reduce"}},
		{[]string{"explain", "-dot", "-shape", "8", "a+1"}, []string{"digraph"}},
		{[]string{"eval", "-shape", "3", "-dtype", "int32", "a - a"}, []string{"backend: cpu", "values: [0 0 0]"}},
		{[]string{"eval", "-device", "ref", "-shape", "2,2", "sum(a*0 + 1)"}, []string{"backend: ref", "values: [4]"}},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if code := run(tt.args, &out, &errOut); code != 0 {
			t.Errorf("run(%q) got exit %d: %s", tt.args, code, errOut.String())
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("run(%q) got:%q want it to contain %q", tt.args, out.String(), w)
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"eval", "-device", "tpu", "a"}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), `"tpu"): unknown backend (want cpu, ref, cuda or cuda:N)`) {
		t.Errorf("bad device got:%d %q", code, errOut.String())
	}
}
