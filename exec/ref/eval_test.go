// Evaluation: bindings, bound outputs and intermediates, sticky and
// binding errors, cancellation, early release of intermediates, leaks,
// several outputs and concurrent use.

package ref_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

func TestName(t *testing.T) {
	var b exec.Backend = ref.New()
	require.Equal(t, "ref", b.Name())
}

func TestBoundOutputIsRetainedView(t *testing.T) {
	alloc := checkedAlloc()
	defer alloc.AssertSize(t, 0)
	x, err := exec.NewTensor(alloc, graph.Float64, graph.Shape{4})
	require.NoError(t, err)
	copy(exec.Elems[float64](x), []float64{1, 2, 3, 4})
	v := x.View(graph.Shape{2}, []int{2}, 1)
	x.Release()
	n := graph.Input(graph.Float64, graph.Shape{2}, "v")
	res, err := evalReq(&exec.Request{Outputs: []*graph.Node{n}, Bound: map[*graph.Node]*exec.Tensor{n: v}, Alloc: alloc})
	require.NoError(t, err)
	require.Same(t, v.Buf, res[0].Buf)
	require.Equal(t, []int{2}, res[0].Strides)
	require.Equal(t, 1, res[0].Offset)
	v.Release()
	// The result still holds the buffer.
	require.NotZero(t, alloc.CurrentAlloc())
	check(t, res[0], graph.Float64, graph.Shape{2}, []float64{2, 4})
	res[0].Release()
}

func TestBoundIntermediateIsNotRecomputed(t *testing.T) {
	e := newEnv(t)
	x := graph.Input(graph.Float64, graph.Shape{2}, "never bound")
	y := graph.Unary(graph.OpExp, x)
	e.bound[y] = e.tensor(graph.Float64, graph.Shape{2}, []float64{10, 20})
	out := graph.BinaryWeak(graph.OpAdd, y, graph.Weak{Kind: graph.KindInt, Int: 1}, false)
	check(t, e.one(out), graph.Float64, graph.Shape{2}, []float64{11, 21})
}

func TestSeveralOutputs(t *testing.T) {
	e := newEnv(t)
	x := e.input(graph.Int64, graph.Shape{3}, []int64{1, 2, 3})
	y := graph.Binary(graph.OpMul, x, x)
	z := graph.Reduce(graph.OpSum, y, nil, false)
	res := e.eval(y, z, y, x)
	check(t, res[0], graph.Int64, graph.Shape{3}, []int64{1, 4, 9})
	check(t, res[1], graph.Int64, graph.Shape{}, []int64{14})
	check(t, res[2], graph.Int64, graph.Shape{3}, []int64{1, 4, 9})
	check(t, res[3], graph.Int64, graph.Shape{3}, []int64{1, 2, 3})
	require.NotSame(t, res[0], res[2])
	require.Empty(t, e.eval())
}

func TestErrors(t *testing.T) {
	e := newEnv(t)
	x := e.input(graph.Float32, graph.Shape{2, 3}, []float32{1, 2, 3, 4, 5, 6})
	bad := graph.Reshape(x, graph.Shape{4})
	unbound := graph.Input(graph.Float32, graph.Shape{2, 3}, "later")
	// The Exp is computed before the unbound input is reached.
	midway := graph.Binary(graph.OpAdd, graph.Unary(graph.OpExp, graph.Iota(graph.Float32, 3, 0, 1, false, 0)), unbound)
	wrongDType := graph.Input(graph.Float64, graph.Shape{2, 3}, "w")
	e.bound[wrongDType] = e.bound[x]
	outside := e.bind(e.raw(graph.Int32, []int32{1, 2, 3}, graph.Shape{2, 2}, []int{1, 2}, 0))
	negative := e.bind(e.raw(graph.Int32, []int32{1, 2, 3}, graph.Shape{2}, []int{-1}, 0))
	released := e.bind(e.raw(graph.Int64, []int64{1}, graph.Shape{1}, []int{1}, 0))
	e.bound[released].Release()
	rank := e.bind(e.raw(graph.Int64, []int64{1}, graph.Shape{1}, []int{1}, 0))
	e.bound[rank].Strides = nil
	missing := graph.Input(graph.Int64, graph.Shape{1}, "nil")
	e.bound[missing] = nil
	tests := []struct {
		name string
		out  *graph.Node
		want []string
	}{
		{"sticky", bad, []string{"Reshape", "(2, 3) float32", "cannot reshape array of size 6 into shape (4,)"}},
		{"sticky-downstream", graph.Unary(graph.OpNeg, bad), []string{"Reshape", "(4,)"}},
		{"unbound", midway, []string{"Input (2, 3) float32", `"later"`, "not bound"}},
		{"dtype", wrongDType, []string{"Input (2, 3) float64", "bound tensor is (2, 3) float32"}},
		{"outside", graph.Unary(graph.OpNeg, outside), []string{"Input (2, 2) int32", "elements 0 to 3 of a buffer of 3"}},
		{"negative", negative, []string{"elements -1 to 0"}},
		{"released", released, []string{"Input (1,) int64", "nil or released"}},
		{"nil", missing, []string{"nil or released"}},
		{"rank", graph.Unary(graph.OpAbs, rank), []string{"0 strides for rank 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.evalErr(context.Background(), tc.out)
			require.Error(t, err)
			require.Nil(t, res)
			for _, w := range tc.want {
				require.Contains(t, err.Error(), w)
			}
		})
	}
	_, err := e.evalErr(context.Background(), bad)
	require.Equal(t, bad.Err(), err, "a sticky error comes back as it is")
	_, err = evalReq(nil)
	require.Error(t, err)
}

// countCtx reports cancellation from its nth Err call on.
type countCtx struct {
	context.Context
	calls, n int
}

func (c *countCtx) Err() error {
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

func TestCancellation(t *testing.T) {
	e := newEnv(t)
	x := e.input(graph.Float64, graph.Shape{100}, make([]float64, 100))
	y := x
	for range 5 {
		y = graph.Unary(graph.OpExp, y)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.evalErr(ctx, y)
	require.ErrorIs(t, err, context.Canceled)
	for n := 1; n <= 6; n++ {
		res, err := e.evalErr(&countCtx{Context: context.Background(), n: n}, y)
		require.ErrorIs(t, err, context.Canceled, "cancel at node %d", n)
		require.Nil(t, res)
	}
	res, err := e.evalErr(&countCtx{Context: context.Background(), n: 7}, y)
	require.NoError(t, err)
	require.Len(t, res, 1)
}

// peakAllocator tracks the most bytes live at once.
type peakAllocator struct {
	memory.Allocator
	live, peak atomic.Int64
}

func (p *peakAllocator) Allocate(n int) []byte {
	if v := p.live.Add(int64(n)); v > p.peak.Load() {
		p.peak.Store(v)
	}
	return p.Allocator.Allocate(n)
}

func (p *peakAllocator) Free(b []byte) {
	p.live.Add(-int64(cap(b)))
	p.Allocator.Free(b)
}

func TestIntermediatesReleasedEarly(t *testing.T) {
	checked := checkedAlloc()
	defer checked.AssertSize(t, 0)
	alloc := &peakAllocator{Allocator: checked}
	const n = 1024
	y := graph.Iota(graph.Float64, n, 0, 1, false, 0)
	for range 20 {
		y = graph.Unary(graph.OpSin, y)
	}
	res, err := evalReq(&exec.Request{Outputs: []*graph.Node{y}, Alloc: alloc})
	require.NoError(t, err)
	// At most an input and an output of 8 KiB each are alive at a time.
	if got := alloc.peak.Load(); got > 2*8*n {
		t.Fatalf("got:%d bytes at peak want:<= %d", got, 2*8*n)
	}
	res[0].Release()
}

func TestLeakCheck(t *testing.T) {
	alloc := checkedAlloc()
	x, err := exec.NewTensor(alloc, graph.Float32, graph.Shape{4, 3})
	require.NoError(t, err)
	in := graph.Input(graph.Float32, graph.Shape{4, 3}, "x")
	t1 := graph.Permute(in, []int{1, 0})
	t2 := graph.Binary(graph.OpMul, t1, graph.Random(graph.OpRandN, graph.Float32, graph.Shape{3, 4}, 7))
	outs := []*graph.Node{
		graph.Reduce(graph.OpSum, t2, []int{0}, false),
		graph.MatMul(t1, in),
		graph.Concat([]*graph.Node{t2, t1}, 0),
		graph.Reduce(graph.OpArgMax, t2, nil, false),
		in,
	}
	res, err := evalReq(&exec.Request{Outputs: outs, Bound: map[*graph.Node]*exec.Tensor{in: x}, Alloc: alloc})
	require.NoError(t, err)
	x.Release()
	for _, r := range res {
		r.Release()
	}
	alloc.AssertSize(t, 0)
}

func TestDefaultAllocatorAndConcurrency(t *testing.T) {
	x := graph.Iota(graph.Int64, 50, 0, 1, false, 0)
	sum := graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, x), nil, false)
	ev := ref.New()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			res, err := ev.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{sum}})
			if err != nil {
				errs <- err
				return
			}
			defer res[0].Release()
			if got := values(res[0]).([]int64)[0]; got != 40425 {
				errs <- fmt.Errorf("got:%d want:40425", got)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
