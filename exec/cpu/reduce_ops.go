// Reduction inner loops: fold a chunk of values into one accumulator (a
// row; the column folds are in reduce_colops.go), combine partial
// accumulators in range order, and write the result.
//
// Float Prod accumulates in float64. Float64 Sum accumulates in float64
// (eight partial sums per row). Float32 Sum adds blocks of 128 values
// with eight float32 partial sums of 16 values each and accumulates the
// block totals in float64, then rounds once, so
// |sum - exact| <= 2^-24*|exact| + 2^-20*sum|x| (the second term from the
// 16-term float32 partial sums; NumPy's pairwise float32 sum of 2^24
// values has the bound 24*2^-24*sum|x|, about 2^-19.4*sum|x|). Float
// Prod multiplies rows of 16 or more values in four interleaved float64
// products (the rounding errors add up as in one chain; only a partial
// product that leaves float64's range can differ). Integer Sum and Prod
// accumulate in int64 with wraparound, in independent chains (exact). Max and Min propagate NaN; ArgMax and ArgMin
// keep the first extreme and the first NaN; Any and All test x != 0.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// accum is the state of one reduction at one output point: f for float
// values, i for integer and bool values (and Any/All), x the index of the
// current winner for ArgMax/ArgMin (-1 before the first element).
type accum struct {
	f float64
	i int64
	x int64
}

type foldFn func(s *accum, p unsafe.Pointer, n int, pos int64)

var foldTab [256][numDTypes]foldFn

var negZero = math.Copysign(0, -1)

// initAccum returns the starting state of op over values of dtype d.
func initAccum(op graph.Op, d graph.DType) accum {
	switch op {
	case graph.OpSum:
		return accum{f: negZero}
	case graph.OpProd:
		return accum{f: 1, i: 1}
	case graph.OpReduceMax:
		return accum{f: math.Inf(-1), i: math.MinInt64}
	case graph.OpReduceMin:
		return accum{f: math.Inf(1), i: math.MaxInt64}
	case graph.OpArgMax, graph.OpArgMin:
		return accum{x: -1}
	case graph.OpAll:
		return accum{i: 1}
	}
	return accum{}
}

// emptyAccum returns the result state of op over an empty selection of
// dtype d: initAccum's, except that a float Sum is +0 (as in NumPy and
// the reference; a fold starts from -0 so that a sum of -0s stays -0).
func emptyAccum(op graph.Op, d graph.DType) accum {
	if op == graph.OpSum {
		return accum{}
	}
	return initAccum(op, d)
}

// initFoldTab fills foldTab and colTab with the scalar loops (see
// tables.go).
func initFoldTab() {
	initColTab()
	foldFloat[float32](graph.Float32)
	foldFloat[float64](graph.Float64)
	foldInt[uint8](graph.Bool)
	foldInt[int32](graph.Int32)
	foldInt[int64](graph.Int64)
	initBoolTab()
	initRowsTab()
}

func foldFloat[T floats](d graph.DType) {
	foldTab[graph.OpSum][d] = sumRowF[T]
	foldTab[graph.OpProd][d] = prodRowF[T]
	foldTab[graph.OpReduceMax][d] = maxRowF[T]
	foldTab[graph.OpReduceMin][d] = minRowF[T]
	foldTab[graph.OpArgMax][d] = argRowF[T](true)
	foldTab[graph.OpArgMin][d] = argRowF[T](false)
	foldTab[graph.OpAny][d] = anyRow[T]
	foldTab[graph.OpAll][d] = allRow[T]
}

func foldInt[T ints | ~uint8](d graph.DType) {
	foldTab[graph.OpSum][d] = func(s *accum, p unsafe.Pointer, n int, _ int64) {
		s.i = sumInt(s.i, view[T](p, n))
	}
	foldTab[graph.OpProd][d] = func(s *accum, p unsafe.Pointer, n int, _ int64) {
		s.i = prodInt(s.i, view[T](p, n))
	}
	foldTab[graph.OpReduceMax][d] = func(s *accum, p unsafe.Pointer, n int, _ int64) {
		s.i = extremeInt(true, s.i, view[T](p, n))
	}
	foldTab[graph.OpReduceMin][d] = func(s *accum, p unsafe.Pointer, n int, _ int64) {
		s.i = extremeInt(false, s.i, view[T](p, n))
	}
	foldTab[graph.OpArgMax][d] = argRowI[T](true)
	foldTab[graph.OpArgMin][d] = argRowI[T](false)
	foldTab[graph.OpAny][d] = anyRow[T]
	foldTab[graph.OpAll][d] = allRow[T]
}

// sumInt adds v to a in int64 with wraparound by four independent
// chains of two values a step (one chain of adds waits on each
// element): the same result as one chain, since wrapping addition is
// associative and commutative.
func sumInt[T ints | ~uint8](a int64, v []T) int64 {
	var c1, c2, c3 int64
	c0 := a
	i := 0
	for ; i+8 <= len(v); i += 8 {
		w := v[i : i+8 : i+8]
		c0 += int64(w[0]) + int64(w[4])
		c1 += int64(w[1]) + int64(w[5])
		c2 += int64(w[2]) + int64(w[6])
		c3 += int64(w[3]) + int64(w[7])
	}
	for _, x := range v[i:] {
		c0 += int64(x)
	}
	return (c0 + c1) + (c2 + c3)
}

// prodInt multiplies a by v in int64 with wraparound by four independent
// chains, the same result as one chain (wrapping multiplication is
// associative and commutative).
func prodInt[T ints | ~uint8](a int64, v []T) int64 {
	c0, c1, c2, c3 := a, int64(1), int64(1), int64(1)
	for len(v) >= 4 {
		w := v[:4:4]
		c0, c1, c2, c3 = c0*int64(w[0]), c1*int64(w[1]), c2*int64(w[2]), c3*int64(w[3])
		v = v[4:]
	}
	for _, x := range v {
		c0 *= int64(x)
	}
	return (c0 * c1) * (c2 * c3)
}

// extremeInt folds v into the Max (isMax) or Min a by eight independent
// chains (one chain of compares and moves waits on each element), the
// same result as one chain.
func extremeInt[T ints | ~uint8](isMax bool, a int64, v []T) int64 {
	var c [8]int64
	for k := range c {
		c[k] = a
	}
	if isMax {
		for len(v) >= 8 {
			w := v[:8:8]
			c[0], c[1], c[2], c[3] = max(c[0], int64(w[0])), max(c[1], int64(w[1])), max(c[2], int64(w[2])), max(c[3], int64(w[3]))
			c[4], c[5], c[6], c[7] = max(c[4], int64(w[4])), max(c[5], int64(w[5])), max(c[6], int64(w[6])), max(c[7], int64(w[7]))
			v = v[8:]
		}
		for _, x := range v {
			c[0] = max(c[0], int64(x))
		}
		return max(max(max(c[0], c[1]), max(c[2], c[3])), max(max(c[4], c[5]), max(c[6], c[7])))
	}
	for len(v) >= 8 {
		w := v[:8:8]
		c[0], c[1], c[2], c[3] = min(c[0], int64(w[0])), min(c[1], int64(w[1])), min(c[2], int64(w[2])), min(c[3], int64(w[3]))
		c[4], c[5], c[6], c[7] = min(c[4], int64(w[4])), min(c[5], int64(w[5])), min(c[6], int64(w[6])), min(c[7], int64(w[7]))
		v = v[8:]
	}
	for _, x := range v {
		c[0] = min(c[0], int64(x))
	}
	return min(min(min(c[0], c[1]), min(c[2], c[3])), min(min(c[4], c[5]), min(c[6], c[7])))
}

// sumRowF adds n values: float64 operands with eight float64 partial
// sums, float32 operands in blocks of 128 (eight float32 partial sums of
// 16 values each) whose totals are added in float64.
func sumRowF[T floats](s *accum, p unsafe.Pointer, n int, _ int64) {
	if f32, ok := any(view[T](p, n)).([]float32); ok {
		s.f = sumBlocks32(s.f, f32)
		return
	}
	v := view[T](p, n)
	a0, a1, a2, a3 := s.f, negZero, negZero, negZero
	a4, a5, a6, a7 := negZero, negZero, negZero, negZero
	for len(v) >= 8 {
		w := v[:8:8]
		a0 += float64(w[0])
		a1 += float64(w[1])
		a2 += float64(w[2])
		a3 += float64(w[3])
		a4 += float64(w[4])
		a5 += float64(w[5])
		a6 += float64(w[6])
		a7 += float64(w[7])
		v = v[8:]
	}
	for _, x := range v {
		a0 += float64(x)
	}
	s.f = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
}

// sumBlock32 is the number of float32 values summed in float32 before
// the block's total joins the float64 sum.
const sumBlock32 = 128

// sumBlocks32 adds v to acc: each block of 128 values is summed by eight
// float32 partial sums of 16 values, and the block totals in float64. A
// float32 partial sum of 16 values errs by at most 15*2^-24 of the sum of
// its magnitudes, so the whole errs by at most 2^-20*sum|x| plus the
// float64 rounding.
//
// It is a variable so that a vector version (asm_amd64.go) can take its
// place; both give the same bits.
var sumBlocks32 = sumBlocks32Go

func sumBlocks32Go(acc float64, v []float32) float64 {
	for len(v) >= sumBlock32 {
		b := v[:sumBlock32:sumBlock32]
		var a0, a1, a2, a3, a4, a5, a6, a7 float32
		for len(b) >= 8 {
			w := b[:8:8]
			a0 += w[0]
			a1 += w[1]
			a2 += w[2]
			a3 += w[3]
			a4 += w[4]
			a5 += w[5]
			a6 += w[6]
			a7 += w[7]
			b = b[8:]
		}
		acc += (float64(a0) + float64(a1) + float64(a2) + float64(a3)) + (float64(a4) + float64(a5) + float64(a6) + float64(a7))
		v = v[sumBlock32:]
	}
	for _, x := range v {
		acc += float64(x)
	}
	return acc
}

// prodRowF multiplies n values in float64: a chunk of at least
// prodChains values by four interleaved products (one chain of
// multiplies waits the multiply's latency on each value), combined as
// (p0*p1)*(p2*p3), a shorter one in order.
func prodRowF[T floats](s *accum, p unsafe.Pointer, n int, _ int64) {
	v := view[T](p, n)
	if len(v) < prodChains {
		a := s.f
		for _, x := range v {
			a *= float64(x)
		}
		s.f = a
		return
	}
	a0, a1, a2, a3 := s.f, 1.0, 1.0, 1.0
	i := 0
	for ; i+4 <= len(v); i += 4 {
		w := v[i : i+4 : i+4]
		a0 *= float64(w[0])
		a1 *= float64(w[1])
		a2 *= float64(w[2])
		a3 *= float64(w[3])
	}
	for _, x := range v[i:] {
		a0 *= float64(x)
	}
	s.f = (a0 * a1) * (a2 * a3)
}

// prodChains is the chunk length from which prodRowF multiplies in four
// chains.
const prodChains = 16

// maxRowF and minRowF keep eight independent extremes in T (exact, and
// eight chains instead of one) and combine them at the end. Go's max and
// min propagate NaN and order +0 above -0, so the result does not depend
// on the order.
func maxRowF[T floats](s *accum, p unsafe.Pointer, n int, _ int64) {
	v := view[T](p, n)
	if len(v) < 8 {
		a := s.f
		for _, x := range v {
			a = max(a, float64(x))
		}
		s.f = a
		return
	}
	a0, a1, a2, a3, a4, a5, a6, a7 := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
	v = v[8:]
	for len(v) >= 8 {
		w := v[:8:8]
		a0, a1, a2, a3 = max(a0, w[0]), max(a1, w[1]), max(a2, w[2]), max(a3, w[3])
		a4, a5, a6, a7 = max(a4, w[4]), max(a5, w[5]), max(a6, w[6]), max(a7, w[7])
		v = v[8:]
	}
	for _, x := range v {
		a0 = max(a0, x)
	}
	s.f = max(s.f, float64(max(max(max(a0, a1), max(a2, a3)), max(max(a4, a5), max(a6, a7)))))
}

func minRowF[T floats](s *accum, p unsafe.Pointer, n int, _ int64) {
	v := view[T](p, n)
	if len(v) < 8 {
		a := s.f
		for _, x := range v {
			a = min(a, float64(x))
		}
		s.f = a
		return
	}
	a0, a1, a2, a3, a4, a5, a6, a7 := v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
	v = v[8:]
	for len(v) >= 8 {
		w := v[:8:8]
		a0, a1, a2, a3 = min(a0, w[0]), min(a1, w[1]), min(a2, w[2]), min(a3, w[3])
		a4, a5, a6, a7 = min(a4, w[4]), min(a5, w[5]), min(a6, w[6]), min(a7, w[7])
		v = v[8:]
	}
	for _, x := range v {
		a0 = min(a0, x)
	}
	s.f = min(s.f, float64(min(min(min(a0, a1), min(a2, a3)), min(min(a4, a5), min(a6, a7)))))
}

// better reports whether v replaces the current best b under ArgMax
// (isMax) or ArgMin, NaN winning and the first NaN staying.
func better(isMax bool, v, b float64) bool {
	switch {
	case b != b:
		return false
	case v != v:
		return true
	case isMax:
		return v > b
	}
	return v < b
}

func anyRow[T elems](s *accum, p unsafe.Pointer, n int, _ int64) {
	for _, x := range view[T](p, n) {
		if x != 0 {
			s.i = 1
			return
		}
	}
}

func allRow[T elems](s *accum, p unsafe.Pointer, n int, _ int64) {
	for _, x := range view[T](p, n) {
		if x == 0 {
			s.i = 0
			return
		}
	}
}

// combine folds the partial state b, which covers a later range, into a.
func combine(op graph.Op, float bool, a *accum, b accum) {
	switch op {
	case graph.OpSum:
		a.f += b.f
		a.i += b.i
	case graph.OpProd:
		a.f *= b.f
		a.i *= b.i
	case graph.OpReduceMax:
		a.f = max(a.f, b.f)
		a.i = max(a.i, b.i)
	case graph.OpReduceMin:
		a.f = min(a.f, b.f)
		a.i = min(a.i, b.i)
	case graph.OpArgMax, graph.OpArgMin:
		isMax := op == graph.OpArgMax
		switch {
		case b.x < 0:
		case a.x < 0:
			*a = b
		case float && better(isMax, b.f, a.f):
			*a = b
		case !float && ((isMax && b.i > a.i) || (!isMax && b.i < a.i)):
			*a = b
		}
	case graph.OpAny:
		a.i |= b.i
	case graph.OpAll:
		a.i &= b.i
	}
}

// finish writes the result of state s of op as dtype d at p.
func finish(op graph.Op, d graph.DType, s *accum, p unsafe.Pointer) {
	if op == graph.OpArgMax || op == graph.OpArgMin {
		*(*int64)(p) = s.x
		return
	}
	switch d {
	case graph.Float32:
		*(*float32)(p) = float32(s.f)
	case graph.Float64:
		*(*float64)(p) = s.f
	case graph.Int64:
		*(*int64)(p) = s.i
	case graph.Int32:
		*(*int32)(p) = int32(s.i)
	case graph.Bool:
		*(*uint8)(p) = b2u(s.i != 0)
	}
}
