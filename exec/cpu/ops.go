// The elementwise loop tables, derived from the op table of
// internal/opdef: unaryTab[d][op], binaryTab[d][op] and castTab[from][to]
// hold, for each op and operand dtype opdef defines, the loop of
// loops.go where there is one and otherwise a loop calling the op's
// scalar function on each element. Predicates and comparisons write
// bool, every other entry its operand dtype. Where selects by element
// size.

package cpu

import (
	"fmt"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

var (
	unaryTab  [numDTypes][256]unaryFn
	binaryTab [numDTypes][256]binaryFn
	castTab   [numDTypes][numDTypes]unaryFn
)

// loopDTypes are the dtypes the tables cover.
// Ops run on these (fuse computes the narrow dtypes in their lanes); casts
// cover every dtype.
var loopDTypes = []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Uint64, graph.Float32, graph.Float64}

// initOpTabs fills the tables with the scalar loops (see tables.go). An
// opdef function of a type no loop here takes is a broken invariant and
// panics.
func initOpTabs() {
	for _, op := range opdef.Ops() {
		def := opdef.Lookup(op)
		for _, d := range loopDTypes {
			fn := def.Fns.Get(d)
			if fn == nil {
				continue
			}
			if op.Class() == graph.ClassUnary {
				unaryTab[d][op] = fastUnary[op][d]
				if unaryTab[d][op] == nil {
					unaryTab[d][op] = mustLoop(fnLoop1(fn), fn)
				}
			} else {
				binaryTab[d][op] = fastBinary[op][d]
				if binaryTab[d][op] == nil {
					binaryTab[d][op] = mustLoop(fnLoop2(fn), fn)
				}
			}
		}
	}
	for _, from := range graph.DTypes() {
		for _, to := range graph.DTypes() {
			castTab[from][to] = fastCast[from][to]
			if castTab[from][to] == nil {
				castTab[from][to] = castLoops[from][to]
			}
			if castTab[from][to] == nil {
				panic(fmt.Sprintf("cpu: no cast loop from %v to %v", from, to))
			}
		}
	}
}

// mustLoop returns l, the loop made of the scalar function fn, or panics
// when there is none.
func mustLoop[L unaryFn | binaryFn](l L, fn any) L {
	if l == nil {
		panic(fmt.Sprintf("cpu: no loop for an op function of type %T", fn))
	}
	return l
}

// fnLoop1 returns a loop applying a unary scalar function of opdef's
// types to each element (nil for another type).
func fnLoop1(fn any) unaryFn {
	switch f := fn.(type) {
	case opdef.Wide:
		return unary(func(d, a []float32) {
			d = d[:len(a)]
			for i, x := range a {
				d[i] = float32(f(float64(x)))
			}
		})
	case func(bool) bool:
		return unary(func(d, a []uint8) { map1(d, a, func(x uint8) uint8 { return b2u(f(x != 0)) }) })
	}
	for _, l := range []unaryFn{fnLoop1Of[int32](fn), fnLoop1Of[int64](fn), fnLoop1Of[uint64](fn), fnLoop1Of[float32](fn), fnLoop1Of[float64](fn)} {
		if l != nil {
			return l
		}
	}
	return nil
}

func fnLoop1Of[T nums](fn any) unaryFn {
	switch f := fn.(type) {
	case func(T) T:
		return unary(func(d, a []T) { map1(d, a, f) })
	case func(T) bool:
		return unary(func(d []uint8, a []T) { map1(d, a, func(x T) uint8 { return b2u(f(x)) }) })
	}
	return nil
}

// fnLoop2 is fnLoop1 for binary functions.
func fnLoop2(fn any) binaryFn {
	switch f := fn.(type) {
	case opdef.Wide2:
		return binary(func(d, a, b []float32) {
			d, b = d[:len(a)], b[:len(a)]
			for i, x := range a {
				d[i] = float32(f(float64(x), float64(b[i])))
			}
		})
	case func(a, b bool) bool:
		return binary(func(d, a, b []uint8) {
			map2(d, a, b, func(x, y uint8) uint8 { return b2u(f(x != 0, y != 0)) })
		})
	}
	for _, l := range []binaryFn{fnLoop2Of[int32](fn), fnLoop2Of[int64](fn), fnLoop2Of[uint64](fn), fnLoop2Of[float32](fn), fnLoop2Of[float64](fn)} {
		if l != nil {
			return l
		}
	}
	return nil
}

func fnLoop2Of[T nums](fn any) binaryFn {
	switch f := fn.(type) {
	case func(a, b T) T:
		return binary(func(d, a, b []T) { map2(d, a, b, f) })
	case func(a, b T) bool:
		return binary(func(d []uint8, a, b []T) { map2(d, a, b, func(x, y T) uint8 { return b2u(f(x, y)) }) })
	}
	return nil
}

// whereTab[size] selects by element size (1, 4 or 8 bytes): where only
// moves bits.
var whereTab = [9]whereFn{1: where[uint8], 2: where[uint16], 4: where[uint32], 8: where[uint64]}

// where runs backward, so that the destination may also be the (one-byte)
// condition: a store then covers only conditions already read.
func where[T uint8 | uint16 | uint32 | uint64](d, c, a, b unsafe.Pointer, n int) {
	dv, cv, av, bv := view[T](d, n), view[uint8](c, n), view[T](a, n), view[T](b, n)
	for i := n - 1; i >= 0; i-- {
		if cv[i] != 0 {
			dv[i] = av[i]
		} else {
			dv[i] = bv[i]
		}
	}
}
