// Tests of rowIndependent: which accesses of a run of kernels to the
// buffers it writes keep the run independent along the leading axis.

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
	}{
		{"per-row value read back broadcast along the row", []fuse.Kernel{
			rowMax,
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1), opd(1, 0, 1, 0)}, st(2, 0, C, 1)),
		}, true},
		{"two values per row in one window", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(1, 0, 2), st(1, 1, 2)),
			kern([]int{R, 2}, []fuse.Operand{opd(1, 0, 2, 1)}, st(3, 0, 1, 0)),
		}, true},
		{"input read across rows (transposed, broadcast)", []fuse.Kernel{
			rowMax,
			kern([]int{R, R}, []fuse.Operand{opd(0, 0, 1, C), opd(0, 3, 0, 1), opd(1, 0, 1, 0)}, st(2, 0, R, 1)),
		}, true},
		{"result of row 0 broadcast to every row", []fuse.Kernel{
			rowMax,
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1), opd(1, 0, 0, 0)}, st(2, 0, C, 1)),
		}, false},
		{"result read transposed", []fuse.Kernel{
			kern([]int{R, R}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, R, 1)),
			kern([]int{R, R}, []fuse.Operand{opd(1, 0, 1, R)}, st(2, 0, R, 1)),
		}, false},
		{"result read at the next row", []fuse.Kernel{
			rowMax,
			kern([]int{R - 1, C}, []fuse.Operand{opd(1, 1, 1, 0)}, st(2, 0, C, 1)),
		}, false},
		{"temp reused with another row stride", []fuse.Kernel{
			kern([]int{R}, []fuse.Operand{opd(0, 0, C)}, st(1, 0, 2), st(1, 1, 2)),
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, 1, 0)),
		}, false},
		{"row footprint wider than the row stride", []fuse.Kernel{
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, 0, C/2, 1)),
		}, false},
		{"kernel reads the buffer it writes (in place)", []fuse.Kernel{
			rowMax,
			kern([]int{R, C}, []fuse.Operand{opd(2, 0, C, 1), opd(1, 0, 1, 0)}, st(2, 0, C, 1)),
		}, false},
		{"rows stored backwards", []fuse.Kernel{
			kern([]int{R, C}, []fuse.Operand{opd(0, 0, C, 1)}, st(1, (R-1)*C, -C, 1)),
		}, false},
	} {
		p := &fuse.Plan{Kernels: c.ks}
		ks := make([]int, len(c.ks))
		for i := range ks {
			ks[i] = i
		}
		if got := rowIndependent(p, ks); got != c.want {
			t.Errorf("%s: got:%v want:%v", c.name, got, c.want)
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
