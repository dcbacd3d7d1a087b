// Tests of rowSplit: which accesses of a run of kernels to the buffers
// it writes keep the run independent along the leading axis, and which
// temps it splits by value.

package cpu

import (
	"testing"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

func TestRowIndependent(t *testing.T) {
	const R, C = 8, 16
	f32 := graph.Float32
	opd := func(buf, off int, strides ...int) fuse.Operand {
		return fuse.Operand{Buffer: buf, DType: f32, Offset: off, Strides: strides}
	}
	st := func(buf, off int, strides ...int) fuse.Store {
		return fuse.Store{Buffer: buf, DType: f32, Offset: off, Strides: strides}
	}
	kern := func(space []int, opds []fuse.Operand, stores ...fuse.Store) fuse.Kernel {
		return fuse.Kernel{Space: space, Operands: opds, Stores: stores}
	}
	rowMax := kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, 1, 0))
	for _, c := range []struct {
		name string
		ks   []fuse.Kernel
		want bool
		// moved is the number of new buffers (values moved off a temp).
		moved int
	}{
		{"per-row value read back broadcast along the row", []fuse.Kernel{
			rowMax,
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1), opd(1, 0, 1, 0)}, st(2, 0, C, 1)),
		}, true, 0},
		{"two values per row in one window", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(1, 0, 2), st(1, 1, 2)),
			kern([]int{R, 2}, []fuse.Operand{opd(1, 0, 2, 1)}, st(3, 0, 1, 0)),
		}, true, 0},
		{"input read across rows (transposed, broadcast)", []fuse.Kernel{
			rowMax,
			kern([]int{R, R}, []fuse.Operand{opd(0, 0, 1, C), opd(0, 3, 0, 1), opd(1, 0, 1, 0)}, st(2, 0, R, 1)),
		}, true, 0},
		{"result of row 0 broadcast to every row", []fuse.Kernel{
			rowMax,
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1), opd(1, 0, 0, 0)}, st(2, 0, C, 1)),
		}, false, 0},
		{"result read transposed", []fuse.Kernel{
			kern([]int{R, R}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, R, 1)),
			kern([]int{R, R}, []fuse.Operand{opd(1, 0, 1, R)}, st(2, 0, R, 1)),
		}, false, 0},
		{"result read at the next row", []fuse.Kernel{
			rowMax,
			kern([]int{R - 1, C}, []fuse.Operand{opd(1, 1, 1, 0)}, st(2, 0, C, 1)),
		}, false, 0},
		{"temp reused with another row stride: split", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(1, 0, 2), st(1, 1, 2)),
			kern([]int{R, 2}, []fuse.Operand{opd(1, 0, 2, 1)}, st(2, 0, 1, 0)),
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1), opd(2, 0, 1, 0)}, st(1, 0, 1, 0)),
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1), opd(1, 0, 1, 0)}, st(3, 0, C, 1)),
		}, true, 1},
		{"result reused with another row stride", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(4, 0, 2), st(4, 1, 2)),
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(4, 0, 1, 0)),
		}, false, 0},
		{"temp read in another row stride than it was written", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(1, 0, 2), st(1, 1, 2)),
			kern([]int{R}, []fuse.Operand{opd(1, 0, 1)}, st(3, 0, 1)),
		}, false, 0},
		{"temp value not written whole before another stride", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(1, 0, 2)),
			kern([]int{R}, []fuse.Operand{opd(1, 0, 2)}, st(2, 0, 1)),
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, 1, 0)),
		}, false, 0},
		{"row footprint wider than the row stride", []fuse.Kernel{
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, C/2, 1)),
		}, false, 0},
		{"kernel reads the buffer it writes (in place)", []fuse.Kernel{
			rowMax,
			kern([]int{R, C}, []fuse.Operand{opd(2, 0, C, 1), opd(1, 0, 1, 0)}, st(2, 0, C, 1)),
		}, false, 0},
		{"rows stored backwards", []fuse.Kernel{
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, (R-1)*C, -C, 1)),
		}, false, 0},
	} {
		p := &fuse.Plan{Kernels: c.ks, Buffers: []fuse.Buffer{{Kind: fuse.BufInput}, {Kind: fuse.BufTemp}, {Kind: fuse.BufTemp}, {Kind: fuse.BufResult}, {Kind: fuse.BufResult}}}
		ks := make([]int, len(c.ks))
		for i := range ks {
			ks[i] = i
		}
		moves, from, got := rowSplit(p, ks)
		if got != c.want || len(from) != c.moved {
			t.Errorf("%s: got:%v, %d moved want:%v, %d moved", c.name, got, len(from), c.want, c.moved)
		}
		if got && len(moves) == 0 != rowIndependent(p, ks) {
			t.Errorf("%s: rowIndependent got:%v want:%v", c.name, !(len(moves) == 0), len(moves) == 0)
		}
	}
}

func TestFloorDiv(t *testing.T) {
	for _, c := range []struct{ a, b, want int }{{7, 2, 3}, {-7, 2, -4}, {-8, 2, -4}, {0, 5, 0}, {-1, 5, -1}} {
		if got := floorDiv(c.a, c.b); got != c.want {
			t.Errorf("floorDiv(%d, %d) got:%v want:%v", c.a, c.b, got, c.want)
		}
	}
}
