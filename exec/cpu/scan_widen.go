// Widened integer running sums and products read narrow: the graph adds
// and multiplies int32 and bool values in int64 (NumPy's dtypes), so a
// Scan kernel's prologue casts them to int64 (a pass over every point
// into a frame register, twice where the scan takes two passes) before
// the loops add them. Loops that take the int32 or bool values and run
// int64 accumulators give the same int64 results, so a kernel whose
// scanned value is such a cast, read by nothing else, scans the narrow
// value directly and the cast becomes a constant that costs nothing per
// chunk.

package cpu

import (
	"slices"
	"unsafe"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// scanNarrow[op][d] are the loops of op over values of the narrow dtype d
// (int32, or bool as 0 and 1) with int64 accumulators and results.
var scanNarrow = map[graph.Op]map[graph.DType]scanLoops{
	graph.OpCumSum: {
		graph.Int32: {scanSumWide[int32], foldSumWide[int32], 0},
		graph.Bool:  {scanSumWide[uint8], foldSumWide[uint8], 0},
	},
	graph.OpCumProd: {
		graph.Int32: {scanProdWide[int32], foldProdWide[int32], 1},
		graph.Bool:  {scanProdWide[uint8], foldProdWide[uint8], 1},
	},
}

// narrowScan returns the spec s with its scanned value replaced by the
// int32 or bool operand of the int64 cast it is, where scanNarrow has
// loops for it and nothing else reads the cast (the cast turned into a
// constant), the loops and the narrow dtype; or s itself and false.
func narrowScan(s *fuse.ScanSpec) (*fuse.ScanSpec, scanLoops, graph.DType, bool) {
	if s.DType != graph.Int64 || s.Value < 0 || s.Value >= len(s.Body) {
		return s, scanLoops{}, 0, false
	}
	in := s.Body[s.Value]
	if in.Kind != fuse.InstrOp || in.Op != graph.OpCast || len(in.Args) != 1 {
		return s, scanLoops{}, 0, false
	}
	a := in.Args[0]
	d := s.Body[a].DType
	loops, ok := scanNarrow[s.Op][d]
	if !ok {
		return s, scanLoops{}, 0, false
	}
	for _, o := range s.Body {
		if slices.Contains(o.Args, s.Value) {
			return s, scanLoops{}, 0, false
		}
	}
	ns := *s
	ns.Body = slices.Clone(s.Body)
	ns.Body[s.Value] = fuse.Instr{Kind: fuse.InstrConst, DType: graph.Int64, Value: graph.ScalarInt(graph.Int64, 0)}
	ns.Value = a
	return &ns, loops, d, true
}

// scanSumWide is scanSum of narrow values S into int64 accumulators.
func scanSumWide[S int32 | uint8](acc, src, dst unsafe.Pointer, rows, w, ds int) {
	a, s := view[int64](acc, w), view[S](src, rows*w)
	if w == 1 {
		d := view[int64](dst, rows)[:len(s)]
		x := a[0]
		for r, v := range s {
			x += int64(v)
			d[r] = x
		}
		a[0] = x
		return
	}
	for r := range rows {
		d := view[int64](unsafe.Add(dst, r*ds*8), w)
		row := s[r*w : r*w+w]
		for j := range a {
			a[j] += int64(row[j])
			d[j] = a[j]
		}
	}
}

// foldSumWide is foldSum of narrow values S into int64 accumulators
// (exact in any order: int64 addition wraps).
func foldSumWide[S int32 | uint8](acc, src unsafe.Pointer, rows, w int) {
	a, s := view[int64](acc, w), view[S](src, rows*w)
	if w == 1 {
		a[0] = sumInt(a[0], s)
		return
	}
	for r := range rows {
		row := s[r*w : r*w+w]
		for j := range a {
			a[j] += int64(row[j])
		}
	}
}

// scanProdWide is scanProd of narrow values S into int64 accumulators.
func scanProdWide[S int32 | uint8](acc, src, dst unsafe.Pointer, rows, w, ds int) {
	a, s := view[int64](acc, w), view[S](src, rows*w)
	if w == 1 {
		d := view[int64](dst, rows)[:len(s)]
		x := a[0]
		for r, v := range s {
			x *= int64(v)
			d[r] = x
		}
		a[0] = x
		return
	}
	for r := range rows {
		d := view[int64](unsafe.Add(dst, r*ds*8), w)
		row := s[r*w : r*w+w]
		for j := range a {
			a[j] *= int64(row[j])
			d[j] = a[j]
		}
	}
}

// foldProdWide is foldProd of narrow values S into int64 accumulators.
func foldProdWide[S int32 | uint8](acc, src unsafe.Pointer, rows, w int) {
	a, s := view[int64](acc, w), view[S](src, rows*w)
	if w == 1 {
		a[0] = prodInt(a[0], s)
		return
	}
	for r := range rows {
		row := s[r*w : r*w+w]
		for j := range a {
			a[j] *= int64(row[j])
		}
	}
}
