// Tests of the caching allocator: size classes, reuse without zeroing,
// the bound on cached bytes, Trim back to a checked allocator, and
// concurrent use.

package exec_test

import (
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

func TestPoolReuse(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(-1))
	a := p.Allocate(1000)
	require.Len(t, a, 1000)
	a[0] = 42
	p.Free(a)
	b := p.Allocate(1001) // same class (1024): the cached block comes back
	require.Len(t, b, 1001)
	require.Equal(t, &a[0], &b[0], "a block of the same class is reused")
	require.Equal(t, byte(42), b[0], "reused memory is not cleared")
	c := p.Allocate(5000)
	s := p.Stats()
	require.Equal(t, int64(1), s.Hits)
	require.Equal(t, int64(2), s.Misses)
	require.Equal(t, int64(1024+5120), s.InUse)
	p.Free(b)
	p.Free(c)
	s = p.Stats()
	require.Zero(t, s.InUse)
	require.Equal(t, int64(1024+5120), s.Cached)
	require.Equal(t, int64(1024+5120), s.PeakInUse)
	require.NotZero(t, checked.CurrentAlloc(), "cached blocks are still held")
	require.Equal(t, int64(1024+5120), p.Trim())
	require.Zero(t, checked.CurrentAlloc())
	require.Zero(t, p.Stats().Cached)
}

func TestPoolClasses(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(0))
	for _, n := range []int{0, 1, 63, 64, 65, 255, 256, 257, 320, 321, 1 << 20, 1<<20 + 1, 3 << 20} {
		b := p.Allocate(n)
		if len(b) != n {
			t.Errorf("Allocate(%d) got:%v want:%v bytes", n, len(b), n)
		}
		in := p.Stats().InUse
		if in < int64(n) || in > int64(n)+int64(n)/4+64 {
			t.Errorf("Allocate(%d) got:%v bytes held want:%d..%d", n, in, n, n+n/4+64)
		}
		p.Free(b)
	}
	require.Zero(t, p.Stats().Cached, "a pool bounded at 0 caches nothing")
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolBound(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(3000))
	bs := [][]byte{p.Allocate(1024), p.Allocate(1024), p.Allocate(1024), p.Allocate(4096)}
	for _, b := range bs {
		p.Free(b)
	}
	s := p.Stats()
	require.Equal(t, int64(2048), s.Cached, "the oldest block is evicted, the too-large one not cached")
	require.Equal(t, int64(1), s.Evictions)
	require.LessOrEqual(t, s.Cached, s.MaxCached)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolReallocate(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked)
	b := p.Allocate(100)
	for i := range b {
		b[i] = byte(i)
	}
	b2 := p.Reallocate(120, b)
	require.Equal(t, &b[0], &b2[0], "growth within the class keeps the block")
	b3 := p.Reallocate(10000, b2)
	require.Len(t, b3, 10000)
	for i := range 100 {
		if b3[i] != byte(i) {
			t.Fatalf("byte %d got:%v want:%v", i, b3[i], i)
		}
	}
	p.Free(b3)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolTensors(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked)
	x, err := exec.NewTensorUninit(p, graph.Float32, graph.Shape{4, 5})
	require.NoError(t, err)
	for i := range exec.Elems[float32](x) {
		exec.Elems[float32](x)[i] = 7
	}
	x.Release()
	y, err := exec.NewTensor(p, graph.Float32, graph.Shape{5, 4})
	require.NoError(t, err)
	for i, v := range exec.Elems[float32](y)[:20] {
		if v != 0 {
			t.Fatalf("NewTensor from a pool: element %d got:%v want:0", i, v)
		}
	}
	y.Release()
	_, err = exec.NewTensorUninit(exec.LimitAllocator(p, 1024), graph.Float64, graph.Shape{1000})
	var me *exec.MemoryError
	require.ErrorAs(t, err, &me)
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}

func TestPoolConcurrent(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(64<<10))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				n := 64 + (i*37+g*101)%8000
				b := p.Allocate(n)
				b[0], b[n-1] = byte(g), byte(g)
				if b[0] != byte(g) || b[n-1] != byte(g) {
					t.Errorf("block shared between goroutines")
					return
				}
				p.Free(b)
			}
		})
	}
	wg.Wait()
	s := p.Stats()
	require.Zero(t, s.InUse)
	require.Equal(t, int64(2000), s.Frees)
	require.LessOrEqual(t, s.Cached, int64(64<<10))
	p.Trim()
	require.Zero(t, checked.CurrentAlloc())
}
