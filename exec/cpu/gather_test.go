// Tests of the strided walk and gather over chunks.

package cpu

import (
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// TestWalkGather gathers strided, reversed and broadcast layouts over
// every chunk split and compares with direct indexing.
func TestWalkGather(t *testing.T) {
	src := []int32{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21}
	tests := []struct {
		shape   []int
		strides []int
		offset  int
	}{
		{[]int{2, 2}, []int{0, -1}, 1},
		{[]int{3, 4}, []int{4, 1}, 0},
		{[]int{4, 3}, []int{1, 4}, 0},
		{[]int{2, 3}, []int{-6, -2}, 11},
		{[]int{2, 2, 3}, []int{0, 3, 1}, 0},
		{[]int{5}, []int{0}, 7},
	}
	for _, tc := range tests {
		sp := newSpace(tc.shape)
		want := make([]int32, sp.size)
		idx := make([]int, len(tc.shape))
		for f := range sp.size {
			r, off := f, tc.offset
			for k := len(tc.shape) - 1; k >= 0; k-- {
				off += (r % tc.shape[k]) * tc.strides[k]
				r /= tc.shape[k]
			}
			want[f] = src[off]
		}
		for chunk := 1; chunk <= sp.size; chunk++ {
			got := make([]int32, sp.size)
			for lo := 0; lo < sp.size; lo += chunk {
				n := min(chunk, sp.size-lo)
				dst := unsafe.Pointer(&got[lo])
				sp.walk(graph.Layout{Shape: sp.shape, Strides: tc.strides, Offset: tc.offset}, lo, n, idx, func(pos, off, step, cnt int) {
					gatherRun(dst, unsafe.Pointer(&src[0]), 4, pos, off, step, cnt)
				})
			}
			for f := range got {
				if got[f] != want[f] {
					t.Fatalf("shape %v strides %v chunk %d: element %d got:%v want:%v", tc.shape, tc.strides, chunk, f, got[f], want[f])
				}
			}
		}
	}
}
