// A sort's row offsets: rowOffset's division by multiplication against
// plain division, and the row walk of the networks against rowOffset
// (input, values and indices).

package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/fuseflow/fuseflow/fuse"
)

func TestRowOffsetDivides(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	shapes := [][]int{{1}, {7}, {3, 1, 5}, {65536, 65535}, {1 << 31, 1}, {2, 1<<31 - 1}, {4294967295}, {3, 5, 7, 11}}
	for range 20 {
		shapes = append(shapes, []int{1 + r.IntN(1000), 1 + r.IntN(3), 1 + r.IntN(70000)})
	}
	for _, outer := range shapes {
		sk := &sortKernel{outer: outer, rows: 1}
		for _, e := range outer {
			sk.rows *= e
		}
		sk.divs = rowDivisors(outer, sk.rows)
		plain := &sortKernel{outer: outer, rows: sk.rows}
		strides := make([]int, len(outer))
		for a := range strides {
			strides[a] = r.IntN(1<<20) - 1<<19
		}
		rows := []int{0, 1, sk.rows - 1, sk.rows - 2, sk.rows / 2}
		for range 200 {
			rows = append(rows, r.IntN(sk.rows))
		}
		for _, row := range rows {
			if row < 0 {
				continue
			}
			if got, want := sk.rowOffset(row, 5, strides), plain.rowOffset(row, 5, strides); got != want {
				t.Fatalf("outer %v row %d: got:%d want:%d", outer, row, got, want)
			}
		}
	}
}

func TestRowWalkSteps(t *testing.T) {
	outer := []int{3, 1, 4, 5}
	sk := &sortKernel{outer: outer, rows: 60,
		in:   fuse.Operand{Offset: 7, Strides: []int{100, 9, -20, 3, 1}},
		vals: &fuse.Store{Offset: 11, Strides: []int{-1, 40, 2, 200, 1}},
		idxs: &fuse.Store{Offset: 3, Strides: []int{60, 20, 20, 4, 1}}}
	for start := range sk.rows {
		w := sk.walkFrom(start)
		for row := start; row < sk.rows; row++ {
			wantIn, wantOut, wantIx := sk.rowOffset(row, 7, sk.in.Strides), sk.rowOffset(row, 11, sk.vals.Strides), sk.rowOffset(row, 3, sk.idxs.Strides)
			if w.in != wantIn || w.out != wantOut || w.ix != wantIx {
				t.Fatalf("from %d, row %d: got:%d,%d,%d want:%d,%d,%d", start, row, w.in, w.out, w.ix, wantIn, wantOut, wantIx)
			}
			w.next()
		}
	}
}
