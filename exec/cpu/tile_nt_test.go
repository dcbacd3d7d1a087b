// Tests of the non-temporal tile stores: scatterRowsNT against the plain
// scatter at every alignment of the rows and ragged row lengths, and
// tiled programs whose every store takes them.

package cpu

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

func TestScatterRowsNT(t *testing.T) {
	if ntStore.copy == nil {
		t.Skip("no non-temporal stores on this CPU or path")
	}
	for _, es := range []int{4, 8} {
		for _, cols := range []int{1, 3, 15, 16, 17, 33, 128, 131} {
			for _, sr := range []int{cols, cols + 5, -(cols + 7)} {
				for off0 := range 17 {
					rows := 5
					off := off0
					if sr < 0 {
						off += (rows - 1) * -sr
					}
					size := off + (rows-1)*max(sr, 0) + cols + 16
					src := make([]byte, rows*cols*es)
					for i := range src {
						src[i] = byte(i*7 + 3)
					}
					// 64-byte aligned buffers, so that off0 sets the rows' alignment.
					got, want := alignedBytes(size*es), alignedBytes(size*es)
					scatterRowsNT(unsafe.Pointer(&got[0]), unsafe.Pointer(&src[0]), es, off, sr, rows, cols)
					scatterTile(unsafe.Pointer(&want[0]), unsafe.Pointer(&src[0]), es, off, sr, 1, rows, cols)
					if string(got) != string(want) {
						t.Fatalf("es=%d cols=%d sr=%d off=%d: got:%v want:%v", es, cols, sr, off, got, want)
					}
				}
			}
		}
	}
}

func alignedBytes(n int) []byte {
	b := make([]byte, n+64)
	a := int(-uintptr(unsafe.Pointer(&b[0])) & 63)
	return b[a : a+n : a+n]
}

// TestTiledMapNT runs the transposed pairings of TestTiledMap with every
// tiled store taking non-temporal stores.
func TestTiledMapNT(t *testing.T) {
	if ntStore.copy == nil {
		t.Skip("no non-temporal stores on this CPU or path")
	}
	defer func(old int) { ntMinBytes = old }(ntMinBytes)
	ntMinBytes = 0
	xs := []viewSpec{viewSpecs[1], viewSpecs[2], viewSpecs[3], viewSpecs[6]}
	for _, d := range []graph.DType{graph.Float32, graph.Int64} {
		for _, shape := range [][]int{{37, 53}, {70, 64}, {3, 40, 33}, {41, 3}, {9, 120, 20}} {
			for _, chunk := range []int{0, 300} {
				for _, xv := range xs {
					for _, sv := range []viewSpec{viewSpecs[0], viewSpecs[4], viewSpecs[6]} {
						name := fmt.Sprintf("%v/%v/chunk=%d/%s+dense->%s", d, shape, chunk, xv.name, sv.name)
						tiledCase(t, name, d, shape, xv, viewSpecs[0], sv, true, chunk)
					}
				}
			}
		}
	}
}
