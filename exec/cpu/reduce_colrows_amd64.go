// Multi-row column folds for amd64 CPUs with AVX2
// (reduce_colrows_amd64.s), registered as the colOp.rows of the float
// sums, products, Maximum and Minimum and of bool Any and All: q rows
// fold into a block of states held in registers, so each state is read
// and written once per q rows instead of once per row. They give the
// one-row folds' results exactly.

//go:build amd64 && !purego

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// colRowsAsm folds q rows of stride bytes from p into the states of n
// bytes at st (n a multiple of 32).
type colRowsAsm func(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsAddF32(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsAddF64(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsMulF64(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsMulWidenF32(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsMinF32(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsMaxF32(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsMinF64(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsMaxF64(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsOrB(st, p unsafe.Pointer, n, stride, q int)

//go:noescape
func colRowsAndNzB(st, p unsafe.Pointer, n, stride, q int)

// registerColRows registers the multi-row folds; registerReduceVector
// calls it.
func registerColRows() {
	first := func(st unsafe.Pointer, _ int) unsafe.Pointer { return st }
	// The float32 sum folds its rows into the float32 partial sums.
	part32 := func(st unsafe.Pointer, w int) unsafe.Pointer { return at(st, 2*w, 4) }
	for _, e := range []struct {
		name     string
		op       graph.Op
		d        graph.DType
		v        colRowsAsm
		ses, xes int
		state    func(st unsafe.Pointer, w int) unsafe.Pointer
	}{
		{"column rows sum float32", graph.OpSum, graph.Float32, colRowsAddF32, 4, 4, part32},
		{"column rows sum float64", graph.OpSum, graph.Float64, colRowsAddF64, 8, 8, first},
		{"column rows product float32", graph.OpProd, graph.Float32, colRowsMulWidenF32, 8, 4, first},
		{"column rows product float64", graph.OpProd, graph.Float64, colRowsMulF64, 8, 8, first},
		{"column rows max float32", graph.OpReduceMax, graph.Float32, colRowsMaxF32, 4, 4, first},
		{"column rows min float32", graph.OpReduceMin, graph.Float32, colRowsMinF32, 4, 4, first},
		{"column rows max float64", graph.OpReduceMax, graph.Float64, colRowsMaxF64, 8, 8, first},
		{"column rows min float64", graph.OpReduceMin, graph.Float64, colRowsMinF64, 8, 8, first},
		{"column rows any bool", graph.OpAny, graph.Bool, colRowsOrB, 1, 1, first},
		{"column rows all bool", graph.OpAll, graph.Bool, colRowsAndNzB, 1, 1, first},
	} {
		op := &colTab[e.op][e.d]
		vectorize(e.name, &op.rows, colRowsVec(e.v, op.fold, e.ses, e.xes, e.state))
	}
}

// colRowsVec returns the colOp.rows of the vector fold v (states of ses
// bytes at state(st, w), values of xes bytes) over the columns of whole
// vectors and of the one-row fold over the others.
func colRowsVec(v colRowsAsm, fold func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, row int64), ses, xes int,
	state func(st unsafe.Pointer, w int) unsafe.Pointer) func(st unsafe.Pointer, w int, p unsafe.Pointer, q int) {
	lanes := 32 / ses
	return func(st unsafe.Pointer, w int, p unsafe.Pointer, q int) {
		m := w &^ (lanes - 1)
		if m > 0 {
			v(state(st, w), p, m*ses, w*xes, q)
		}
		if m < w {
			for i := range q {
				fold(st, w, m, at(p, i*w+m, xes), w-m, 0)
			}
		}
	}
}
