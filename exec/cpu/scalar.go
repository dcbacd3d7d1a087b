// Scalar-operand loops: a binary op one of whose operands is a constant
// (a*2.5, 1-x) takes the constant's bits in a register instead of
// reading a chunk-long register of copies. scalarTab[d][op][k] holds the
// loop whose operand k is the constant (k = 1: a op s, k = 0: s op a) for
// the float ops Add, Sub, Mul and Div, the portable loops here and vector
// ones where an architecture file registers them. Each stores what the
// op's binaryTab loop stores given a register filled with the constant
// (TestScalarLoops), and reads each element before it stores over it.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// scalarFn runs a binary op over n elements of a and the constant whose
// bits (as scalarBits stores them) are s.
type scalarFn func(dst, a unsafe.Pointer, s uint64, n int)

var scalarTab = initScalarTab()

// initScalarTab returns the portable scalar-operand loops (a variable's
// initializer, so that they are in place before any init registers
// vector loops over them).
func initScalarTab() (tab [numDTypes][256][2]scalarFn) {
	for _, d := range []graph.DType{graph.Float32, graph.Float64} {
		t := &tab[d]
		if d == graph.Float32 {
			t[graph.OpAdd] = [2]scalarFn{scalarLoop(addSL[float32]), scalarLoop(addLS[float32])}
			t[graph.OpSub] = [2]scalarFn{scalarLoop(subSL[float32]), scalarLoop(subLS[float32])}
			t[graph.OpMul] = [2]scalarFn{scalarLoop(mulSL[float32]), scalarLoop(mulLS[float32])}
			t[graph.OpDiv] = [2]scalarFn{scalarLoop(divSL[float32]), scalarLoop(divLS[float32])}
			continue
		}
		t[graph.OpAdd] = [2]scalarFn{scalarLoop(addSL[float64]), scalarLoop(addLS[float64])}
		t[graph.OpSub] = [2]scalarFn{scalarLoop(subSL[float64]), scalarLoop(subLS[float64])}
		t[graph.OpMul] = [2]scalarFn{scalarLoop(mulSL[float64]), scalarLoop(mulLS[float64])}
		t[graph.OpDiv] = [2]scalarFn{scalarLoop(divSL[float64]), scalarLoop(divLS[float64])}
	}
	return tab
}

// scalarLoop wraps a typed loop as a scalarFn.
func scalarLoop[T float32 | float64](f func(d, a []T, c T)) scalarFn {
	return func(d, a unsafe.Pointer, s uint64, n int) { f(view[T](d, n), view[T](a, n), fromBits[T](s)) }
}

// The loops: xxSL computes c op x, xxLS x op c.
func addSL[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return c + x }) }
func addLS[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return x + c }) }
func subSL[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return c - x }) }
func subLS[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return x - c }) }
func mulSL[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return c * x }) }
func mulLS[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return x * c }) }
func divSL[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return c / x }) }
func divLS[T floats](d, a []T, c T) { map1(d, a, func(x T) T { return x / c }) }

// fromBits returns the float of type T whose bits scalarBits gave.
func fromBits[T float32 | float64](s uint64) T {
	var v T
	if unsafe.Sizeof(v) == 4 {
		return T(math.Float32frombits(uint32(s)))
	}
	return T(math.Float64frombits(s))
}
