// Tests of how MatMul operands map onto internal/gemm's matrices, for
// strides the planner may hand over: every layout gemm reads in place and
// the ones copied densely.

package cpu

import (
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/internal/gemm"
)

func TestGemmOperand(t *testing.T) {
	cases := []struct {
		name       string
		batch      []int
		rows, cols int
		strides    []int // batch..., row, column
		offset     int
		inPlace    bool
	}{
		{"row-major", nil, 5, 7, []int{7, 1}, 0, true},
		{"row-major padded", nil, 5, 7, []int{9, 1}, 3, true},
		{"transposed", nil, 5, 7, []int{1, 5}, 0, true},
		{"transposed padded", nil, 5, 7, []int{1, 8}, 2, true},
		{"one row, column step 3", nil, 1, 7, []int{0, 3}, 0, true},
		{"one row, reversed columns", nil, 1, 7, []int{5, -1}, 6, false},
		{"one column, row step 4", nil, 6, 1, []int{4, 0}, 0, true},
		{"one column, unit rows", nil, 6, 1, []int{1, 9}, 0, true},
		{"one column, broadcast", nil, 6, 1, []int{0, 0}, 3, false},
		{"one column, reversed", nil, 6, 1, []int{-2, 0}, 10, false},
		{"one element", nil, 1, 1, []int{0, 0}, 4, true},
		{"rows overlap", nil, 5, 7, []int{3, 1}, 0, false},
		{"broadcast rows", nil, 5, 7, []int{0, 1}, 0, false},
		{"broadcast columns", nil, 5, 7, []int{1, 0}, 0, false},
		{"reversed rows", nil, 5, 7, []int{-7, 1}, 28, false},
		{"both strides > 1", nil, 4, 3, []int{8, 2}, 0, false},
		{"batch", []int{3}, 4, 5, []int{20, 5, 1}, 0, true},
		{"batch broadcast", []int{3}, 4, 5, []int{0, 5, 1}, 0, true},
		{"batch reversed", []int{3}, 4, 5, []int{-20, 5, 1}, 40, true},
		{"batch 2-d, transposed", []int{2, 3}, 4, 5, []int{0, -20, 1, 4}, 40, true},
		{"batch copied", []int{2, 3}, 4, 5, []int{60, 20, 10, 2}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			buf := make([]float64, 200)
			for i := range buf {
				buf[i] = float64(i)
			}
			m := &mmKernel{batch: newSpace(c.batch)}
			ex := &runState{bases: []unsafe.Pointer{unsafe.Pointer(&buf[0])}}
			o := &fuse.MatOperand{Buffer: 0, Offset: c.offset, Strides: c.strides}
			mat, off := gemmOperand[float64](m, ex, o, c.rows, c.cols)
			d := uintptr(unsafe.Pointer(&mat.Data[0])) - uintptr(unsafe.Pointer(&buf[0]))
			inPlace := d < uintptr(len(buf)*8)
			if inPlace != c.inPlace {
				t.Errorf("read in place got:%v want:%v", inPlace, c.inPlace)
			}
			r := len(c.strides)
			for b := range m.batch.size {
				for i := range c.rows {
					for j := range c.cols {
						want := buf[c.offset+m.batchOffset(o, b)+i*c.strides[r-2]+j*c.strides[r-1]]
						idx := off(b) + i*mat.Stride + j
						if mat.Trans {
							idx = off(b) + j*mat.Stride + i
						}
						if idx < 0 || idx >= len(mat.Data) {
							t.Fatalf("point %d (%d,%d): index %d outside Data of %d", b, i, j, idx, len(mat.Data))
						}
						if got := mat.Data[idx]; got != want {
							t.Fatalf("point %d (%d,%d) got:%v want:%v", b, i, j, got, want)
						}
					}
				}
			}
			// gemm accepts the layout: row sums through a product with
			// a column of ones.
			nb := m.batch.size
			ones := gemm.Matrix[float64]{Data: make([]float64, c.cols), Stride: 1}
			for i := range ones.Data {
				ones.Data[i] = 1
			}
			sums := make([]float64, nb*c.rows)
			bt := gemm.Batch{Count: nb, StrideC: c.rows, Offsets: func(b int) (int, int, int) { return off(b), 0, b * c.rows }}
			if err := gemm.MulBatch(c.rows, 1, c.cols, mat, ones, sums, 1, bt, nil); err != nil {
				t.Fatal(err)
			}
			for b := range nb {
				for i := range c.rows {
					want := 0.0
					for j := range c.cols {
						want += buf[c.offset+m.batchOffset(o, b)+i*c.strides[r-2]+j*c.strides[r-1]]
					}
					if got := sums[b*c.rows+i]; got != want {
						t.Errorf("point %d row %d sum got:%v want:%v", b, i, got, want)
					}
				}
			}
		})
	}
}
