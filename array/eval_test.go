// Tests of evaluation: one request for several arrays, reuse of held
// results, release semantics, cancellation and concurrent use.

package array_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
)

func TestEvalOneRequestForSeveralArrays(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{1, 2, 3})
	shared := x.Mul(2)
	a := e.keep(shared.Add(1))
	b := e.keep(shared.Sum())
	require.NoError(t, array.Eval(context.Background(), a, b, a))
	require.Equal(t, 1, e.be.count())
	require.Len(t, e.be.outs[0], 2, "duplicate outputs are asked once")
	require.True(t, a.Evaluated() && b.Evaluated())
	require.Equal(t, []float64{3, 5, 7}, array.MustToSlice[float64](a))
	require.Equal(t, 12.0, b.MustValue())
	require.Equal(t, 1, e.be.count(), "reading results evaluates nothing")
}

func TestEvalReusesHeldResults(t *testing.T) {
	e := newEnv(t)
	x := e.floats([]float64{1, 2, 3})
	a := e.keep(x.Mul(3))
	require.NoError(t, a.Eval())
	require.Equal(t, 1, e.be.count())

	// The same expression built again is the same node: no evaluation.
	again := e.keep(x.Mul(3))
	require.NoError(t, again.Eval())
	require.Equal(t, 1, e.be.count())

	// An expression on top of it binds the held result.
	b := e.keep(x.Mul(3).Add(1))
	require.NoError(t, b.Eval())
	require.Equal(t, 2, e.be.count())
	require.True(t, e.be.bound[1][a.Node()], "held result passed in Request.Bound")
	require.Equal(t, []float64{4, 7, 10}, array.MustToSlice[float64](b))

	// Releasing one holder keeps the result for the other.
	a.Release()
	c := e.keep(x.Mul(3).Sub(1))
	require.NoError(t, c.Eval())
	require.True(t, e.be.bound[2][again.Node()])
	again.Release()
	d := e.keep(x.Mul(3).Sub(2))
	require.NoError(t, d.Eval())
	require.False(t, e.be.bound[3][again.Node()], "released result is not bound")
	require.Equal(t, []float64{1, 4, 7}, array.MustToSlice[float64](d))
}

func TestReleaseSemantics(t *testing.T) {
	e := newEnv(t)
	x := array.FromSlice(e.c, []float64{1, 2})
	y := e.keep(x.Add(1))
	require.NoError(t, y.Eval())
	x.Release()
	x.Release() // twice is fine
	var nilArray *array.Array
	nilArray.Release()

	// y holds its own result, so reading it still works.
	require.Equal(t, []float64{2, 3}, array.MustToSlice[float64](y))
	// A new expression that needs x's data fails.
	err := x.Mul(5).Eval()
	require.ErrorContains(t, err, "Eval: input (2,) float64 (FromSlice) was released")
	// One that only needs y's held result works.
	z := e.keep(y.Mul(2))
	require.Equal(t, []float64{4, 6}, array.MustToSlice[float64](z))
	// Nor does another Array of x's very node (a cast to its own dtype).
	require.ErrorContains(t, x.AsType(array.Float64).Eval(), "Eval: input (2,) float64 (FromSlice) was released")
	// A released array cannot be evaluated again.
	require.ErrorContains(t, x.Eval(), "was released")
	_, err = array.ToSlice[float64](x)
	require.Error(t, err)
}

func TestEvalCancelled(t *testing.T) {
	e := newEnv(t)
	x := e.keep(e.c.ArangeStep(array.Float64, 0, 10, 1).Exp())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := array.Eval(ctx, x)
	require.True(t, errors.Is(err, context.Canceled), "got:%v want:%v", err, context.Canceled)
	require.False(t, x.Evaluated())
	require.NoError(t, array.Eval(context.Background(), x))
}

func TestEvalMixedContexts(t *testing.T) {
	e1, e2 := newEnv(t), newEnv(t)
	a := e1.floats([]float64{1})
	b := e2.floats([]float64{2})
	// Arrays of two Contexts can be evaluated together, each by its own.
	require.NoError(t, array.Eval(context.Background(), e1.keep(a.Add(1)), e2.keep(b.Add(1))))
	require.Equal(t, 1, e1.be.count())
	require.Equal(t, 1, e2.be.count())
}

func TestConcurrentEval(t *testing.T) {
	e := newEnv(t)
	x := e.keep(e.c.ArangeStep(array.Float64, 0, 64, 1).Reshape(8, 8))
	const workers = 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	sums := make([]float64, workers)
	for w := range workers {
		wg.Go(func() {
			shared := x.Transpose().Mul(2)
			own := shared.Add(float64(w)).Sum()
			defer own.Release()
			if err := array.Eval(context.Background(), own, shared); err != nil {
				errs <- err
				return
			}
			defer shared.Release()
			v, err := own.Value()
			if err != nil {
				errs <- err
				return
			}
			sums[w] = v
			_ = shared.String()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for w, s := range sums {
		if want := 2*2016.0 + 64*float64(w); s != want {
			t.Errorf("worker %d: got:%v want:%v", w, s, want)
		}
	}
}

// TestWarmEvalConcurrent: warm evaluations from several goroutines at
// once on the CPU backend, each repeating its own small expression (so
// the runner's last warm hit, the pooled evaluations and the pool's most
// recently freed block change hands between them), read correct values,
// and every buffer goes back to the allocator.
func TestWarmEvalConcurrent(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	pool := exec.NewPool(checked, exec.PoolIdleTimeout(0))
	c := array.MustContext(array.WithBackend(cpu.New(cpu.Options{})), array.WithAllocator(pool))
	const n = 100
	xs, ys := make([]float32, n), make([]float32, n)
	for i := range xs {
		xs[i], ys[i] = float32(i)/8, float32(n-i)/4
	}
	x, y := array.FromSlice(c, xs, n), array.FromSlice(c, ys, n)
	exprs := []struct {
		build func() *array.Array
		want  func(a, b float32) float32
	}{
		{func() *array.Array { return x.Add(y) }, func(a, b float32) float32 { return a + b }},
		{func() *array.Array { return x.Mul(y) }, func(a, b float32) float32 { return a * b }},
		{func() *array.Array { return x.Sub(y).Add(1) }, func(a, b float32) float32 { return a - b + 1 }},
		{func() *array.Array { return y.Sqrt() }, func(_, b float32) float32 { return float32(math.Sqrt(float64(b))) }},
	}
	rounds := 200
	if testing.Short() {
		rounds = 50
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(exprs))
	for w := range 2 * len(exprs) {
		e := exprs[w%len(exprs)]
		wg.Go(func() {
			for r := range rounds {
				z := e.build()
				got, err := array.ToSlice[float32](z)
				z.Release()
				if err != nil {
					errs <- err
					return
				}
				for i, v := range got {
					if want := e.want(xs[i], ys[i]); math.Abs(float64(v-want)) > 1e-5*math.Abs(float64(want)) {
						errs <- fmt.Errorf("worker %d round %d element %d: got:%v want:%v", w, r, i, v, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	x.Release()
	y.Release()
	require.Zero(t, c.Live())
	pool.Trim()
	require.Zero(t, checked.CurrentAlloc(), "bytes left with the base allocator")
}
