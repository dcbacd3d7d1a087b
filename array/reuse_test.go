package array_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	fa "github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// TestExportOutlivesHeaderReuse checks that a result exported with
// ToArrow keeps its values after its Array is released while later
// evaluations reuse released result buffers' headers: the exported
// buffer is still referenced, so its header must not be reused.
func TestExportOutlivesHeaderReuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c := cpuContext(fa.WithAllocator(mem))
	x := fa.FromSlice(c, []float32{1, 2, 3, 4, 5}, 5)
	y := fa.FromSlice(c, []float32{10, 20, 30, 40, 50}, 5)
	defer x.Release()
	defer y.Release()
	want := []float32{11, 22, 33, 44, 55}
	r := x.Add(y)
	if err := r.Eval(); err != nil {
		t.Fatal(err)
	}
	exp, err := r.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	r.Release()
	for i := range 50 {
		z := x.Mul(float32(i)).Sub(y)
		if err := z.Eval(); err != nil {
			t.Fatal(err)
		}
		z.Release()
	}
	if got := exp.(*array.Float32).Float32Values(); !slices.Equal(got, want) {
		t.Errorf("exported values got:%v want:%v", got, want)
	}
	exp.Release()
	if got := c.MemoryInUse(); got != 2*64 {
		t.Errorf("MemoryInUse got:%d want:%d (the two inputs)", got, 2*64)
	}
}

// hookBackend runs hook (once) before each evaluation it delegates.
type hookBackend struct {
	exec.Backend
	mu   sync.Mutex
	hook func()
}

func (b *hookBackend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	b.mu.Lock()
	h := b.hook
	b.hook = nil
	b.mu.Unlock()
	if h != nil {
		h()
	}
	return b.Backend.Eval(ctx, req)
}

// TestOperandReleasedDuringEval releases an operand's Array after Eval
// bound its result and before the backend reads it, then reuses the
// freed memory: the evaluation holds the operand's result until it
// ends, so the values are right, and the result is freed afterwards.
func TestOperandReleasedDuringEval(t *testing.T) {
	hb := &hookBackend{Backend: cpu.New(cpu.Options{})}
	c := fa.MustContext(fa.WithBackend(hb))
	x := fa.FromSlice(c, []float64{1, 2, 3, 4}, 4)
	defer x.Release()
	a := x.Mul(2) // 2 4 6 8
	if err := a.Eval(); err != nil {
		t.Fatal(err)
	}
	live := c.Live()
	inUse := c.MemoryInUse()
	var w *fa.Array
	hb.hook = func() {
		a.Release()
		// Memory a's result gave back would be taken again here.
		w = x.Mul(0).Add(99)
		if err := w.Eval(); err != nil {
			t.Error(err)
		}
	}
	b := a.Add(1)
	got, err := fa.ToSlice[float64](b)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{3, 5, 7, 9}; !slices.Equal(got, want) {
		t.Errorf("a+1 with a released meanwhile got:%v want:%v", got, want)
	}
	b.Release()
	w.Release()
	if got, want := c.Live(), live-1; got != want {
		t.Errorf("Live after the evaluation got:%d want:%d", got, want)
	}
	if got := c.MemoryInUse(); got >= inUse {
		t.Errorf("MemoryInUse after the evaluation got:%d want:< %d (a's result freed)", got, inUse)
	}
	if err := a.Eval(); err == nil {
		t.Error("Eval of the released operand got:nil want:an error")
	}
}

// TestHeaderReuseConcurrent evaluates on one Context from several
// goroutines while exported results are checked and released on
// others: a header is reused only once nothing references its buffer,
// so every export keeps its values (and the race detector sees no
// write to a header in use).
func TestHeaderReuseConcurrent(t *testing.T) {
	c := cpuContext()
	x := fa.FromSlice(c, []float32{1, 2, 3, 4, 5, 6, 7, 8}, 8)
	defer x.Release()
	type export struct {
		a    *array.Float32
		want float32
	}
	exports := make(chan export, 16)
	var checkers sync.WaitGroup
	for range 2 {
		checkers.Add(1)
		go func() {
			defer checkers.Done()
			for e := range exports {
				for i, v := range e.a.Float32Values() {
					if want := float32(i+1) * e.want; v != want {
						t.Errorf("exported element %d got:%v want:%v", i, v, want)
					}
				}
				e.a.Release()
			}
		}()
	}
	var workers sync.WaitGroup
	for w := range 3 {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for i := range 200 {
				k := float32(w*1000 + i%7)
				r := x.Mul(k)
				if err := r.Eval(); err != nil {
					t.Error(err)
					return
				}
				if i%3 == 0 {
					exp, err := r.ToArrow()
					if err != nil {
						t.Error(err)
						return
					}
					exports <- export{exp.(*array.Float32), k}
				}
				r.Release()
			}
		}()
	}
	workers.Wait()
	close(exports)
	checkers.Wait()
	if got := c.MemoryInUse(); got != 64 {
		t.Errorf("MemoryInUse after all released got:%d want:64 (the input)", got)
	}
}

// TestEvaluatedOperands checks expressions whose operand Arrays hold
// their results (Eval binds them without a walk) against the values
// they must give: operands in either order, one operand twice, a scalar
// operand, a broadcast one, and an operand that is not evaluated yet.
func TestEvaluatedOperands(t *testing.T) {
	c := fa.MustContext(fa.WithBackend(listChecker{cpu.New(cpu.Options{})}))
	x := fa.FromSlice(c, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	y := fa.FromSlice(c, []float64{10, 20, 30, 40, 50, 60}, 2, 3)
	b := fa.FromSlice(c, []float64{100, 200, 300}, 3)
	defer x.Release()
	defer y.Release()
	defer b.Release()
	for _, tc := range []struct {
		name  string
		build func() *fa.Array
		want  []float64
	}{
		{"x-y", func() *fa.Array { return x.Sub(y) }, []float64{-9, -18, -27, -36, -45, -54}},
		{"y-x", func() *fa.Array { return y.Sub(x) }, []float64{9, 18, 27, 36, 45, 54}},
		{"x*x", func() *fa.Array { return x.Mul(x) }, []float64{1, 4, 9, 16, 25, 36}},
		{"x-2", func() *fa.Array { return x.Sub(2) }, []float64{-1, 0, 1, 2, 3, 4}},
		{"-x", func() *fa.Array { return x.Neg() }, []float64{-1, -2, -3, -4, -5, -6}},
		{"b-x", func() *fa.Array { return b.Sub(x) }, []float64{99, 198, 297, 96, 195, 294}},
		{"x-(y*2)", func() *fa.Array { return x.Sub(y.Mul(2)) }, []float64{-19, -38, -57, -76, -95, -114}},
		{"(y*2)-x", func() *fa.Array { return y.Mul(2).Sub(x) }, []float64{19, 38, 57, 76, 95, 114}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 2 { // the second time with a cached plan
				z := tc.build()
				got, err := fa.ToSlice[float64](z)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, tc.want) {
					t.Errorf("got:%v want:%v", got, tc.want)
				}
				z.Release()
			}
		})
	}
}

// listChecker is a backend reading bound values from a list, which it
// checks names each node at most once (exec.Request.BoundList).
type listChecker struct{ *cpu.Backend }

func (b listChecker) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	seen := map[*graph.Node]bool{}
	for _, bd := range req.BoundList {
		if seen[bd.Node] {
			return nil, fmt.Errorf("bound list names %v %v twice", bd.Node.Op(), bd.Node.Shape())
		}
		seen[bd.Node] = true
	}
	return b.Backend.Eval(ctx, req)
}
