// Vector loops for the strided runs of gatherRun that are common and
// cheap to move as whole vectors: reversed runs (step -1) and every other
// element (step 2). An architecture file registers them by element size
// (gather_amd64.go); without one, or under FUSEFLOW_NOASM, the tables
// stay empty and gatherT copies every run.

package cpu

import "unsafe"

// stridedFn copies n elements, n a positive multiple of the table's
// unit. For a reversed run, src is the lowest element read and dst[i] =
// src[n-1-i]; for step 2, dst[i] = src[2i], reading no element beyond
// src[2n-2].
type stridedFn func(dst, src unsafe.Pointer, n int)

// gatherRevTab and gatherStep2Tab hold the loops by element size, and
// gatherUnit the number of elements they move a round.
var (
	gatherRevTab   [9]stridedFn
	gatherStep2Tab [9]stridedFn
	gatherUnit     = [9]int{4: 8, 8: 4}
)

// gatherVecRun copies the leading whole units of a run of cnt elements
// of es bytes (element offset off, stride step) from src to dst at
// position pos with a vector loop, and returns how many it copied (0
// when no loop applies).
func gatherVecRun(dst, src unsafe.Pointer, es, pos, off, step, cnt int) int {
	u := gatherUnit[es]
	if u == 0 { // no loops for elements of this size
		return 0
	}
	var fn stridedFn
	var m int
	switch step {
	case -1:
		fn, m = gatherRevTab[es], cnt/u*u
		off -= m - 1 // the lowest element read
	case 2:
		// The last round of a loop reads one element past its last
		// output's: leave the last element to the scalar loop.
		fn, m = gatherStep2Tab[es], (cnt-1)/u*u
	}
	if fn == nil || m <= 0 {
		return 0
	}
	fn(unsafe.Add(dst, pos*es), unsafe.Add(src, off*es), m)
	return m
}
