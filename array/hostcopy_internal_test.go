// Host copies of device results hold no lock of the Context: a stub
// device backend whose ToHost waits until the test lets it go shows that
// evaluations, reads and releases on the Context proceed while a copy
// runs, that readers of the same result share one copy, and that a
// cancelled copy or wait returns ctx.Err().

package array

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// devBuf is a stub device buffer: host memory reachable only through
// the backend.
type devBuf struct{ buf *memory.Buffer }

func (d *devBuf) Retain()        { d.buf.Retain() }
func (d *devBuf) Release()       { d.buf.Release() }
func (d *devBuf) Len() int       { return d.buf.Len() }
func (d *devBuf) Device() string { return "gated" }

// gatedDevice evaluates with the reference evaluator and keeps its
// results "on the device". ToHost announces itself on started, then
// waits for a token on gate or for its ctx.
type gatedDevice struct {
	started chan struct{}
	gate    chan struct{}
	copies  atomic.Int64
}

func newGatedDevice() *gatedDevice {
	return &gatedDevice{started: make(chan struct{}, 16), gate: make(chan struct{})}
}

func (g *gatedDevice) Name() string { return "gated" }

func (g *gatedDevice) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	bound := map[*graph.Node]*exec.Tensor{}
	for n, t := range req.Bound {
		if t.OnDevice() {
			h := &exec.Tensor{Buf: t.Dev.(*devBuf).buf, Layout: t.Layout}
			t = h.View(h.Shape, h.Strides, h.Offset)
			defer t.Release()
		}
		bound[n] = t
	}
	ts, err := ref.New().Eval(ctx, &exec.Request{Outputs: req.Outputs, Bound: bound, Alloc: req.Alloc})
	for _, t := range ts {
		t.Dev, t.Buf = &devBuf{t.Buf}, nil
	}
	return ts, err
}

func (g *gatedDevice) ToHost(ctx context.Context, t *exec.Tensor, alloc memory.Allocator) (*exec.Tensor, error) {
	g.copies.Add(1)
	g.started <- struct{}{}
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	src := &exec.Tensor{Buf: t.Dev.(*devBuf).buf, Layout: t.Layout}
	h, err := exec.NewTensor(alloc, t.DType, t.Shape)
	if err != nil {
		return nil, err
	}
	copyRowMajor(h.Bytes(), src)
	return h, nil
}

// gatedContext returns a Context on a new gatedDevice over a checked
// allocator, x = [1 2 3 4] and y = 2*x evaluated (on the device). At the
// end it lets every copy through, releases x and y and checks that no
// byte is left.
func gatedContext(t *testing.T) (*Context, *gatedDevice, *Array, *Array) {
	g := newGatedDevice()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	c, err := NewContext(WithBackend(g), WithAllocator(mem))
	require.NoError(t, err)
	x := FromSlice(c, []float64{1, 2, 3, 4}, 4)
	y := x.Mul(2)
	require.NoError(t, y.Eval())
	require.Zero(t, g.copies.Load())
	t.Cleanup(func() {
		close(g.gate)
		x.Release()
		y.Release()
		mem.AssertSize(t, 0)
	})
	return c, g, x, y
}

// read reads a's elements in a goroutine and returns where the result
// will come.
func read(a *Array) chan []float64 {
	out := make(chan []float64, 1)
	go func() {
		s, err := ToSlice[float64](a)
		if err != nil {
			s = nil
		}
		out <- s
	}()
	return out
}

func TestCopyHoldsNoLock(t *testing.T) {
	c, g, x, y := gatedContext(t)
	got := read(y)
	<-g.started // the copy is running
	require.True(t, c.mu.TryLock(), "the Context's mutex is held while a copy runs")
	c.mu.Unlock()
	// Evaluations, reads of host results and releases on the Context go
	// on meanwhile.
	z := x.Add(1)
	require.NoError(t, z.Eval())
	s, d := x.Sum(), x.Sub(1)
	require.NoError(t, Eval(context.Background(), s, d))
	xs, err := ToSlice[float64](x)
	require.NoError(t, err)
	require.Equal(t, []float64{1, 2, 3, 4}, xs)
	require.True(t, y.Evaluated())
	for _, a := range []*Array{z, s, d} {
		a.Release()
	}
	g.gate <- struct{}{}
	require.Equal(t, []float64{2, 4, 6, 8}, <-got)
	// The copy is kept: reading again copies nothing.
	ys, err := ToSlice[float64](y)
	require.NoError(t, err)
	require.Equal(t, []float64{2, 4, 6, 8}, ys)
	require.EqualValues(t, 1, g.copies.Load())
}

func TestReadersShareOneCopy(t *testing.T) {
	_, g, _, y := gatedContext(t)
	first := read(y)
	<-g.started
	second := read(y) // waits for the first copy, or reads what it kept
	g.gate <- struct{}{}
	require.Equal(t, []float64{2, 4, 6, 8}, <-first)
	require.Equal(t, []float64{2, 4, 6, 8}, <-second)
	require.EqualValues(t, 1, g.copies.Load())
}

func TestFetchCancelled(t *testing.T) {
	_, g, _, y := gatedContext(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Fetch(ctx, y) }()
	<-g.started
	cancel()
	require.Equal(t, context.Canceled, <-errc)
	// The result stays on the device: the next read copies it again.
	got := read(y)
	<-g.started
	g.gate <- struct{}{}
	require.Equal(t, []float64{2, 4, 6, 8}, <-got)
	require.EqualValues(t, 2, g.copies.Load())
}

// watchedCtx is a context that says when a reader first waits on it.
type watchedCtx struct {
	context.Context
	waiting chan struct{}
	once    sync.Once
}

func (w *watchedCtx) Done() <-chan struct{} {
	w.once.Do(func() { close(w.waiting) })
	return w.Context.Done()
}

func TestFetchWaitCancelled(t *testing.T) {
	_, g, _, y := gatedContext(t)
	got := read(y)
	<-g.started
	// A second reader waits for the copy running; cancelling its ctx
	// ends its wait, not the copy.
	inner, cancel := context.WithCancel(context.Background())
	ctx := &watchedCtx{Context: inner, waiting: make(chan struct{})}
	errc := make(chan error, 1)
	go func() { errc <- Fetch(ctx, y) }()
	<-ctx.waiting
	cancel()
	require.Equal(t, context.Canceled, <-errc)
	g.gate <- struct{}{}
	require.Equal(t, []float64{2, 4, 6, 8}, <-got)
	require.NoError(t, Fetch(context.Background(), y))
	require.EqualValues(t, 1, g.copies.Load())
}

func TestReleaseDuringCopy(t *testing.T) {
	c, g, _, y := gatedContext(t)
	got := read(y)
	<-g.started
	// Releasing the array whose result is being copied does not wait for
	// the copy; the reader still gets the values, and nothing is left
	// (gatedContext's cleanup checks the allocator).
	y.Release()
	require.False(t, y.Evaluated())
	g.gate <- struct{}{}
	require.Equal(t, []float64{2, 4, 6, 8}, <-got)
	require.Equal(t, 1, c.Live()) // x
}
