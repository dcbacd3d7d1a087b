// Tests of the runner with a recording target: buffers allocated when
// they become live and freed after their last use, outputs, errors that
// give everything back, the one bounded cache, its warm index, programs
// released once unused, and no graph node kept alive.

package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"weak"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// fakeTarget records what the runner asks of it; kernels do nothing but
// buffers are real host memory.
type fakeTarget struct {
	mu       sync.Mutex
	prepared int
	released int
	log      []string
	failAt   int // kernel index whose Kernel fails, -1 for none
	live     int // buffers allocated and not yet given back
}

type fakeProg struct {
	t    *fakeTarget
	plan *fuse.Plan
}

func (p *fakeProg) Release() {
	p.t.mu.Lock()
	p.t.released++
	p.t.mu.Unlock()
}

func (t *fakeTarget) Name() string { return "fake" }

func (t *fakeTarget) Prepare(p *fuse.Plan) (Program, error) {
	t.mu.Lock()
	t.prepared++
	t.mu.Unlock()
	return &fakeProg{t: t, plan: p}, nil
}

func (t *fakeTarget) Start(_ context.Context, prog Program, req *exec.Request) (Evaluation, error) {
	p := prog.(*fakeProg)
	return &fakeEval{t: t, plan: p.plan, alloc: req.Alloc, bufs: make([]*memory.Buffer, len(p.plan.Buffers))}, nil
}

func (t *fakeTarget) record(format string, args ...any) {
	t.mu.Lock()
	t.log = append(t.log, fmt.Sprintf(format, args...))
	t.mu.Unlock()
}

type fakeEval struct {
	t     *fakeTarget
	plan  *fuse.Plan
	alloc memory.Allocator
	bufs  []*memory.Buffer
}

func (e *fakeEval) Bind(buf int, _ *exec.Tensor, read bool) error {
	e.t.record("bind %d %v", buf, read)
	return nil
}

func (e *fakeEval) Alloc(buf int) error {
	e.t.record("alloc %d", buf)
	if e.bufs[buf] != nil {
		return fmt.Errorf("buffer %d allocated twice", buf)
	}
	b := memory.NewResizableBuffer(e.alloc)
	b.Resize(int(e.plan.Buffers[buf].Bytes))
	e.bufs[buf] = b
	e.t.mu.Lock()
	e.t.live++
	e.t.mu.Unlock()
	return nil
}

func (e *fakeEval) Kernel(_ context.Context, k int) error {
	e.t.record("kernel %d", k)
	if k == e.t.failAt {
		return errors.New("kernel failed")
	}
	return nil
}

func (e *fakeEval) Free(buf int) {
	e.t.record("free %d", buf)
	if b := e.bufs[buf]; b != nil {
		b.Release()
		e.bufs[buf] = nil
		e.t.mu.Lock()
		e.t.live--
		e.t.mu.Unlock()
	}
}

func (e *fakeEval) Finish() error { e.t.record("finish"); return nil }

func (e *fakeEval) Output(buf int, t *exec.Tensor) error {
	e.bufs[buf].Retain()
	t.Buf = e.bufs[buf]
	return nil
}

func (e *fakeEval) End(failed bool) {
	e.t.record("end %v", failed)
	for i := range e.bufs {
		e.Free(i)
	}
}

// chain returns exp(sum(x*y, axis 1)) + x[:, 0]... as three kernels at
// least: a map, a reduction and a map reading both.
func chain(n int) (out, x, y *graph.Node) {
	x = graph.Input(graph.Float32, graph.Shape{n, 64}, "x")
	y = graph.Input(graph.Float32, graph.Shape{n, 64}, "y")
	s := graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, x, y), []int{1}, false)
	m := graph.Reduce(graph.OpReduceMax, graph.Unary(graph.OpExp, graph.Binary(graph.OpSub, x, graph.Reshape(s, graph.Shape{n, 1}))), []int{1}, false)
	return graph.Binary(graph.OpAdd, s, m), x, y
}

// request returns newRequest's request; the test's cleanup releases its
// tensors.
func request(t *testing.T, mem memory.Allocator, out *graph.Node, ins ...*graph.Node) *exec.Request {
	req, release, err := newRequest(mem, out, ins...)
	require.NoError(t, err)
	t.Cleanup(release)
	return req
}

// newRequest returns a request for out with a new tensor from mem bound
// to each of ins, and the function that releases them; on an error it
// releases what it allocated.
// evalOnce evaluates req on r, requires success and releases the
// results.
func evalOnce(t *testing.T, r *Runner, req *exec.Request) {
	t.Helper()
	res, err := r.Eval(context.Background(), req)
	require.NoError(t, err)
	for _, v := range res {
		v.Release()
	}
}

func newRequest(mem memory.Allocator, out *graph.Node, ins ...*graph.Node) (*exec.Request, func(), error) {
	req := &exec.Request{Outputs: []*graph.Node{out}, Bound: map[*graph.Node]*exec.Tensor{}, Alloc: mem}
	var made []*exec.Tensor // what is released, whatever the test binds instead
	release := func() {
		for _, v := range made {
			v.Release()
		}
	}
	for _, n := range ins {
		v, err := exec.NewTensor(mem, n.DType(), n.Shape())
		if err != nil {
			release()
			return nil, nil, err
		}
		made = append(made, v)
		req.Bound[n] = v
	}
	return req, release, nil
}

// newRunner returns a runner with a cache of size plans over a fake
// target that fails at kernel failAt (-1: never), and a checked allocator
// that must be empty when the test ends.
func newRunner(t *testing.T, failAt, size int) (*Runner, *fakeTarget, *memory.CheckedAllocator) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	ft := &fakeTarget{failAt: failAt}
	return New(ft, size), ft, mem
}

func TestRunnerLiveness(t *testing.T) {
	r, ft, mem := newRunner(t, -1, 4)
	out, x, y := chain(8)
	req := request(t, mem, out, x, y)
	res, err := r.Eval(context.Background(), req)
	require.NoError(t, err)
	require.Len(t, res, 1)
	require.Equal(t, 0, ft.live, "the evaluation holds nothing once it ended")
	in := mem.CurrentAlloc()
	res[0].Release()
	require.Less(t, mem.CurrentAlloc(), in, "the result holds its buffer")

	// The log follows the plan: allocations before the first writer, a
	// temporary freed after its last reader, finish, end.
	p, err := fuse.Build(req.Outputs, map[*graph.Node]graph.Layout{x: req.Bound[x].Layout, y: req.Bound[y].Layout})
	require.NoError(t, err)
	var want []string
	for _, in := range p.Inputs {
		want = append(want, fmt.Sprintf("bind %d %v", in.Buffer, p.Buffers[in.Buffer].First >= 0))
	}
	for ki := range p.Kernels {
		for i, bf := range p.Buffers {
			if bf.Kind != fuse.BufInput && bf.First == ki {
				want = append(want, fmt.Sprintf("alloc %d", i))
			}
		}
		want = append(want, fmt.Sprintf("kernel %d", ki))
		for i, bf := range p.Buffers {
			if bf.Kind == fuse.BufTemp && bf.Last == ki {
				want = append(want, fmt.Sprintf("free %d", i))
			}
		}
	}
	want = append(want, "finish", "end false")
	got := slicesWithout(ft.log, "free ", len(want))
	require.Greater(t, len(p.Kernels), 1, "the chain plans several kernels:\n%s", fuse.Explain(p))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:%v want:%v", got, want)
	}
}

// slicesWithout returns the first n entries of log, leaving out the
// frees End makes of buffers already given back (those come after
// "end").
func slicesWithout(log []string, _ string, n int) []string {
	for i, s := range log {
		if strings.HasPrefix(s, "end ") {
			return log[:i+1]
		}
	}
	return log[:min(n, len(log))]
}

func TestRunnerErrorsGiveBack(t *testing.T) {
	r, ft, mem := newRunner(t, 0, 4)
	out, x, y := chain(8)
	res, err := r.Eval(context.Background(), request(t, mem, out, x, y))
	require.ErrorContains(t, err, "kernel failed")
	require.Nil(t, res)
	require.Equal(t, 0, ft.live)
	require.Contains(t, ft.log, "end true")

	_, err = r.Eval(context.Background(), nil)
	require.ErrorContains(t, err, "fake: Eval of a nil request")
	req := request(t, mem, out, x)
	_, err = r.Eval(context.Background(), req)
	require.ErrorContains(t, err, "no bound value")
	req = request(t, mem, out, x, y)
	req.Bound[y] = &exec.Tensor{Layout: req.Bound[y].Layout}
	_, err = r.Eval(context.Background(), req)
	require.ErrorContains(t, err, "fake: bound value for input")
}

func TestCacheHitsOnNewNodes(t *testing.T) {
	r, ft, mem := newRunner(t, -1, 2)
	eval := func(n int) {
		out, x, y := chain(n)
		evalOnce(t, r, request(t, mem, out, x, y))
	}
	eval(1)
	eval(1) // structurally equal, new nodes: a hit
	require.Equal(t, exec.CacheStats{Hits: 1, Misses: 1, Len: 1}, r.Stats())
	eval(2)
	eval(1) // hit, 1 is now the most recent
	eval(3) // evicts 2
	eval(1) // hit
	eval(2) // miss
	require.Equal(t, exec.CacheStats{Hits: 3, Misses: 4, Len: 2}, r.Stats())
	require.Equal(t, 4, ft.prepared)
	require.Equal(t, 2, ft.released, "programs of evicted plans are released")
	r.Forget()
	require.Equal(t, 4, ft.released)
	require.Equal(t, 0, r.Stats().Len)
}

func TestCacheWarmIndex(t *testing.T) {
	r, _, mem := newRunner(t, -1, 4)
	out, x, y := chain(4)
	req := request(t, mem, out, x, y)
	for range 3 {
		evalOnce(t, r, req)
	}
	require.Equal(t, exec.CacheStats{Hits: 2, Misses: 1, Len: 1}, r.Stats())
	r.cache.mu.Lock()
	require.Len(t, r.cache.warm, 1)
	r.cache.mu.Unlock()
	// Another layout of the same nodes is not the warm entry.
	y2, err := exec.NewTensor(mem, graph.Float32, graph.Shape{64, 4})
	require.NoError(t, err)
	defer y2.Release()
	v := &exec.Tensor{Buf: y2.Buf, Layout: graph.Layout{DType: graph.Float32, Shape: graph.Shape{4, 64}, Strides: []int{1, 4}}}
	res, err := r.Eval(context.Background(), &exec.Request{Outputs: req.Outputs, Alloc: mem,
		Bound: map[*graph.Node]*exec.Tensor{x: req.Bound[x], y: v}})
	require.NoError(t, err)
	res[0].Release()
	require.Equal(t, exec.CacheStats{Hits: 2, Misses: 2, Len: 2}, r.Stats())
}

// TestCacheKeepsNoNodes: once a request is gone its graph is collected,
// though its plan stays cached.
func TestCacheKeepsNoNodes(t *testing.T) {
	r, _, mem := newRunner(t, -1, 4)
	wx := func() weak.Pointer[graph.Node] {
		out, x, y := chain(4)
		req, release, err := newRequest(mem, out, x, y)
		require.NoError(t, err)
		defer release()
		evalOnce(t, r, req)
		return weak.Make(x)
	}()
	for range 5 {
		runtime.GC()
	}
	require.Nil(t, wx.Value(), "the cache keeps the input node alive")
	require.Equal(t, 1, r.Stats().Len)
}

func TestCacheConcurrent(t *testing.T) {
	r, ft, mem := newRunner(t, -1, 4)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				out, x, y := chain(8)
				req, release, err := newRequest(mem, out, x, y)
				if err != nil {
					t.Error(err)
					return
				}
				defer release()
				res, err := r.Eval(context.Background(), req)
				if err != nil {
					t.Error(err)
					return
				}
				res[0].Release()
			}
		})
	}
	wg.Wait()
	st := r.Stats()
	require.Equal(t, int64(160), st.Hits+st.Misses)
	require.Equal(t, 1, st.Len)
	require.Equal(t, 1, ft.prepared, "concurrent misses of one key prepare once")
}

// TestRunnerOutputLayouts checks that each result carries its plan
// output's layout as its own copy: one output of small rank (made in one
// allocation with its layout), several outputs, ranks 0 and above the
// inline bound, an input returned as is and a permuted view of it.
func TestRunnerOutputLayouts(t *testing.T) {
	mem, g := layoutSetup(t)
	x, sum, exp, exp5, perm := g.x, g.sum, g.exp, g.exp5, g.perm
	for _, tc := range []struct {
		name string
		outs []*graph.Node
	}{
		{"one", []*graph.Node{exp}},
		{"rank 0", []*graph.Node{sum}},
		{"rank 5", []*graph.Node{exp5}},
		{"input", []*graph.Node{x}},
		{"permuted input", []*graph.Node{perm}},
		{"several", []*graph.Node{exp, sum, perm, exp5, x}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New(&fakeTarget{failAt: -1}, 4)
			req, p := g.request(t, mem, tc.outs)
			for round := range 2 {
				res, err := r.Eval(context.Background(), req)
				require.NoError(t, err)
				require.Len(t, res, len(tc.outs))
				for i, v := range res {
					checkOutput(t, round, i, v, p.Outputs[i].Layout)
					// The layout is the caller's: changing it touches
					// nothing else.
					if len(v.Shape) > 0 {
						v.Shape[0] = -1
					}
				}
				for _, v := range res {
					v.Release()
				}
			}
		})
	}
}

// layoutGraph is the graph of the output layout tests: inputs of ranks
// 2 and 5, and outputs of ranks 0 to 5 among which an input and a
// permuted view of it.
type layoutGraph struct{ x, x5, sum, exp, exp5, perm *graph.Node }

// layoutSetup returns a checked allocator that must end at zero bytes
// and a new layoutGraph.
func layoutSetup(t *testing.T) (*memory.CheckedAllocator, *layoutGraph) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	x := graph.Input(graph.Float32, graph.Shape{2, 3}, "x")
	x5 := graph.Input(graph.Float32, graph.Shape{2, 1, 3, 1, 2}, "x5")
	return mem, &layoutGraph{x: x, x5: x5, sum: graph.Reduce(graph.OpSum, x, nil, false),
		exp: graph.Unary(graph.OpExp, x), exp5: graph.Unary(graph.OpExp, x5), perm: graph.Permute(x, []int{1, 0})}
}

// request returns a request for outs with both inputs bound, and the plan
// the runner makes of it.
func (g *layoutGraph) request(t *testing.T, mem memory.Allocator, outs []*graph.Node) (*exec.Request, *fuse.Plan) {
	req := request(t, mem, outs[0], g.x, g.x5)
	req.Outputs = outs
	layouts := map[*graph.Node]graph.Layout{}
	for n, v := range req.Bound {
		layouts[n] = v.Layout
	}
	p, err := fuse.Build(req.Outputs, layouts)
	require.NoError(t, err)
	return req, p
}

// checkOutput checks output i of an evaluation (in round round): the
// layout want with a buffer, and strides that appending to the shape
// leaves alone.
func checkOutput(t *testing.T, round, i int, v *exec.Tensor, want graph.Layout) {
	t.Helper()
	if !v.Layout.Equal(want) || len(v.Shape) != len(want.Shape) || len(v.Strides) != len(want.Strides) {
		t.Errorf("round %d output %d: got:%+v want:%+v", round, i, v.Layout, want)
	}
	if v.Buf == nil {
		t.Errorf("round %d output %d: no buffer", round, i)
	}
	strides := slices.Clone(v.Strides)
	_ = append(v.Shape, 99)
	if !slices.Equal(v.Strides, strides) {
		t.Errorf("round %d output %d: appending to the shape changed the strides got:%v want:%v", round, i, v.Strides, strides)
	}
}

// TestCacheWarmIndexOutputs: the warm entry of a request serves only the
// very same outputs; another second output, a missing one or a nil one
// take the keyed path (and a nil output is an error, not a panic).
func TestCacheWarmIndexOutputs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	r := New(&fakeTarget{failAt: -1}, 8)
	x := graph.Input(graph.Float32, graph.Shape{4, 64}, "x")
	a := graph.Unary(graph.OpExp, x)
	b := graph.Unary(graph.OpNeg, x)
	c := graph.Reduce(graph.OpSum, x, []int{1}, false)
	req := request(t, mem, a, x)
	for _, tc := range []struct {
		name   string
		outs   []*graph.Node
		shapes []graph.Shape
	}{
		{"a b", []*graph.Node{a, b}, []graph.Shape{{4, 64}, {4, 64}}},
		{"a b again", []*graph.Node{a, b}, []graph.Shape{{4, 64}, {4, 64}}},
		{"a c", []*graph.Node{a, c}, []graph.Shape{{4, 64}, {4}}},
		{"a", []*graph.Node{a}, []graph.Shape{{4, 64}}},
		{"a c again", []*graph.Node{a, c}, []graph.Shape{{4, 64}, {4}}},
	} {
		res, err := r.Eval(context.Background(), &exec.Request{Outputs: tc.outs, Bound: req.Bound, Alloc: mem})
		require.NoError(t, err, tc.name)
		require.Len(t, res, len(tc.shapes), tc.name)
		for i, v := range res {
			if !v.Shape.Equal(tc.shapes[i]) {
				t.Errorf("%s: output %d shape got:%v want:%v", tc.name, i, v.Shape, tc.shapes[i])
			}
			v.Release()
		}
	}
	_, err := r.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{a, nil}, Bound: req.Bound, Alloc: mem})
	require.Error(t, err)
	_, err = r.Eval(context.Background(), &exec.Request{Outputs: []*graph.Node{nil}, Bound: req.Bound, Alloc: mem})
	require.Error(t, err)
}
