// Test helpers: tensors from Go slices, evaluation with a checked
// allocator that must end at zero, and comparison of results.

package ref_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/fmath"
)

// env binds inputs and evaluates graphs; at cleanup it releases every
// tensor it handed out and asserts that the allocator is back to zero.
type env struct {
	t     testing.TB
	alloc *memory.CheckedAllocator
	bound map[*graph.Node]*exec.Tensor
	owned []*exec.Tensor
}

// checkedAlloc returns a new allocator that counts the bytes in use.
func checkedAlloc() *memory.CheckedAllocator {
	return memory.NewCheckedAllocator(memory.NewGoAllocator())
}

// evalReq evaluates req on a new reference evaluator.
func evalReq(req *exec.Request) ([]*exec.Tensor, error) {
	return ref.New().Eval(context.Background(), req)
}

func newEnv(t testing.TB) *env {
	e := &env{t: t, alloc: checkedAlloc(), bound: map[*graph.Node]*exec.Tensor{}}
	t.Cleanup(func() {
		for _, x := range e.owned {
			x.Release()
		}
		e.alloc.AssertSize(t, 0)
	})
	return e
}

// tensor returns a contiguous tensor of dtype d and shape s holding data
// ([]bool, []int32, []int64, []float32 or []float64; converted to d).
func (e *env) tensor(d graph.DType, s graph.Shape, data any) *exec.Tensor {
	x, err := exec.NewTensor(e.alloc, d, s)
	require.NoError(e.t, err)
	e.owned = append(e.owned, x)
	fill(x, data)
	return x
}

// raw returns a tensor over a buffer of the given contiguous data with an
// arbitrary layout.
func (e *env) raw(d graph.DType, data any, s graph.Shape, strides []int, offset int) *exec.Tensor {
	x := e.tensor(d, graph.Shape{len(scalars(data))}, data)
	v := x.View(s, strides, offset)
	e.owned = append(e.owned, v)
	return v
}

// input returns a new Input leaf bound to a contiguous tensor of data.
func (e *env) input(d graph.DType, s graph.Shape, data any) *graph.Node {
	n := graph.Input(d, s, fmt.Sprintf("x%d", len(e.bound)))
	e.bound[n] = e.tensor(d, s, data)
	return n
}

// bind returns a new Input leaf bound to x.
func (e *env) bind(x *exec.Tensor) *graph.Node {
	n := graph.Input(x.DType, x.Shape, fmt.Sprintf("x%d", len(e.bound)))
	e.bound[n] = x
	return n
}

// evalErr evaluates outs with the env's bindings.
func (e *env) evalErr(ctx context.Context, outs ...*graph.Node) ([]*exec.Tensor, error) {
	res, err := ref.New().Eval(ctx, &exec.Request{Outputs: outs, Bound: e.bound, Alloc: e.alloc})
	e.owned = append(e.owned, res...)
	return res, err
}

// eval evaluates outs and requires success.
func (e *env) eval(outs ...*graph.Node) []*exec.Tensor {
	res, err := e.evalErr(context.Background(), outs...)
	require.NoError(e.t, err)
	require.Len(e.t, res, len(outs))
	return res
}

// one evaluates n alone.
func (e *env) one(n *graph.Node) *exec.Tensor { return e.eval(n)[0] }

// scalars returns data ([]bool, []int32, []int64, []float32 or
// []float64) as scalars of the dtype its element type maps to.
func scalars(data any) []graph.Scalar {
	switch v := data.(type) {
	case []bool:
		out := make([]graph.Scalar, len(v))
		for i, b := range v {
			out[i] = graph.ScalarInt(graph.Bool, fmath.FromBool[int64](b))
		}
		return out
	case []int32:
		return scalarsOf(graph.Int32, v)
	case []int64:
		return scalarsOf(graph.Int64, v)
	case []float32:
		return scalarsOf(graph.Float32, v)
	case []float64:
		return scalarsOf(graph.Float64, v)
	}
	panic(fmt.Sprintf("unsupported data %T", data))
}

// scalarsOf returns v as scalars of dtype d.
func scalarsOf[T int32 | int64 | float32 | float64](d graph.DType, v []T) []graph.Scalar {
	out := make([]graph.Scalar, len(v))
	for i, x := range v {
		if d.IsFloat() {
			out[i] = graph.ScalarOf(d, float64(x))
		} else {
			out[i] = graph.ScalarInt(d, int64(x))
		}
	}
	return out
}

// fill writes data into x, converting each value to x's dtype.
func fill(x *exec.Tensor, data any) {
	s := scalars(data)
	if len(s) != x.Size() {
		panic(fmt.Sprintf("%d values for shape %v", len(s), x.Shape))
	}
	for k, v := range s {
		exec.PutScalar(x, k, v)
	}
}

// values reads x in row-major order through its strides: []bool,
// []int64 (for both integer dtypes) or []float64 (for both floats).
func values(x *exec.Tensor) any {
	n := x.Size()
	idx := make([]int, len(x.Shape))
	var bs []bool
	var is []int64
	var fs []float64
	for range n {
		o := x.Index(idx)
		switch x.DType {
		case graph.Bool:
			bs = append(bs, exec.Elems[uint8](x)[o] != 0)
		case graph.Int32:
			is = append(is, int64(exec.Elems[int32](x)[o]))
		case graph.Int64:
			is = append(is, exec.Elems[int64](x)[o])
		case graph.Float32:
			fs = append(fs, float64(exec.Elems[float32](x)[o]))
		case graph.Float64:
			fs = append(fs, exec.Elems[float64](x)[o])
		}
		for ax := len(idx) - 1; ax >= 0; ax-- {
			idx[ax]++
			if idx[ax] < x.Shape[ax] {
				break
			}
			idx[ax] = 0
		}
	}
	switch x.DType {
	case graph.Bool:
		return append([]bool{}, bs...)
	case graph.Int32, graph.Int64:
		return append([]int64{}, is...)
	}
	return append([]float64{}, fs...)
}

// same compares values with NaN equal to NaN and -0 distinct from +0.
func same(got, want any) bool {
	g, ok1 := got.([]float64)
	w, ok2 := want.([]float64)
	if !ok1 || !ok2 {
		return fmt.Sprint(got) == fmt.Sprint(want)
	}
	if len(g) != len(w) {
		return false
	}
	for k := range g {
		if math.Float64bits(g[k]) != math.Float64bits(w[k]) && !(g[k] != g[k] && w[k] != w[k]) {
			return false
		}
	}
	return true
}

// check asserts x's dtype, shape and values (want as values returns them).
func check(t testing.TB, x *exec.Tensor, d graph.DType, s graph.Shape, want any) {
	t.Helper()
	if x.DType != d || !x.Shape.Equal(s) {
		t.Fatalf("got:%v %v want:%v %v", x.Shape, x.DType, s, d)
	}
	if got := values(x); !same(got, want) {
		t.Fatalf("got:%v want:%v", got, want)
	}
}

var nan = math.NaN()
var inf = math.Inf(1)
