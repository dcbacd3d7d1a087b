// Tests of Call nodes: one node per written argument with its input's
// shape and dtype, interning by the call's attributes (the kernel by
// identity), Verify, and malformed calls.

package graph

import (
	"strings"
	"testing"
)

type testCallee struct{ name string }

func (c *testCallee) Name() string { return c.name }

type valueCallee struct{}

func (valueCallee) Name() string { return "value" }

func saxpyAttr(k Callee, a any) *CallAttr {
	return &CallAttr{Kernel: k, Args: []CallArg{{Name: "a", Input: -1, Value: a}, {Name: "x", Input: 0}, {Name: "y", Input: 1, Written: true}},
		ForAll: true, Tasks: 12}
}

func TestCallNodes(t *testing.T) {
	k := &testCallee{"Saxpy"}
	x := Input(Float32, Shape{3, 4}, "x")
	y := Input(Float32, Shape{12}, "y")
	out := Call(saxpyAttr(k, float32(2)), []*Node{x, y})
	if len(out) != 1 || out[0].Err() != nil {
		t.Fatalf("got:%v want one node without error", out)
	}
	n := out[0]
	if n.Op() != OpCall || n.DType() != Float32 || !n.Shape().Equal(Shape{12}) || n.Attr().Output != 0 {
		t.Fatalf("got:%v %v %v out %d want:Call (12) float32 out 0", n.Op(), n.Shape(), n.DType(), n.Attr().Output)
	}
	if err := Verify(n); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	for _, c := range []struct {
		name string
		attr *CallAttr
		same bool
	}{
		{"same call", saxpyAttr(k, float32(2)), true},
		{"other scalar", saxpyAttr(k, float32(3)), false},
		{"other scalar type", saxpyAttr(k, 2.0), false},
		{"other kernel of the same name", saxpyAttr(&testCallee{"Saxpy"}, float32(2)), false},
		{"other geometry", &CallAttr{Kernel: k, Args: saxpyAttr(k, float32(2)).Args, Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}}, false},
	} {
		m := Call(c.attr, []*Node{x, y})[0]
		if got := m == n; got != c.same {
			t.Errorf("%s: same node got:%v want:%v", c.name, got, c.same)
		}
		if got := m.CallKey() == n.CallKey(); got != c.same {
			t.Errorf("%s: same CallKey got:%v want:%v", c.name, got, c.same)
		}
	}
}

func TestCallTwoOutputs(t *testing.T) {
	k := &testCallee{"Bounds"}
	x := Input(Float64, Shape{6}, "x")
	lo := Input(Float64, Shape{2, 3}, "lo")
	hi := Input(Int64, Shape{6}, "hi")
	attr := &CallAttr{Kernel: k, Args: []CallArg{{Name: "x", Input: 0}, {Name: "lo", Input: 1, Written: true}, {Name: "hi", Input: 2, Written: true}}}
	out := Call(attr, []*Node{x, lo, hi})
	if len(out) != 2 {
		t.Fatalf("got:%d outputs want:2", len(out))
	}
	if !out[0].Shape().Equal(Shape{2, 3}) || out[1].DType() != Int64 || out[1].Attr().Output != 1 {
		t.Fatalf("got:%v %v, %v %v want:(2, 3) float64, (6) int64", out[0].Shape(), out[0].DType(), out[1].Shape(), out[1].DType())
	}
	if out[0] == out[1] || out[0].CallKey() != out[1].CallKey() {
		t.Fatalf("outputs of one call: distinct nodes with one CallKey")
	}
	if err := Verify(out...); err != nil {
		t.Fatalf("Verify: %v", err)
	}
}

func TestCallErrors(t *testing.T) {
	k := &testCallee{"K"}
	x := Input(Float32, Shape{4}, "x")
	bad := Unary(OpSqrt, Input(Bool, Shape{2}, "b"))
	for _, c := range []struct {
		name string
		attr *CallAttr
		in   []*Node
		want string
	}{
		{"nil", nil, []*Node{x}, "no kernel"},
		{"not a pointer", &CallAttr{Kernel: valueCallee{}, Args: []CallArg{{Name: "y", Input: 0, Written: true}}}, []*Node{x}, "not a non-nil pointer"},
		{"written scalar", &CallAttr{Kernel: k, Args: []CallArg{{Name: "a", Input: -1, Value: 1, Written: true}}}, nil, "parameter a: a scalar cannot be written"},
		{"scalar type", &CallAttr{Kernel: k, Args: []CallArg{{Name: "a", Input: -1, Value: "s"}, {Name: "y", Input: 0, Written: true}}}, []*Node{x}, "parameter a: scalar s of type string"},
		{"input range", &CallAttr{Kernel: k, Args: []CallArg{{Name: "y", Input: 1, Written: true}}}, []*Node{x}, "input 1 of 1"},
		{"input twice", &CallAttr{Kernel: k, Args: []CallArg{{Name: "x", Input: 0}, {Name: "y", Input: 0, Written: true}}}, []*Node{x}, "given to two parameters"},
		{"input unused", &CallAttr{Kernel: k, Args: []CallArg{{Name: "y", Input: 0, Written: true}}}, []*Node{x, x}, "input 1 is no parameter's argument"},
		{"nothing written", &CallAttr{Kernel: k, Args: []CallArg{{Name: "x", Input: 0}}}, []*Node{x}, "writes none"},
		{"geometry", &CallAttr{Kernel: k, Args: []CallArg{{Name: "y", Input: 0, Written: true}}, Block: [3]int{-1, 1, 1}}, []*Node{x}, "negative dimension"},
		{"forall with grid", &CallAttr{Kernel: k, Args: []CallArg{{Name: "y", Input: 0, Written: true}}, ForAll: true, Grid: [3]int{2, 1, 1}}, []*Node{x}, "ForAll with a grid"},
		{"operand error", &CallAttr{Kernel: k, Args: []CallArg{{Name: "y", Input: 0, Written: true}}}, []*Node{bad}, "Sqrt"},
	} {
		out := Call(c.attr, c.in)
		if len(out) == 0 {
			t.Fatalf("%s: no nodes", c.name)
		}
		for _, n := range out {
			if n.Err() == nil || !strings.Contains(n.Err().Error(), c.want) {
				t.Errorf("%s: got:%v want:%q", c.name, n.Err(), c.want)
			}
		}
	}
}
