// Row blocks: many whole rows of at most a chunk reduced by one call that
// writes their results, without a state, a fold call and a finish per row
// (the cost that dominates rows of a few values). Each row is reduced
// as the row folds of reduce_ops.go and reduce_arg.go reduce it from an
// empty state, so the results are the same bits, except that a float32
// row of 8 is summed as a float64 tree (within the same bound) and that
// rows shorter than argShort take ArgMax and ArgMin in one pass without
// branches on the data (the same indices).

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// rowsFn reduces rows consecutive rows of r values at p and writes each
// row's result to dst (an array of the reduction's result dtype).
type rowsFn func(dst, p unsafe.Pointer, r, rows int)

// rowsTab[op][d] is the row-block loop of op over values of dtype d, or
// nil where foldRows serves; rowsOut[op][d] is the result dtype it
// writes.
var (
	rowsTab [256][numDTypes]rowsFn
	rowsOut [256][numDTypes]graph.DType
)

// foldRows is the row-block loop of reduction op of values of dtype vd
// into results of dtype out by the row fold f, where no loop of rowsTab
// serves: one state, reset per row.
func foldRows(op graph.Op, vd, out graph.DType, f foldFn) rowsFn {
	init := initAccum(op, vd)
	es, os := vd.Size(), out.Size()
	return func(dst, p unsafe.Pointer, r, rows int) {
		s := new(accum) // one per call: a state passed to f escapes
		for i := range rows {
			*s = init
			f(s, at(p, i*r, es), r, 0)
			finish(op, out, s, at(dst, i, os))
		}
	}
}

// argShort is the row length below which ArgMax and ArgMin scan once.
const argShort = 32

func initRowsTab() {
	rowsFloat[float32](graph.Float32)
	rowsFloat[float64](graph.Float64)
	rowsTab[graph.OpAny][graph.Bool] = anyRowsBytes
	rowsTab[graph.OpAll][graph.Bool] = allRowsBytes
	rowsOut[graph.OpAny][graph.Bool] = graph.Bool
	rowsOut[graph.OpAll][graph.Bool] = graph.Bool
}

func rowsFloat[T floats](d graph.DType) {
	set := func(op graph.Op, out graph.DType, f rowsFn) {
		rowsTab[op][d], rowsOut[op][d] = f, out
	}
	set(graph.OpSum, d, sumRows[T])
	set(graph.OpProd, d, prodRows[T])
	set(graph.OpReduceMax, d, maxRows[T])
	set(graph.OpReduceMin, d, minRows[T])
	set(graph.OpArgMax, graph.Int64, argRows[T](true))
	set(graph.OpArgMin, graph.Int64, argRows[T](false))
}

func sumRows[T floats](dst, p unsafe.Pointer, r, rows int) {
	out, v := view[T](dst, rows), view[T](p, r*rows)
	if r == 8 {
		// Float64: sumRowF's eight partial sums, each of one value (-0 +
		// x is x). Float32: the same tree in float64 (sumRowF adds rows
		// shorter than a block in order; the tree errs no more).
		for i := range out {
			w := v[8*i : 8*i+8 : 8*i+8]
			out[i] = T(((float64(w[0]) + float64(w[1])) + (float64(w[2]) + float64(w[3]))) +
				((float64(w[4]) + float64(w[5])) + (float64(w[6]) + float64(w[7]))))
		}
		return
	}
	if r < 8 {
		for i := range out {
			a := negZero
			for _, x := range v[r*i : r*i+r] {
				a += float64(x)
			}
			out[i] = T(a)
		}
		return
	}
	fold, s := rowFold(graph.OpSum, v), new(accum) // one state: it escapes
	for i := range out {
		*s = accum{f: negZero}
		fold(s, unsafe.Pointer(&v[r*i]), r, 0)
		out[i] = T(s.f)
	}
}

// rowFold returns the row fold of op over v's dtype (the vector loop
// where one is registered).
func rowFold[T floats](op graph.Op, v []T) foldFn {
	if _, f32 := any(v).([]float32); f32 {
		return foldTab[op][graph.Float32]
	}
	return foldTab[op][graph.Float64]
}

// prodRows: a row shorter than prodChains in order, as prodRowF; a
// longer one by the row fold.
func prodRows[T floats](dst, p unsafe.Pointer, r, rows int) {
	out, v := view[T](dst, rows), view[T](p, r*rows)
	if r >= prodChains {
		fold, s := rowFold(graph.OpProd, v), new(accum)
		for i := range out {
			*s = accum{f: 1}
			fold(s, unsafe.Pointer(&v[r*i]), r, 0)
			out[i] = T(s.f)
		}
		return
	}
	for i := range out {
		a := 1.0
		for _, x := range v[r*i : r*i+r] {
			a *= float64(x)
		}
		out[i] = T(a)
	}
}

// maxRows and minRows: a row of fewer than 8 values in float64 from the
// empty state, as maxRowF and minRowF; a longer one by the row fold.
func maxRows[T floats](dst, p unsafe.Pointer, r, rows int) {
	out, v := view[T](dst, rows), view[T](p, r*rows)
	if r >= 8 {
		fold, s := rowFold(graph.OpReduceMax, v), new(accum)
		for i := range out {
			*s = accum{f: math.Inf(-1)}
			fold(s, unsafe.Pointer(&v[r*i]), r, 0)
			out[i] = T(s.f)
		}
		return
	}
	for i := range out {
		a := math.Inf(-1)
		for _, x := range v[r*i : r*i+r] {
			a = max(a, float64(x))
		}
		out[i] = T(a)
	}
}

func minRows[T floats](dst, p unsafe.Pointer, r, rows int) {
	out, v := view[T](dst, rows), view[T](p, r*rows)
	if r >= 8 {
		fold, s := rowFold(graph.OpReduceMin, v), new(accum)
		for i := range out {
			*s = accum{f: math.Inf(1)}
			fold(s, unsafe.Pointer(&v[r*i]), r, 0)
			out[i] = T(s.f)
		}
		return
	}
	for i := range out {
		a := math.Inf(1)
		for _, x := range v[r*i : r*i+r] {
			a = min(a, float64(x))
		}
		out[i] = T(a)
	}
}

// argRows writes each row's first index of its extreme, or of its first
// NaN (r > 0).
func argRows[T floats](isMax bool) rowsFn {
	return func(dst, p unsafe.Pointer, r, rows int) {
		out, v := view[int64](dst, rows), view[T](p, r*rows)
		if r >= argShort {
			var e, s accum
			for i := range out {
				s = accum{x: -1}
				argChunkF[T](isMax, &e, &s, unsafe.Pointer(&v[r*i]), r, 0)
				out[i] = s.x
			}
			return
		}
		for i := range out {
			out[i] = argScan(isMax, v[r*i:r*i+r])
		}
	}
}

// argScan returns the first index of the extreme of w, or of its first
// NaN (len(w) > 0). The running extreme follows Go's max (min), which
// turns NaN once a NaN is seen; the index moves to every value not
// below (above) it, a conditional move rather than a branch, so with a
// NaN it ends past the first and a second scan finds that.
func argScan[T floats](isMax bool, w []T) int64 {
	b, k := w[0], 0
	if isMax {
		for j := 1; j < len(w); j++ {
			x := w[j]
			if !(x <= b) {
				k = j
			}
			b = max(b, x)
		}
	} else {
		for j := 1; j < len(w); j++ {
			x := w[j]
			if !(x >= b) {
				k = j
			}
			b = min(b, x)
		}
	}
	if b != b {
		for j, x := range w {
			if x != x {
				return int64(j)
			}
		}
	}
	return int64(k)
}

func anyRowsBytes(dst, p unsafe.Pointer, r, rows int) {
	out, v := view[byte](dst, rows), view[byte](p, r*rows)
	if r == 8 {
		for i := range out {
			out[i] = b2u(le64(v[8*i:]) != 0)
		}
		return
	}
	scan := anyByteGo
	if r >= 128 {
		scan = anyByte
	}
	for i := range out {
		out[i] = b2u(scan(v[r*i : r*i+r]))
	}
}

func allRowsBytes(dst, p unsafe.Pointer, r, rows int) {
	out, v := view[byte](dst, rows), view[byte](p, r*rows)
	if r == 8 {
		for i := range out {
			out[i] = b2u(nonzero(le64(v[8*i:])) == hi1)
		}
		return
	}
	for i := range out {
		out[i] = b2u(allBytes(v[r*i : r*i+r]))
	}
}
