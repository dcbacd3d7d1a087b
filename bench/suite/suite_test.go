package suite

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

var update = flag.Bool("update", false, "rewrite bench/workloads.txt from Workloads")

const listPath = "../workloads.txt"

// TestFileCurrent checks that bench/workloads.txt is what Workloads
// writes (run with -update to rewrite it).
func TestFileCurrent(t *testing.T) {
	var buf bytes.Buffer
	if err := Format(&buf, Workloads()); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(listPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(listPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Fatalf("%s differs from Workloads(): run go test ./bench/suite -update", listPath)
	}
}

// TestRoundTrip checks that Parse reads back what Format writes.
func TestRoundTrip(t *testing.T) {
	ws := Workloads()
	var buf bytes.Buffer
	if err := Format(&buf, ws); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, ws) {
		t.Fatalf("got:%v\nwant:%v", got, ws)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"a | x=f32[4](0,1)", "name | inputs | expression"},
		{"a b | x=f32[4](0,1) | exp(x)", "bad workload name"},
		{"a | x=f16[4](0,1) | exp(x)", "unknown dtype"},
		{"a | x=f32[4,0](0,1) | exp(x)", "bad input"},
		{"a | x=f32[4](0) | exp(x)", "bad input"},
		{"a | x=f32[4](0,1) | exp(x", "unclosed call"},
		{"a | x=f32[4](0,1) | exp(x) y", "unexpected"},
		{"a | x=f32[4](0,1) | exp(x); x", "want \"name = expr\""},
		{"a | x=f32[4](0,1) | exp(x)\na | x=f32[4](0,1) | exp(x)", "listed twice"},
	} {
		_, err := Parse(strings.NewReader(tc.line))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got:%v want:%s", tc.line, err, tc.want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{})))
	x := c.Zeros(graph.Float32, 4, 4)
	for _, tc := range []struct{ expr, want string }{
		{"nosuch(x)", "unknown function"},
		{"exp(y)", "unknown name"},
		{"add(1, x)", "first operand must be an array"},
		{"add(x)", "takes 2 operands"},
		{"exp(x, 1)", "takes 0 integer arguments"},
		{"sum(x, 0.5)", "must be an integer"},
		{"step(x, 0)", "takes 2 integer arguments"},
		{"rev(x, -1)", "must be given as 0 or more"},
		{"add(x, T(add(x, x)))", ""},
		{"matmul(x, zeros)", "unknown name"},
		{"sum(x, 5)", "axis"},
		{"1", "a number"},
	} {
		stmts, err := ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Build(stmts, map[string]*array.Array{"x": x})
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: got:%v want:no error", tc.expr, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got:%v want:%s", tc.expr, err, tc.want)
		}
	}
}

// TestWorkloadsBuild builds every workload over lazy inputs of its full
// shapes (nothing is allocated), then evaluates it on the CPU executor
// with every dimension divided by 256, so that the benchmark and the
// peer script never meet an expression that does not run.
func TestWorkloadsBuild(t *testing.T) {
	ws, err := Load(listPath)
	if err != nil {
		t.Fatal(err)
	}
	requireRuns(t, ws)
	if len(ws) < 200 {
		t.Errorf("got:%d workloads want:at least 200", len(ws))
	}
}

// requireRuns builds each of ws over lazy inputs of its full shapes,
// then evaluates it on the CPU executor with every dimension divided by
// 256 (rounded up).
func requireRuns(t *testing.T, ws []Workload) {
	t.Helper()
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{})))
	for _, w := range ws {
		stmts, err := ParseExpr(w.Expr)
		if err != nil {
			t.Fatal(err)
		}
		env := map[string]*array.Array{}
		for _, in := range w.Inputs {
			env[in.Name] = c.Zeros(in.DType, in.Shape...)
		}
		if _, err := Build(stmts, env); err != nil {
			t.Errorf("%s: full size: %v", w.Name, err)
			continue
		}
		for _, in := range w.Inputs {
			small := in
			small.Shape = make([]int, len(in.Shape))
			for i, d := range in.Shape {
				small.Shape[i] = (d + 255) / 256
			}
			if strings.HasPrefix(w.Name, "take") && in.Name == "i" {
				// Indices into the scaled-down axis.
				small.Lo, small.Hi = in.Lo/256, in.Hi/256
			}
			a, err := NewArray(c, small)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Release()
			env[in.Name] = a
		}
		out, err := Build(stmts, env)
		if err == nil {
			err = out.Eval()
		}
		if err != nil {
			t.Errorf("%s (%s): scaled down: %v", w.Name, w.Expr, err)
			continue
		}
		out.Release()
	}
}

// TestDataDeterministic checks that inputs are drawn from their seed, in
// range, and that two names give different data.
func TestDataDeterministic(t *testing.T) {
	a := Input{Name: "a", DType: graph.Float32, Shape: []int{64}, Lo: -2, Hi: 3}
	b := a
	b.Name = "b"
	da, db := a.Data().([]float32), b.Data().([]float32)
	if !reflect.DeepEqual(da, a.Data()) {
		t.Fatal("two draws of one input differ")
	}
	if reflect.DeepEqual(da, db) {
		t.Fatal("inputs a and b have the same data")
	}
	for _, v := range da {
		if v < -2 || v >= 3 {
			t.Fatalf("got:%v want:in [-2, 3)", v)
		}
	}
	i := Input{Name: "i", DType: graph.Int32, Shape: []int{64}, Lo: 1, Hi: 4}
	for _, v := range i.Data().([]int32) {
		if v < 1 || v > 3 {
			t.Fatalf("got:%v want:in [1, 3]", v)
		}
	}
}
