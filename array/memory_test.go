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
		{"rand", c.Rand(1, array.Float32, 1<<42), "Rand (4398046511104,) float32: Unable to allocate 32.0 TiB"},
		{"arange", c.Arange(0, 1<<45, 1, array.Int32), "Iota (35184372088832,) int32: Unable to allocate"},
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

func TestWithMemoryLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	c, err := array.NewContext(array.WithAllocator(mem), array.WithMemoryLimit(1<<10), array.WithBackend(ref.New()))
	require.NoError(t, err)
	require.EqualValues(t, 1<<10, c.MemoryLimit())
	fast, err := array.NewContext(array.WithAllocator(mem), array.WithMemoryLimit(1<<10), array.WithBackend(cpu.New(cpu.Options{})))
	require.NoError(t, err)
	require.EqualError(t, fast.Arange(0, 200, 1, array.Float64).Mul(2).Eval(),
		"cpu: Unable to allocate 1.56 KiB for an array with shape (200,) and data type float64 (larger than the allocation limit of 1.00 KiB)")

	small := c.Arange(0, 100, 1, array.Float64).Mul(2).Sum()
	v, err := small.Value()
	require.NoError(t, err)
	require.InDelta(t, 9900, v, 0)
	small.Release()

	big := c.Arange(0, 200, 1, array.Float64).Mul(2)
	require.EqualError(t, big.Eval(), "ref: Iota (200,) float64: Unable to allocate 1.56 KiB for an array with shape (200,) and data type float64 (larger than the allocation limit of 1.00 KiB)")
	data := make([]float32, 1000)
	require.ErrorContains(t, array.FromSlice(c, data).Err(), "FromSlice: Unable to allocate 3.91 KiB for an array with shape (1000,) and data type float32")
	// Lanes: the evaluator works in 8-byte elements, so 200 bools are over.
	require.ErrorContains(t, c.Ones(array.Bool, 200).Any().Eval(), "and data type float64 (larger than the allocation limit")

	_, err = array.NewContext(array.WithMemoryLimit(0))
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
	c, err := array.NewContext(array.WithAllocator(mem), array.WithBackend(directBackend{bytes: 1 << 20}), array.WithMemoryLimit(1<<16))
	require.NoError(t, err)
	a := c.Ones(array.Float32, 3).Add(1)
	err = a.Eval()
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.EqualError(t, err, "Unable to allocate 1.00 MiB (larger than the allocation limit of 64.0 KiB)")
	require.Zero(t, c.Live())
}
