// Column folds: the state of a reduction at W adjacent output points kept
// as typed arrays (a float64 sum per column, a float32 maximum, the best
// value and its row for ArgMax), a whole row of W values folded into it
// at a time. A row of a row-major block is contiguous, so the folds read
// memory front to back and keep their states in L1; the float64 sums and
// products and float Maximum and Minimum run the elementwise vector
// loops, the float32 sums and products widening vector loops.
//
// Float64 sums and float products accumulate in float64 in row order,
// float32 sums in float32 over 16 rows at a time and the 16-row totals in
// float64 (the error bound of the row sum), integers in int64; ArgMax
// and ArgMin keep the first extreme and the first NaN.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// colOp folds rows into the states of W columns. A state region is
// words*W 8-byte words; init empties W states, load folds the first row
// (n values at p, from row row, into states k0 to k0+n-1 <= W) into
// empty states, fold folds a later row, and read returns state k as an
// accum.
//
// A state with decided (Any and All) may stop folding rows once every
// state is decided.
//
// A state with flush (the float32 sum) keeps part of itself in a short
// accumulator: the caller flushes states 0 to n-1 after every colFlush
// rows and before reading them.
type colOp struct {
	words int
	init  func(st unsafe.Pointer, w int)
	load  func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, row int64)
	fold  func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, row int64)
	read  func(st unsafe.Pointer, w, k int) accum
	flush func(st unsafe.Pointer, w, n int)
	// decided (Any and All) reports whether states 0 to n-1 are all
	// decided: no later row can change them.
	decided func(st unsafe.Pointer, n int) bool
	// collect (bool Any and All), where set, writes the bool results of
	// columns 0 to cols-1 to dst, each combining the states k, o2+k, ...
	// of the m sub-rows of a super-row.
	collect func(st unsafe.Pointer, m, o2, cols int, dst unsafe.Pointer)
	// rows, where set, folds q whole rows of w values, row i at p+i*w
	// values, into the w states as q calls of fold would (the same
	// bits); it is never the first row.
	rows func(st unsafe.Pointer, w int, p unsafe.Pointer, q int)
	// results, where set (float Sum, Prod, Maximum, Minimum), writes the
	// results of columns 0 to cols-1 as float32 or float64 (out) to dst,
	// as read, combine and finish would: each combines the states k,
	// o2+k, ... of the m sub-rows of a super-row in float64.
	results func(st unsafe.Pointer, m, o2, cols int, dst unsafe.Pointer, out graph.DType)
	// merge folds states 0 to n-1 of src, which cover rows after those
	// of dst (both flushed), into dst's, as combine folds their accums.
	merge func(dst, src unsafe.Pointer, w, n int)
}

// colFlush is the number of rows a float32 column sum adds in float32
// before its partial sums join the float64 totals: the 16-term partial
// sums of the row sum (reduce_ops.go), with the same error bound.
const colFlush = 16

// sum32State is the float32 column sum: float64 totals in the first W
// words, float32 partial sums of up to colFlush rows after them. The
// partial sums start at -0, so that a column of -0s sums to -0.
func sum32State() colOp {
	part := func(st unsafe.Pointer, w, k0 int) unsafe.Pointer { return at(st, 2*w+k0, 4) }
	reset := func(p unsafe.Pointer, n int) { setAll(p, n, float32(negZero)) }
	return colOp{
		words: 2,
		init: func(st unsafe.Pointer, w int) {
			setAll(st, w, negZero)
			reset(part(st, w, 0), w)
		},
		load: func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, _ int64) {
			copy(view[float32](part(st, w, k0), n), view[float32](p, n))
		},
		fold: func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, _ int64) {
			q := part(st, w, k0)
			binaryTab[graph.Float32][graph.OpAdd](q, q, p, n)
		},
		read: func(st unsafe.Pointer, _, k int) accum { return accum{f: *(*float64)(at(st, k, 8))} },
		flush: func(st unsafe.Pointer, w, n int) {
			addWiden32(view[float64](st, n), view[float32](part(st, w, 0), n))
			reset(part(st, w, 0), n)
		},
		merge: func(dst, src unsafe.Pointer, _, n int) {
			binaryTab[graph.Float64][graph.OpAdd](dst, dst, src, n)
		},
		results: floatResults[float64](graph.OpSum),
	}
}

var colTab [256][numDTypes]colOp

// initColTab fills colTab for every reduction and dtype.
func initColTab() {
	colFloat[float32](graph.Float32)
	colFloat[float64](graph.Float64)
	colInt[uint8](graph.Bool)
	colInt[int32](graph.Int32)
	colInt[int64](graph.Int64)
}

// f64State is a state of one float64 per column starting at init,
// merged by the float64 elementwise loop mop (Add or Mul).
func f64State[T floats](init float64, mop graph.Op, step func(a []float64, x []T)) colOp {
	c := wideState(init, step, func(dst, src unsafe.Pointer, n int) {
		binaryTab[graph.Float64][mop](dst, dst, src, n)
	})
	c.results = floatResults[float64](map[graph.Op]graph.Op{graph.OpAdd: graph.OpSum, graph.OpMul: graph.OpProd}[mop])
	return c
}

// wideState is a state of one S per column (a float64 or an int64, read
// as accum.f or accum.i) starting at init: the first row is converted to
// S, later ones folded by step, and merge folds n states of a later
// range into dst's.
func wideState[S float64 | int64, T elems](init S, step func(a []S, x []T), merge func(dst, src unsafe.Pointer, n int)) colOp {
	return colOp{
		words: 1,
		init:  func(st unsafe.Pointer, w int) { setAll(st, w, init) },
		load: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			a := view[S](at(st, k0, 8), n)
			for k, x := range view[T](p, n) {
				a[k] = S(x)
			}
		},
		fold: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			step(view[S](at(st, k0, 8), n), view[T](p, n))
		},
		read: func(st unsafe.Pointer, _, k int) accum {
			if f, ok := any(*(*S)(at(st, k, 8))).(float64); ok {
				return accum{f: f}
			}
			return accum{i: int64(*(*S)(at(st, k, 8)))}
		},
		merge: func(dst, src unsafe.Pointer, _, n int) { merge(dst, src, n) },
	}
}

// setAll sets the n values of type T at p to v.
func setAll[T any](p unsafe.Pointer, n int, v T) {
	s := view[T](p, n)
	for k := range s {
		s[k] = v
	}
}

// sameState is a state of one T per column, folded by the elementwise
// loop op of the operand dtype d (Maximum or Minimum).
func sameState[T floats](d graph.DType, op graph.Op, init T) colOp {
	es := int(unsafe.Sizeof(init))
	return colOp{
		words: 1,
		init:  func(st unsafe.Pointer, w int) { setAll(st, w, init) },
		load: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			copy(view[T](at(st, k0, es), n), view[T](p, n))
		},
		fold: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			s := at(st, k0, es)
			binaryTab[d][op](s, s, p, n)
		},
		read: func(st unsafe.Pointer, _, k int) accum {
			return accum{f: float64(*(*T)(at(st, k, es)))}
		},
		merge: func(dst, src unsafe.Pointer, _, n int) {
			binaryTab[d][op](dst, dst, src, n)
		},
		results: floatResults[T](map[graph.Op]graph.Op{graph.OpMax: graph.OpReduceMax, graph.OpMin: graph.OpReduceMin}[op]),
	}
}

// floatResults returns the colOp.results of reduction op over states of
// one S per column.
func floatResults[S floats](op graph.Op) func(st unsafe.Pointer, m, o2, cols int, dst unsafe.Pointer, out graph.DType) {
	return func(st unsafe.Pointer, m, o2, cols int, dst unsafe.Pointer, out graph.DType) {
		v := view[S](st, (m-1)*o2+cols)
		if out == graph.Float32 {
			colResults(op, v, m, o2, view[float32](dst, cols))
			return
		}
		colResults(op, v, m, o2, view[float64](dst, cols))
	}
}

// colResults writes to d the float64 combination (op) of the states k,
// o2+k, ..., (m-1)*o2+k of v, for each column k, rounded to O.
func colResults[S, O floats](op graph.Op, v []S, m, o2 int, d []O) {
	switch op {
	case graph.OpSum:
		for k := range d {
			a := float64(v[k])
			for i := 1; i < m; i++ {
				a += float64(v[i*o2+k])
			}
			d[k] = O(a)
		}
	case graph.OpProd:
		for k := range d {
			a := float64(v[k])
			for i := 1; i < m; i++ {
				a *= float64(v[i*o2+k])
			}
			d[k] = O(a)
		}
	case graph.OpReduceMax:
		for k := range d {
			a := float64(v[k])
			for i := 1; i < m; i++ {
				a = max(a, float64(v[i*o2+k]))
			}
			d[k] = O(a)
		}
	case graph.OpReduceMin:
		for k := range d {
			a := float64(v[k])
			for i := 1; i < m; i++ {
				a = min(a, float64(v[i*o2+k]))
			}
			d[k] = O(a)
		}
	}
}

func colFloat[T floats](d graph.DType) {
	colTab[graph.OpSum][d] = f64State(negZero, graph.OpAdd, func(a []float64, x []T) {
		x64 := any(x).([]float64)
		binaryTab[graph.Float64][graph.OpAdd](unsafe.Pointer(&a[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&x64[0]), len(a))
	})
	if d == graph.Float32 {
		colTab[graph.OpSum][d] = sum32State()
	}
	colTab[graph.OpProd][d] = f64State(1, graph.OpMul, func(a []float64, x []T) {
		switch x := any(x).(type) {
		case []float64:
			binaryTab[graph.Float64][graph.OpMul](unsafe.Pointer(&a[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&x[0]), len(a))
		case []float32:
			mulWiden32(a, x)
		}
	})
	colTab[graph.OpReduceMax][d] = sameState(d, graph.OpMax, T(math.Inf(-1)))
	colTab[graph.OpReduceMin][d] = sameState(d, graph.OpMin, T(math.Inf(1)))
	colTab[graph.OpArgMax][d] = argState[T](true, true)
	colTab[graph.OpArgMin][d] = argState[T](false, true)
	colTab[graph.OpAny][d] = boolState[T](true)
	colTab[graph.OpAll][d] = boolState[T](false)
}

// addWiden32 adds each x[k] to a[k] in float64. It is a variable so that
// a vector version (reduce_amd64.go) can take its place; both give the
// same bits.
var addWiden32 = addWiden32Go

func addWiden32Go(a []float64, x []float32) {
	a = a[:len(x)]
	for len(x) >= 4 {
		w, b := x[:4:4], a[:4:4]
		b[0] += float64(w[0])
		b[1] += float64(w[1])
		b[2] += float64(w[2])
		b[3] += float64(w[3])
		x, a = x[4:], a[4:]
	}
	for k, v := range x {
		a[k] += float64(v)
	}
}

// mulWiden32 multiplies each a[k] by x[k] in float64, a variable for
// the same reason as addWiden32.
var mulWiden32 = mulWiden32Go

func mulWiden32Go(a []float64, x []float32) {
	a = a[:len(x)]
	for k, v := range x {
		a[k] *= float64(v)
	}
}

// i64State is a state of one int64 per column, merged by mop.
func i64State[T ints | ~uint8](init int64, mop func(a, b int64) int64, step func(a []int64, x []T)) colOp {
	return wideState(init, step, func(dst, src unsafe.Pointer, n int) {
		a := view[int64](dst, n)
		for k, b := range view[int64](src, n) {
			a[k] = mop(a[k], b)
		}
	})
}

func colInt[T ints | ~uint8](d graph.DType) {
	colTab[graph.OpSum][d] = i64State(0, func(a, b int64) int64 { return a + b }, func(a []int64, x []T) {
		a = a[:len(x)]
		for k, v := range x {
			a[k] += int64(v)
		}
	})
	colTab[graph.OpProd][d] = i64State(1, func(a, b int64) int64 { return a * b }, func(a []int64, x []T) {
		a = a[:len(x)]
		for k, v := range x {
			a[k] *= int64(v)
		}
	})
	colTab[graph.OpReduceMax][d] = i64State(math.MinInt64, func(a, b int64) int64 { return max(a, b) }, func(a []int64, x []T) {
		a = a[:len(x)]
		for k, v := range x {
			a[k] = max(a[k], int64(v))
		}
	})
	colTab[graph.OpReduceMin][d] = i64State(math.MaxInt64, func(a, b int64) int64 { return min(a, b) }, func(a []int64, x []T) {
		a = a[:len(x)]
		for k, v := range x {
			a[k] = min(a[k], int64(v))
		}
	})
	colTab[graph.OpArgMax][d] = argState[T](true, false)
	colTab[graph.OpArgMin][d] = argState[T](false, false)
	colTab[graph.OpAny][d] = boolState[T](true)
	colTab[graph.OpAll][d] = boolState[T](false)
}

// argState keeps each column's best value (a T in the first W words) and
// its row (an int64 in the next W, -1 while empty). A later row replaces
// the best only when strictly better or when it is the first NaN.
func argState[T elems](isMax, float bool) colOp {
	es := int(unsafe.Sizeof(T(0)))
	return colOp{
		words: 2,
		init:  func(st unsafe.Pointer, w int) { setAll(at(st, w, 8), w, int64(-1)) },
		load: func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, row int64) {
			copy(view[T](at(st, k0, es), n), view[T](p, n))
			idx := view[int64](at(st, w+k0, 8), n)
			for k := range idx {
				idx[k] = row
			}
		},
		fold: func(st unsafe.Pointer, w, k0 int, p unsafe.Pointer, n int, row int64) {
			best, idx := view[T](at(st, k0, es), n), view[int64](at(st, w+k0, 8), n)
			which := 1
			if isMax {
				which = 0
			}
			switch b := any(best).(type) {
			case []float32:
				argFold32[which](b, idx, view[float32](p, n), row)
				return
			case []float64:
				argFold64[which](b, idx, view[float64](p, n), row)
				return
			}
			if isMax {
				for k, v := range view[T](p, n) {
					if b := best[k]; v > b || (v != v && b == b) {
						best[k], idx[k] = v, row
					}
				}
				return
			}
			for k, v := range view[T](p, n) {
				if b := best[k]; v < b || (v != v && b == b) {
					best[k], idx[k] = v, row
				}
			}
		},
		read: func(st unsafe.Pointer, w, k int) accum {
			v, x := *(*T)(at(st, k, es)), *(*int64)(at(st, w+k, 8))
			if float {
				return accum{f: float64(v), x: x}
			}
			return accum{i: int64(v), x: x}
		},
		// A later range's best replaces the earlier one only when
		// strictly better or the first NaN, as in combine.
		merge: func(dst, src unsafe.Pointer, w, n int) {
			ab, ax := view[T](dst, n), view[int64](at(dst, w, 8), n)
			bb, bx := view[T](src, n), view[int64](at(src, w, 8), n)
			for k, x := range bx {
				if x < 0 {
					continue
				}
				a, b := ab[k], bb[k]
				if ax[k] < 0 || (a == a && (b != b || (isMax && b > a) || (!isMax && b < a))) {
					ab[k], ax[k] = b, x
				}
			}
		},
	}
}

// argFold32 and argFold64 fold row x (row number row) into the float
// column states best and idx of ArgMax (index 0) and ArgMin (1): a value
// strictly better than the best, or the first NaN, replaces it. Vector
// versions take their place where the CPU has them (reduce_amd64.go);
// all give the same states.
var (
	argFold32 = [2]func(best []float32, idx []int64, x []float32, row int64){argFoldGo[float32](true), argFoldGo[float32](false)}
	argFold64 = [2]func(best []float64, idx []int64, x []float64, row int64){argFoldGo[float64](true), argFoldGo[float64](false)}
)

func argFoldGo[T float32 | float64](isMax bool) func(best []T, idx []int64, x []T, row int64) {
	if isMax {
		return func(best []T, idx []int64, x []T, row int64) {
			best, idx = best[:len(x)], idx[:len(x)]
			for k, v := range x {
				if b := best[k]; v > b || (v != v && b == b) {
					best[k], idx[k] = v, row
				}
			}
		}
	}
	return func(best []T, idx []int64, x []T, row int64) {
		best, idx = best[:len(x)], idx[:len(x)]
		for k, v := range x {
			if b := best[k]; v < b || (v != v && b == b) {
				best[k], idx[k] = v, row
			}
		}
	}
}

// boolState is Any (or All): one int64 per column, 1 once a value is
// nonzero (0 once one is zero).
func boolState[T elems](isAny bool) colOp {
	init := int64(0)
	if !isAny {
		init = 1
	}
	return colOp{
		words: 1,
		init:  func(st unsafe.Pointer, w int) { setAll(st, w, init) },
		load: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			a := view[int64](at(st, k0, 8), n)
			for k, x := range view[T](p, n) {
				a[k] = int64(b2u(x != 0))
			}
		},
		fold: func(st unsafe.Pointer, _, k0 int, p unsafe.Pointer, n int, _ int64) {
			a := view[int64](at(st, k0, 8), n)
			if isAny {
				for k, x := range view[T](p, n) {
					a[k] |= int64(b2u(x != 0))
				}
				return
			}
			for k, x := range view[T](p, n) {
				a[k] &= int64(b2u(x != 0))
			}
		},
		read: func(st unsafe.Pointer, _, k int) accum { return accum{i: *(*int64)(at(st, k, 8))} },
		decided: func(st unsafe.Pointer, n int) bool {
			for _, a := range view[int64](st, n) {
				if a != init^1 {
					return false
				}
			}
			return true
		},
		merge: func(dst, src unsafe.Pointer, _, n int) {
			a := view[int64](dst, n)
			for k, b := range view[int64](src, n) {
				if isAny {
					a[k] |= b
				} else {
					a[k] &= b
				}
			}
		},
	}
}

// mergeArg folds the ArgMax or ArgMin state b into a when their rows
// interleave (the sub-rows of a block of rows): the better value wins,
// and between equal values (or two NaNs) the earlier row.
func mergeArg(isMax, float bool, a *accum, b accum) {
	switch {
	case b.x < 0:
		return
	case a.x < 0:
		*a = b
		return
	}
	var better, equal bool
	if float {
		an, bn := a.f != a.f, b.f != b.f
		better = !an && (bn || (isMax && b.f > a.f) || (!isMax && b.f < a.f))
		equal = (an && bn) || (!an && !bn && a.f == b.f)
	} else {
		better = (isMax && b.i > a.i) || (!isMax && b.i < a.i)
		equal = a.i == b.i
	}
	if better || (equal && b.x < a.x) {
		*a = b
	}
}
