// The pool's most recently freed block, kept off the free and LRU lists
// until something walks them: reuse, accounting and eviction order are
// those of a block on the lists.

package exec_test

import (
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
)

func addr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

func TestPoolHotBlock(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(-1), exec.PoolIdleTimeout(0))

	// Free then allocate the same class: the very block, a hit.
	a := p.Allocate(100)
	pa := addr(a)
	p.Free(a)
	require.EqualValues(t, 128, p.Stats().Cached)
	a = p.Allocate(120)
	require.Equal(t, pa, addr(a))
	s := p.Stats()
	require.EqualValues(t, 1, s.Hits)
	require.Zero(t, s.Cached)
	require.EqualValues(t, 128, s.InUse)

	// A block of another class freed after it: both cached, each handed
	// back to its own class, newest first within a class.
	b := p.Allocate(1000)
	pb := addr(b)
	a2 := p.Allocate(100)
	pa2 := addr(a2)
	p.Free(a)
	p.Free(b)
	p.Free(a2)
	require.EqualValues(t, 128+1024+128, p.Stats().Cached)
	require.Equal(t, pb, addr(p.Allocate(1000)))
	require.Equal(t, pa2, addr(p.Allocate(100)))
	require.Equal(t, pa, addr(p.Allocate(100)))
	s = p.Stats()
	require.EqualValues(t, 4, s.Hits)
	require.Zero(t, s.Cached)
	require.EqualValues(t, 128+1024+128, checked.CurrentAlloc())
}

// TestPoolHotBlockEviction: with room for two blocks the oldest freed
// one goes back to the base allocator, never the one freed last, and
// Trim gives back the hot block too.
func TestPoolHotBlockEviction(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolMaxCached(2*128), exec.PoolIdleTimeout(0))
	x, y, z := p.Allocate(128), p.Allocate(128), p.Allocate(128)
	px, py, pz := addr(x), addr(y), addr(z)
	p.Free(x)
	p.Free(y)
	p.Free(z) // evicts x, the oldest
	s := p.Stats()
	require.EqualValues(t, 1, s.Evictions)
	require.EqualValues(t, 2*128, s.Cached)
	require.EqualValues(t, 2*128, checked.CurrentAlloc())
	got := []unsafe.Pointer{addr(p.Allocate(128)), addr(p.Allocate(128))}
	require.Equal(t, []unsafe.Pointer{pz, py}, got, "newest first; x is gone")
	require.NotContains(t, got, px)
}

func TestPoolHotBlockTrim(t *testing.T) {
	checked := memory.NewCheckedAllocator(memory.NewGoAllocator())
	p := exec.NewPool(checked, exec.PoolIdleTimeout(0))
	p.Free(p.Allocate(64))
	p.Free(p.Allocate(5000))
	require.EqualValues(t, 64+5120, p.Trim())
	require.Zero(t, p.Stats().Cached)
	require.Zero(t, checked.CurrentAlloc())
}
