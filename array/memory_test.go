// The memory guard through the user API: NumPy's MemoryError from Eval
// instead of a process killed by the out-of-memory handler.

package array_test

import (
	"context"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/ref"
)

func TestMemoryGuard(t *testing.T) {
	e := newEnv(t)
	c := e.c
	require.Equal(t, exec.DefaultMemoryLimit(), c.MemoryLimit())
	tests := []struct {
		name string
		a    *array.Array
		want string
	}{
		{"broadcast scalar", c.Full(array.Float64, 2, 1<<40).Add(1),
			"Unable to allocate 8.00 TiB for an array with shape (1099511627776,) and data type float64"},
		{"zeros", c.Zeros(array.Float32, 1<<20, 1<<20).Contiguous(),
			"Unable to allocate 4.00 TiB for an array with shape (1048576, 1048576) and data type float32"},
		{"rand", c.Rand(array.Float32, 1, 1<<42), "Rand (4398046511104,) float32: Unable to allocate 32.0 TiB"},
		{"arange", c.ArangeStep(array.Int32, 0, 1<<45, 1), "Iota (35184372088832,) int32: Unable to allocate"},
		{"sum of huge", c.Ones(array.Bool, 1<<44).Sum(), "Unable to allocate"},
		{"matmul batch", array.MatMul(c.Ones(array.Float32, 1<<10, 1, 1<<10, 1), c.Ones(array.Float32, 1<<10, 1, 1<<10)),
			"Unable to allocate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.a.Err())
			err := tt.a.Eval()
			var me *exec.MemoryError
			require.ErrorAs(t, err, &me, "got:%v", err)
			require.ErrorContains(t, err, tt.want)
			_, err = array.ToSlice[float64](tt.a.AsType(array.Float64))
			require.ErrorAs(t, err, &me)
			require.Contains(t, tt.a.String(), "Unable to allocate")
		})
	}
}

func TestWithMaxAllocation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c, err := array.NewContext(array.WithAllocator(mem), array.WithMaxAllocation(1<<10), array.WithBackend(ref.New()))
	require.NoError(t, err)
	require.EqualValues(t, 1<<10, c.MaxAllocation())
	require.Equal(t, exec.DefaultMemoryLimit(), c.MemoryLimit(), "the total is not bounded by the allocation limit")
	fast, err := array.NewContext(array.WithAllocator(mem), array.WithMaxAllocation(1<<10), array.WithBackend(cpu.New(cpu.Options{})))
	require.NoError(t, err)
	require.EqualError(t, fast.ArangeStep(array.Float64, 0, 200, 1).Mul(2).Eval(),
		"cpu: Unable to allocate 1.56 KiB for an array with shape (200,) and data type float64 (larger than the allocation limit of 1.00 KiB)")

	small := c.ArangeStep(array.Float64, 0, 100, 1).Mul(2).Sum()
	v, err := small.Value()
	require.NoError(t, err)
	require.InDelta(t, 9900, v, 0)
	small.Release()

	// Many buffers under the bound, together far above it: no error.
	var held []*array.Array
	for i := range 20 {
		a := c.ArangeStep(array.Float64, 0, 100, 1).Add(i)
		require.NoError(t, a.Eval())
		held = append(held, a)
	}
	require.Greater(t, c.MemoryInUse(), int64(10<<10))
	for _, a := range held {
		a.Release()
	}
	require.Zero(t, c.MemoryInUse())

	big := c.ArangeStep(array.Float64, 0, 200, 1).Mul(2)
	require.EqualError(t, big.Eval(), "ref: Iota (200,) float64: Unable to allocate 1.56 KiB for an array with shape (200,) and data type float64 (larger than the allocation limit of 1.00 KiB)")
	data := make([]float32, 1000)
	require.ErrorContains(t, array.FromSlice(c, data).Err(), "FromSlice: Unable to allocate 3.91 KiB for an array with shape (1000,) and data type float32")
	// Lanes: the evaluator works in 8-byte elements, so 200 bools are over.
	require.ErrorContains(t, c.Ones(array.Bool, 200).Any().Eval(), "and data type float64 (larger than the allocation limit")

	_, err = array.NewContext(array.WithMaxAllocation(0))
	require.EqualError(t, err, "array: WithMaxAllocation(0): the bound must be positive")
}

// WithMemoryLimit bounds what a Context holds at once: inputs, results of
// live arrays and the buffers of the evaluation running.
func TestWithMemoryLimit(t *testing.T) {
	for name, be := range testBackends() {
		t.Run(name, func(t *testing.T) {
			c, mem := checkedContext(t, be, array.WithMemoryLimit(16<<10))
			require.EqualValues(t, 16<<10, c.MemoryLimit())
			require.Equal(t, exec.DefaultMemoryLimit(), c.MaxAllocation())

			// 1000 float64 inputs: 8000 bytes, 8000 allocated (a multiple of 64).
			x := array.FromSlice(c, make([]float64, 1000))
			require.NoError(t, x.Err())
			require.EqualValues(t, 8000, c.MemoryInUse())

			// Two results of 8000 bytes do not fit beside x (16384 - 8000 =
			// 8384 left).
			err := array.Eval(t.Context(), x.Add(1), x.Mul(2))
			var me *exec.MemoryError
			require.ErrorAs(t, err, &me, "got:%v", err)
			require.True(t, me.Total)
			require.Contains(t, err.Error(), "of the memory limit of 16.0 KiB is in use)")
			require.EqualValues(t, 8000, c.MemoryInUse(), "the failed evaluation freed what it allocated")
			require.EqualValues(t, 8000, mem.CurrentAlloc())
			require.Equal(t, 1, c.Live())

			// A result counts while an array holds it.
			h := x.Slice(array.R(0, 500)).Add(1)
			require.NoError(t, h.Eval())
			require.EqualValues(t, 8000+4032, c.MemoryInUse())
			z := x.Add(1)
			require.ErrorAs(t, z.Eval(), &me, "one result fits, but not beside the other")
			h.Release()
			require.NoError(t, z.Eval(), "it fits once the other is released")
			z.Release()
			require.EqualValues(t, 8000, c.MemoryInUse())

			// Exported arrow arrays count until released.
			sl := x.Slice(array.RS(0, 1000, 2))
			xa, err := sl.ToArrow() // strided: a copy
			require.NoError(t, err)
			sl.Release() // the reference evaluator made a copy for the view too
			require.EqualValues(t, 8000+4032, c.MemoryInUse())
			xa.Release()
			require.EqualValues(t, 8000, c.MemoryInUse())

			// Inputs count too.
			require.ErrorContains(t, array.FromSlice(c, make([]int64, 1100)).Err(),
				"FromSlice: Unable to allocate 8.59 KiB for an array with shape (1100,) and data type int64 (7.81 KiB of the memory limit of 16.0 KiB is in use)")
			x.Release()
			require.Zero(t, c.MemoryInUse())
			require.Zero(t, mem.CurrentAlloc())

			// Alone, a buffer larger than the limit is refused outright.
			err = c.Zeros(array.Float32, 5000).Contiguous().Eval()
			require.ErrorContains(t, err, "Unable to allocate 19.5 KiB for an array with shape (5000,) and data type float32 (")
			require.ErrorContains(t, err, "the memory limit of 16.0 KiB")
			require.Zero(t, c.Live())
		})
	}
	_, err := array.NewContext(array.WithMemoryLimit(0))
	require.EqualError(t, err, "array: WithMemoryLimit(0): the limit must be positive")
}

// directBackend allocates its result straight from the request's
// allocator, as backends that manage their own buffers do.
type directBackend struct{ bytes int }

func (directBackend) Name() string { return "direct" }

func (b directBackend) Eval(ctx context.Context, req *exec.Request) ([]*exec.Tensor, error) {
	buf := memory.NewResizableBuffer(req.Alloc)
	defer buf.Release()
	buf.Resize(b.bytes)
	return ref.New().Eval(ctx, req)
}

func TestMemoryGuardDirectAllocation(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, tt := range []struct {
		opt  array.Option
		want string
	}{
		{array.WithMaxAllocation(1 << 16), "Unable to allocate 1.00 MiB (larger than the allocation limit of 64.0 KiB)"},
		{array.WithMemoryLimit(1 << 16), "Unable to allocate 1.00 MiB (larger than the memory limit of 64.0 KiB)"},
	} {
		c, err := array.NewContext(array.WithAllocator(mem), array.WithBackend(directBackend{bytes: 1 << 20}), tt.opt)
		require.NoError(t, err)
		a := c.Ones(array.Float32, 3).Add(1)
		err = a.Eval()
		var me *exec.MemoryError
		require.ErrorAs(t, err, &me)
		require.EqualError(t, err, tt.want)
		require.Zero(t, c.Live())
		require.Zero(t, c.MemoryInUse())
	}
}
