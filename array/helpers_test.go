// Test helpers: the backends tests run on, a Context on a checked
// allocator that must end at zero bytes, a backend wrapper that counts
// evaluations, and readers.

package array_test

import (
	"context"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/exec/ref"
	"github.com/fuseflow/fuseflow/graph"
)

// countingBackend wraps the reference evaluator and records requests.
type countingBackend struct {
	inner exec.Backend
	mu    sync.Mutex
	calls int
	outs  [][]*graph.Node
	bound []map[*graph.Node]bool
}

func (b *countingBackend) Name() string { return "counting" }

func (b *countingBackend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	b.mu.Lock()
	b.calls++
	b.outs = append(b.outs, append([]*graph.Node(nil), req.Outputs...))
	bd := map[*graph.Node]bool{}
	for n := range req.Bound {
		bd[n] = true
	}
	b.bound = append(b.bound, bd)
	b.mu.Unlock()
	return b.inner.Eval(ctx, req)
}

func (b *countingBackend) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.calls
}

// tenv is a Context over a checked allocator; at the end of the test it
// releases the tracked arrays and asserts that no bytes are left.
type tenv struct {
	t   *testing.T
	c   *array.Context
	mem *memory.CheckedAllocator
	be  *countingBackend
	mu  sync.Mutex
	own []*array.Array
}

// testBackends returns the backends tests run on, by name: a new
// reference evaluator and a new CPU executor.
func testBackends() map[string]exec.Backend {
	return map[string]exec.Backend{"ref": ref.New(), "cpu": cpu.New(cpu.Options{})}
}

// checkedContext returns a Context on be, with opts, over a checked
// allocator (returned too) that must be back at zero bytes when the test
// ends.
func checkedContext(t testing.TB, be exec.Backend, opts ...array.Option) (*array.Context, *memory.CheckedAllocator) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	c, err := array.NewContext(append([]array.Option{array.WithBackend(be), array.WithAllocator(mem)}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return c, mem
}

// cpuContext returns a Context on a new CPU executor, with opts.
func cpuContext(opts ...array.Option) *array.Context {
	return array.MustContext(append([]array.Option{array.WithBackend(cpu.New(cpu.Options{}))}, opts...)...)
}

func newEnv(t *testing.T) *tenv {
	t.Helper()
	e := &tenv{t: t, mem: memory.NewCheckedAllocator(memory.NewGoAllocator()), be: &countingBackend{inner: ref.New()}}
	c, err := array.NewContext(array.WithBackend(e.be), array.WithAllocator(e.mem))
	require.NoError(t, err)
	e.c = c
	t.Cleanup(func() {
		e.mu.Lock()
		for _, a := range e.own {
			a.Release()
		}
		e.mu.Unlock()
		e.mem.AssertSize(t, 0)
		require.Zero(t, c.Live(), "results still held")
	})
	return e
}

// keep tracks a for release at the end of the test and returns it.
func (e *tenv) keep(a *array.Array) *array.Array {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.own = append(e.own, a)
	return a
}

// errCase is an array that must carry an error containing want.
type errCase struct {
	name string
	a    *array.Array
	want string
}

// checkErrs asserts that every case carries its error.
func checkErrs(t *testing.T, cases []errCase) {
	t.Helper()
	for _, tc := range cases {
		err := tc.a.Err()
		require.Error(t, err, tc.name)
		require.Contains(t, err.Error(), tc.want, tc.name)
	}
}

// valueCase is an array with the shape and the values (read as float64)
// it must have; a nil want checks the shape alone.
type valueCase struct {
	name  string
	a     *array.Array
	shape array.Shape
	want  []float64
}

// check asserts every case: built without error, its shape and its
// values (an empty array printing as []). It keeps the arrays for release at the end of the test.
func (e *tenv) check(cases []valueCase) {
	e.t.Helper()
	for _, tt := range cases {
		a := e.keep(tt.a)
		require.NoError(e.t, a.Err(), tt.name)
		if !a.Shape().Equal(tt.shape) {
			e.t.Errorf("%s shape: got:%v want:%v", tt.name, a.Shape(), tt.shape)
		}
		if tt.want == nil {
			continue
		}
		if got := e.f64(a); !approx(got, tt.want) {
			e.t.Errorf("%s: got:%v want:%v", tt.name, got, tt.want)
		}
		if s := a.String(); a.Size() == 0 && s != "[]" {
			e.t.Errorf("%s: String of an empty array got:%q want:%q", tt.name, s, "[]")
		}
	}
}

// f64 returns a's elements converted to float64 (through an AsType array
// that is released again).
func (e *tenv) f64(a *array.Array) []float64 {
	e.t.Helper()
	b := a.AsType(array.Float64)
	defer b.Release()
	s, err := array.ToSlice[float64](b)
	require.NoError(e.t, err)
	return s
}

// floats makes a float64 input of shape (1-d when none).
func (e *tenv) floats(data []float64, shape ...int) *array.Array {
	return e.keep(array.FromSlice(e.c, data, shape...))
}

// ints makes an int64 input.
func (e *tenv) ints(data []int64, shape ...int) *array.Array {
	return e.keep(array.FromSlice(e.c, data, shape...))
}

// approx reports whether got and want agree to 1e-12 relative (NaNs
// agree with NaNs).
func approx(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g != g && w != w {
			continue
		}
		d := g - w
		if d < 0 {
			d = -d
		}
		m := max(abs64(w), 1)
		if d > 1e-12*m && g != w {
			return false
		}
	}
	return true
}

func abs64(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
