// Tests of the memory guard: limits, NumPy-style messages, allocators
// that panic, and the recovery at a backend's boundary.

package exec_test

import (
	"errors"
	"os"
	"testing"
	"testing/fstest"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1023, "1023 bytes"},
		{1024, "1.00 KiB"},
		{1536, "1.50 KiB"},
		{10 << 20, "10.0 MiB"},
		{300 << 30, "300 GiB"},
		{8 << 40, "8.00 TiB"},
		{1 << 62, "4.00 EiB"},
	}
	for _, tt := range tests {
		if got := exec.FormatBytes(tt.n); got != tt.want {
			t.Errorf("FormatBytes(%d) got:%v want:%v", tt.n, got, tt.want)
		}
	}
}

func TestDefaultMemoryLimit(t *testing.T) {
	l := exec.DefaultMemoryLimit()
	require.Positive(t, l)
	require.Equal(t, l, exec.AllocLimit(memory.NewGoAllocator()))
	if _, err := os.Stat("/proc/meminfo"); err == nil {
		require.Less(t, l, int64(1)<<47, "Linux: the machine's memory, not the fallback")
	}
}

func TestNewTensorLimit(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	alloc := exec.LimitAllocator(mem, 1000)
	require.EqualValues(t, 1000, exec.AllocLimit(alloc))

	tn, err := exec.NewTensor(alloc, graph.Float64, graph.Shape{125})
	require.NoError(t, err)
	tn.Release()

	_, err = exec.NewTensor(alloc, graph.Float64, graph.Shape{2, 63})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.EqualError(t, err, "Unable to allocate 1008 bytes for an array with shape (2, 63) and data type float64 (larger than the allocation limit of 1000 bytes)")

	// The default limit: 2**40 float64 is more than any machine this runs on.
	_, err = exec.NewTensor(memory.NewGoAllocator(), graph.Float64, graph.Shape{1 << 40})
	require.ErrorAs(t, err, &me)
	require.ErrorContains(t, err, "Unable to allocate 8.00 TiB for an array with shape (1099511627776,) and data type float64")

	// Invalid shapes stay shape errors.
	_, err = exec.NewTensor(alloc, graph.Float64, graph.Shape{-1})
	require.EqualError(t, err, "negative dimension -1 in shape (-1,)")
	_, err = exec.NewTensor(nil, graph.Float64, graph.Shape{1})
	require.EqualError(t, err, "exec: NewTensor of (1,) float64: nil allocator")

	// A direct allocation above the limit panics with the error.
	require.PanicsWithError(t, "Unable to allocate 2.00 KiB (larger than the allocation limit of 1000 bytes)", func() {
		alloc.Allocate(2048)
	})
	// Limits do not stack: the new one replaces the old.
	require.EqualValues(t, 4096, exec.AllocLimit(exec.LimitAllocator(alloc, 4096)))
	require.Equal(t, exec.DefaultMemoryLimit(), exec.AllocLimit(exec.LimitAllocator(mem, 0)))
}

// failingAllocator panics as allocators without an error result do.
type failingAllocator struct{ memory.Allocator }

func (failingAllocator) Allocate(int) []byte           { panic(errors.New("mmap: cannot allocate memory")) }
func (failingAllocator) Reallocate(int, []byte) []byte { panic("out of pinned memory") }

func TestNewTensorAllocatorPanics(t *testing.T) {
	_, err := exec.NewTensor(failingAllocator{memory.NewGoAllocator()}, graph.Int32, graph.Shape{4})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.Contains(t, err.Error(), "Unable to allocate 16 bytes for an array with shape (4,) and data type int32: ")
}

func TestRecoverMemoryError(t *testing.T) {
	alloc := exec.LimitAllocator(memory.NewGoAllocator(), 10)
	run := func(f func()) (err error) {
		defer exec.RecoverMemoryError(&err)
		f()
		return nil
	}
	err := run(func() { memory.NewResizableBuffer(alloc).Resize(200) })
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	require.EqualValues(t, 256, me.Bytes) // arrow rounds capacity up to 64 bytes
	require.NoError(t, run(func() {}))
	// Other panics are not memory errors: they go on.
	require.PanicsWithValue(t, "broken invariant", func() { _ = run(func() { panic("broken invariant") }) })
}

func TestReadMeminfo(t *testing.T) {
	fsys := fstest.MapFS{
		"ok":      {Data: []byte("MemTotal:       16 kB\nMemFree: 3 kB\nSwapTotal:  4 kB\n")},
		"noswap":  {Data: []byte("MemTotal: 8 kB\n")},
		"nototal": {Data: []byte("SwapTotal: 4 kB\n")},
		"bad":     {Data: []byte("MemTotal: lots kB\n")},
		"huge":    {Data: []byte("MemTotal: 9223372036854775807 kB\n")},
	}
	total, swap, err := exec.ReadMeminfo(fsys, "ok")
	require.NoError(t, err)
	require.EqualValues(t, 16*1024, total)
	require.EqualValues(t, 4*1024, swap)
	total, swap, err = exec.ReadMeminfo(fsys, "noswap")
	require.NoError(t, err)
	require.EqualValues(t, 8*1024, total)
	require.Zero(t, swap)
	_, _, err = exec.ReadMeminfo(fsys, "nototal")
	require.ErrorContains(t, err, "has no MemTotal")
	_, _, err = exec.ReadMeminfo(fsys, "bad")
	require.ErrorContains(t, err, "bad MemTotal line")
	_, _, err = exec.ReadMeminfo(fsys, "huge")
	require.ErrorContains(t, err, "bad MemTotal line")
	_, _, err = exec.ReadMeminfo(fsys, "missing")
	require.Error(t, err)
}
