// Scan loops: for each scan op and element type, the running
// combination of rows of values into a row of accumulators (the chunk
// pass), the fold of rows into it without storing (the totals pass), and
// each op's identity.

package cpu

import (
	"math"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// scanElem is the Go type of a scanned dtype's elements (bool is a byte
// holding 0 or 1).
type scanElem interface {
	~uint8 | ~int32 | ~int64 | ~float32 | ~float64
}

// scanFn runs rows rows of w values: acc[j] = acc[j] op src[r*w+j],
// stored at dst[r*dstStride+j]. acc holds w values of the element type.
// With w == 1 (a scan along rows) the stride must be 1 unless rows is 1.
type scanFn func(acc, src, dst unsafe.Pointer, rows, w, dstStride int)

// foldFnS is scanFn without the stores: acc[j] = acc[j] op src[r*w+j].
type foldFnS func(acc, src unsafe.Pointer, rows, w int)

// scanLoops are one op's loops for one element type, with its identity
// (as stored bits: -0 for a float sum, so that a running sum of -0 is -0
// as in NumPy).
type scanLoops struct {
	scan  scanFn
	fold  foldFnS
	ident uint64
}

// scanTab[op][dtype] holds the loops of each supported scan.
var scanTab = map[graph.Op]map[graph.DType]scanLoops{
	graph.OpCumSum: {
		graph.Int64:   {scanSum[int64], foldSum[int64], 0},
		graph.Float32: {scanSum[float32], foldSum[float32], uint64(math.Float32bits(float32(math.Copysign(0, -1))))},
		graph.Float64: {scanSum[float64], foldSum[float64], math.Float64bits(math.Copysign(0, -1))},
	},
	graph.OpCumProd: {
		graph.Int64:   {scanProd[int64], foldProd[int64], 1},
		graph.Float32: {scanProd[float32], foldProd[float32], uint64(math.Float32bits(1))},
		graph.Float64: {scanProd[float64], foldProd[float64], math.Float64bits(1)},
	},
	graph.OpCumMax: {
		graph.Bool:    {scanMax[uint8], foldMax[uint8], 0},
		graph.Int32:   {scanMax[int32], foldMax[int32], 1 << 31},
		graph.Int64:   {scanMax[int64], foldMax[int64], 1 << 63},
		graph.Float32: {scanMax[float32], foldMax[float32], uint64(math.Float32bits(float32(math.Inf(-1))))},
		graph.Float64: {scanMax[float64], foldMax[float64], math.Float64bits(math.Inf(-1))},
	},
	graph.OpCumMin: {
		graph.Bool:    {scanMin[uint8], foldMin[uint8], 1},
		graph.Int32:   {scanMin[int32], foldMin[int32], math.MaxInt32},
		graph.Int64:   {scanMin[int64], foldMin[int64], math.MaxInt64},
		graph.Float32: {scanMin[float32], foldMin[float32], uint64(math.Float32bits(float32(math.Inf(1))))},
		graph.Float64: {scanMin[float64], foldMin[float64], math.Float64bits(math.Inf(1))},
	},
}

// Sum and Prod also take int32 and bool values where a kernel is given
// them directly (the graph casts them to int64 first); they are not
// listed, so such a kernel is a clear error.
//
// The loops other than foldSum are generated (zscan_loops.go).

//go:generate go run ./internal/scangen

// foldSum adds a lane of one column with four partial sums (the totals
// of pieces; the chunk pass after them adds element by element).
func foldSum[T scanElem](acc, src unsafe.Pointer, rows, w int) {
	a, s := view[T](acc, w), view[T](src, rows*w)
	if w == 1 {
		var p0, p1, p2, p3 T
		i := 0
		for ; i+4 <= len(s); i += 4 {
			p0 += s[i]
			p1 += s[i+1]
			p2 += s[i+2]
			p3 += s[i+3]
		}
		for ; i < len(s); i++ {
			p0 += s[i]
		}
		a[0] += (p0 + p1) + (p2 + p3)
		return
	}
	for r := range rows {
		row := s[r*w : r*w+w]
		for j := range a {
			a[j] += row[j]
		}
	}
}
