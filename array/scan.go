// Scans: CumSum, CumProd, CumMax and CumMin along an axis, and their flat
// forms (NumPy's axis=None: the array flattened in row-major order
// first).

package array

import (
	"github.com/fuseflow/fuseflow/graph"
)

func (a *Array) scan(op graph.Op, axis int) *Array {
	return a.derive(graph.Scan(op, nodeFor(a, op.String()), axis))
}

func (a *Array) scanFlat(op graph.Op) *Array {
	x := nodeFor(a, op.String())
	if x.Err() != nil {
		return a.derive(x)
	}
	return a.derive(graph.Scan(op, graph.Reshape(x, graph.Shape{x.Size()}), 0))
}

// CumSum returns the running sum along axis (negative counts from the
// end), as numpy.cumsum: element i along the axis is the sum of elements
// 0..i. Bool and integers narrower than int64 sum in int64; floats keep
// their dtype and add in it, in order. An axis out of range, or a 0-d
// array (use CumSumFlat), gives an Array carrying an error.
//
// A deliberate difference from NumPy: a long lane is scanned in pieces
// on every core (CPU) or in tiles of a block (GPU), so a float running
// sum or product may differ from NumPy's one-after-another value by a
// few units of rounding of the running magnitude (ints are exact;
// CumMax and CumMin are exact).
func (a *Array) CumSum(axis int) *Array { return a.scan(graph.OpCumSum, axis) }

// CumProd is CumSum for the running product (numpy.cumprod).
func (a *Array) CumProd(axis int) *Array { return a.scan(graph.OpCumProd, axis) }

// CumMax returns the running maximum along axis, of a's dtype
// (numpy.maximum.accumulate): once a NaN is met, the rest of the lane is
// NaN.
func (a *Array) CumMax(axis int) *Array { return a.scan(graph.OpCumMax, axis) }

// CumMin is CumMax for the running minimum (numpy.minimum.accumulate).
func (a *Array) CumMin(axis int) *Array { return a.scan(graph.OpCumMin, axis) }

// CumSumFlat returns the running sum of the flattened array, a 1-d result
// of a's size (numpy.cumsum with axis=None).
func (a *Array) CumSumFlat() *Array { return a.scanFlat(graph.OpCumSum) }

// CumProdFlat is CumProd of the flattened array (numpy.cumprod, axis=None).
func (a *Array) CumProdFlat() *Array { return a.scanFlat(graph.OpCumProd) }

// CumMaxFlat is CumMax of the flattened array.
func (a *Array) CumMaxFlat() *Array { return a.scanFlat(graph.OpCumMax) }

// CumMinFlat is CumMin of the flattened array.
func (a *Array) CumMinFlat() *Array { return a.scanFlat(graph.OpCumMin) }
