package gemm_test

import (
	"fmt"

	"github.com/fuseflow/fuseflow/internal/gemm"
)

// A product with a fused epilogue: C = max(A·B + bias, 0), the bias and
// the activation applied to each tile of C while it is in cache.
func Example() {
	a := gemm.Matrix[float32]{Data: []float32{1, 2, 3, 4, 5, 6}, Stride: 3}  // 2×3
	b := gemm.Matrix[float32]{Data: []float32{1, 0, -1, 1, 2, 0}, Stride: 2} // 3×2
	bias := []float32{-5, 0.5}
	c := make([]float32, 4)
	opt := &gemm.Options[float32]{Epilogue: func(t gemm.Tile[float32]) {
		for r := range t.Rows {
			row := t.Data[r*t.Stride:][:t.Cols]
			for j := range row {
				row[j] = max(row[j]+bias[t.Col+j], 0)
			}
		}
	}}
	if err := gemm.Mul(2, 2, 3, a, b, c, 2, opt); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	// Output: [0 2.5 6 5.5]
}
