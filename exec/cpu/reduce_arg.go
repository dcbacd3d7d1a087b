// Row ArgMax and ArgMin: the extreme of a chunk first (the vector row
// extremes where they are registered), then the first element equal to
// it (or the first NaN) by a scan that stops there. A chunk's winner
// replaces the state only when strictly better, so the first index of
// the extreme wins across chunks too, and the first NaN wins over all.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// eqIndex32 and eqIndex64 return the first index of x in r, or len(r).
// They are variables so that vector versions (reduce_amd64.go) can take
// their place.
var (
	eqIndex32 = eqIndexGo[float32]
	eqIndex64 = eqIndexGo[float64]
)

// argIndex32 and argIndex64 ([0] ArgMax, [1] ArgMin), where set, return
// the first index of the extreme of a row of at least argVecMin values
// in one pass, or ok false when the row holds a NaN. Vector versions
// (reduce_arg_amd64.go) set them; the portable path makes two passes.
var (
	argIndex32 [2]func(r []float32) (k int, ok bool)
	argIndex64 [2]func(r []float64) (k int, ok bool)
)

// argVecMin is the shortest row argIndex32 and argIndex64 take: one
// iteration of their lanes.
const argVecMin = 32

// argTail continues the search for the first extreme of r from element
// m, with b the best value and k its index so far; ok is false when the
// tail holds a NaN.
func argTail[T floats](isMax bool, r []T, m int, b T, k int) (int, bool) {
	for j := m; j < len(r); j++ {
		x := r[j]
		switch {
		case x != x:
			return 0, false
		case isMax && x > b, !isMax && x < b:
			b, k = x, j
		}
	}
	return k, true
}

func eqIndexGo[T elems](r []T, x T) int {
	for k, v := range r {
		if v == x {
			return k
		}
	}
	return len(r)
}

// argRowF folds a chunk of floats into an ArgMax (isMax) or ArgMin state.
func argRowF[T floats](isMax bool) foldFn {
	return func(s *accum, p unsafe.Pointer, n int, pos int64) {
		argChunkF[T](isMax, new(accum), s, p, n, pos)
	}
}

// argChunkF folds the n floats at p, the first at position pos, into
// the ArgMax (isMax) or ArgMin state s; e is scratch for the extreme (a
// state passed to a row fold escapes, so callers that fold many rows
// keep one).
func argChunkF[T floats](isMax bool, e, s *accum, p unsafe.Pointer, n int, pos int64) {
	if n == 0 {
		return
	}
	d, ext, init := graph.Float64, graph.OpReduceMin, math.Inf(1)
	if _, ok := any(T(0)).(float32); ok {
		d = graph.Float32
	}
	if isMax {
		ext, init = graph.OpReduceMax, math.Inf(-1)
	}
	v := view[T](p, n)
	which := 1
	if isMax {
		which = 0
	}
	if n >= argVecMin {
		var k int
		ok, vec := false, false
		switch r := any(v).(type) {
		case []float32:
			if f := argIndex32[which]; f != nil {
				k, ok = f(r)
				vec = true
			}
		case []float64:
			if f := argIndex64[which]; f != nil {
				k, ok = f(r)
				vec = true
			}
		}
		if vec {
			if !ok { // the first NaN
				for k = 0; v[k] == v[k]; k++ {
				}
			}
			if x := float64(v[k]); s.x < 0 || better(isMax, x, s.f) {
				s.f, s.x = x, pos+int64(k)
			}
			return
		}
	}
	*e = accum{f: init}
	foldTab[ext][d](e, p, n, 0)
	var k int
	switch {
	case e.f != e.f:
		for k = 0; v[k] == v[k]; k++ {
		}
	case d == graph.Float32:
		k = eqIndex32(any(v).([]float32), float32(e.f))
	default:
		k = eqIndex64(any(v).([]float64), e.f)
	}
	if x := float64(v[k]); s.x < 0 || better(isMax, x, s.f) {
		s.f, s.x = x, pos+int64(k)
	}
}

// argRowI folds a chunk of integers or bools into an ArgMax (isMax) or
// ArgMin state: the extreme by four independent chains, then its first
// index.
func argRowI[T ints | ~uint8](isMax bool) foldFn {
	return func(s *accum, p unsafe.Pointer, n int, pos int64) {
		if n == 0 {
			return
		}
		v := view[T](p, n)
		a0, a1, a2, a3 := v[0], v[0], v[0], v[0]
		r := v
		for len(r) >= 4 {
			w := r[:4:4]
			if isMax {
				a0, a1, a2, a3 = max(a0, w[0]), max(a1, w[1]), max(a2, w[2]), max(a3, w[3])
			} else {
				a0, a1, a2, a3 = min(a0, w[0]), min(a1, w[1]), min(a2, w[2]), min(a3, w[3])
			}
			r = r[4:]
		}
		for _, x := range r {
			if isMax {
				a0 = max(a0, x)
			} else {
				a0 = min(a0, x)
			}
		}
		e := max(max(a0, a1), max(a2, a3))
		if !isMax {
			e = min(min(a0, a1), min(a2, a3))
		}
		k := eqIndexGo(v, e)
		if x := int64(e); s.x < 0 || (isMax && x > s.i) || (!isMax && x < s.i) {
			s.i, s.x = x, pos+int64(k)
		}
	}
}
