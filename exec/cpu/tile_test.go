// Tests of tiled evaluation: x + y with every pairing of transposed,
// reversed, stepped and broadcast operands and stores, over 2-d and 3-d
// spaces of odd extents, with tiles on and off and several chunk sizes,
// against direct indexing.

package cpu

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// viewSpec lays out a view over a space: order lists the axes from the
// outermost in memory to the innermost, step[k] is the stride multiplier
// of axis k (negative: reversed, 0: broadcast, >1: stepped).
type viewSpec struct {
	name  string
	order func(r int) []int
	step  func(r int) []int
}

func rowMajor(r int) []int {
	o := make([]int, r)
	for i := range o {
		o[i] = i
	}
	return o
}

func colMajor(r int) []int {
	o := rowMajor(r)
	for i, j := 0, r-1; i < j; i, j = i+1, j-1 {
		o[i], o[j] = o[j], o[i]
	}
	return o
}

// rotated puts the last axis outermost (the layout of b.transpose(1, 2, 0)
// read as (i, j, k)).
func rotated(r int) []int { return append([]int{r - 1}, rowMajor(r)[:r-1]...) }

func steps(f func(k, r int) int) func(r int) []int {
	return func(r int) []int {
		s := make([]int, r)
		for k := range s {
			s[k] = f(k, r)
		}
		return s
	}
}

var (
	unit     = steps(func(k, r int) int { return 1 })
	lastRev  = steps(func(k, r int) int { return map[bool]int{true: -1, false: 1}[k == r-1] })
	allRev   = steps(func(k, r int) int { return -1 })
	stepped  = steps(func(k, r int) int { return map[bool]int{true: 3, false: 1}[k == r-1] })
	outerRev = steps(func(k, r int) int { return map[bool]int{true: -2, false: 1}[k == 0] })
	bcastRow = steps(func(k, r int) int { return map[bool]int{true: 0, false: 1}[k == 0] })
	bcastCol = steps(func(k, r int) int { return map[bool]int{true: 0, false: 1}[k == r-1] })
)

var viewSpecs = []viewSpec{
	{"dense", rowMajor, unit},
	{"T", colMajor, unit},
	{"rot", rotated, unit},
	{"T_rev", colMajor, allRev},
	{"rev", rowMajor, lastRev},
	{"step3", rowMajor, stepped},
	{"T_step", colMajor, outerRev},
	{"bcast_row", rowMajor, bcastRow},
	{"bcast_col", rowMajor, bcastCol},
	{"rows_rev", rowMajor, outerRev},
}

// layoutOf returns the strides and offset of v over shape and the size
// of the buffer it needs.
func layoutOf(v viewSpec, shape []int) (strides []int, off, size int) {
	r := len(shape)
	order, step := v.order(r), v.step(r)
	strides = make([]int, r)
	acc := 1
	for i := r - 1; i >= 0; i-- {
		k := order[i]
		m := step[k]
		if m == 0 {
			continue
		}
		am, e := max(m, -m), max(shape[k], 1) // an empty axis lays out as one point
		strides[k] = m * acc
		if m < 0 {
			off += (e - 1) * am * acc
		}
		acc *= (e-1)*am + 1
	}
	return strides, off, acc
}

// TestTiledMap runs x + y for pairings of views of x and y and every
// store view that writes each point once. It pairs every view with
// every view, in float32 and int64, on sixteen spaces (about 16 s); with
// -short or the race detector, every x view with five y views in
// float32 on eight spaces (skinny, empty, long-row and folding 3-d and
// 4-d ones among them). Tiles run with the default fold threshold and
// block edges, with every fold and tileEdge's edges, and not at all.
func TestTiledMap(t *testing.T) {
	shapes := [][]int{{37, 53}, {70, 64}, {5, 19, 23}, {3, 40, 33}, {41, 3}, {33, 2}, {3, 29, 5}, {2, 300, 2}, {0, 9}, {9, 0}, {1, 40}, {40, 1}, {3, 1100}, {9, 7, 40}, {10, 3, 4, 30}, {16, 33, 9}}
	ys := viewSpecs
	dtypes := []graph.DType{graph.Float32, graph.Int64}
	if testing.Short() || raceEnabled {
		shapes = [][]int{{37, 53}, {5, 19, 23}, {41, 3}, {2, 300, 2}, {0, 9}, {3, 1100}, {9, 7, 40}, {10, 3, 4, 30}}
		ys = []viewSpec{viewSpecs[0], viewSpecs[1], viewSpecs[2], viewSpecs[8], viewSpecs[9]}
		dtypes = dtypes[:1]
	}
	for _, d := range dtypes {
		for _, shape := range shapes {
			for _, cfg := range []struct {
				tiles   bool
				chunk   int
				noEdges bool
				fold    int // foldMinStep
			}{{true, 0, false, 4096}, {true, 300, false, 0}, {true, 0, true, 0}, {false, 0, false, 4096}} {
				for _, xv := range viewSpecs {
					for _, yv := range ys {
						for _, sv := range append(viewSpecs[:7:7], viewSpecs[9]) {
							name := fmt.Sprintf("%v/%v/tiles=%v/chunk=%d/noEdges=%v/fold=%d/%s+%s->%s", d, shape, cfg.tiles, cfg.chunk, cfg.noEdges, cfg.fold, xv.name, yv.name, sv.name)
							noBlockEdges, foldMinStep = cfg.noEdges, cfg.fold
							tiledCase(t, name, d, shape, xv, yv, sv, cfg.tiles, cfg.chunk)
							noBlockEdges, foldMinStep = false, 4096
						}
					}
				}
			}
		}
	}
}

func tiledCase(t *testing.T, name string, d graph.DType, shape []int, xv, yv, sv viewSpec, tiles bool, chunk int) {
	t.Helper()
	defer func(old bool) { noTiles = old }(noTiles)
	noTiles = !tiles
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	var pt planT
	tensor := func(v viewSpec, base int64) (int, []int, int, []int64) {
		st, off, size := layoutOf(v, shape)
		x, err := exec.NewTensor(alloc, d, graph.Shape{size})
		require.NoError(t, err)
		vals := make([]int64, size)
		for i := range vals {
			vals[i] = base + int64(i)
			setElem(x, i, vals[i])
		}
		return pt.input(x), st, off, vals
	}
	xb, xs, xo, xvals := tensor(xv, 1)
	yb, ys, yo, yvals := tensor(yv, 100000)
	ss, so, ssize := layoutOf(sv, shape)
	out := len(pt.p.Buffers)
	pt.p.Buffers = append(pt.p.Buffers, fuse.Buffer{Kind: fuse.BufResult, Slot: -1, ElemSize: d.Size(), Elems: ssize, Bytes: int64(ssize * d.Size()), First: 0, Last: 1})
	pt.p.Outputs = append(pt.p.Outputs, fuse.Output{Buffer: out, Layout: graph.ContiguousLayout(d, graph.Shape{ssize})})
	pt.p.Kernels = []fuse.Kernel{{Space: shape,
		Operands: []fuse.Operand{{Buffer: xb, DType: d, Strides: xs, Offset: xo}, {Buffer: yb, DType: d, Strides: ys, Offset: yo}},
		Spec:     &fuse.MapSpec{Body: []fuse.Instr{load(0, d), load(1, d), op(graph.OpAdd, d, 0, 1)}},
		Stores:   []fuse.Store{{Value: 2, Buffer: out, DType: d, Strides: ss, Offset: so}}}}
	res, err := pt.run(context.Background(), New(Options{Chunk: chunk}), alloc)
	require.NoError(t, err, name)
	defer func() {
		for _, x := range append(res, pt.inputs...) {
			x.Release()
		}
	}()
	sp := newSpace(shape)
	idx := make([]int, len(shape))
	for f := range sp.size {
		rem := f
		for k := len(shape) - 1; k >= 0; k-- {
			idx[k] = rem % shape[k]
			rem /= shape[k]
		}
		at := func(st []int, off int) int {
			for k, i := range idx {
				off += i * st[k]
			}
			return off
		}
		want := xvals[at(xs, xo)] + yvals[at(ys, yo)]
		if got := getElem(res[0], at(ss, so)); got != want {
			t.Fatalf("%s: point %v got:%v want:%v", name, idx, got, want)
		}
	}
}

func setElem(t *exec.Tensor, i int, v int64) {
	switch t.DType {
	case graph.Float32:
		exec.Elems[float32](t)[i] = float32(v)
	default:
		exec.Elems[int64](t)[i] = v
	}
}

func getElem(t *exec.Tensor, i int) int64 {
	switch t.DType {
	case graph.Float32:
		return int64(exec.Elems[float32](t)[i])
	default:
		return exec.Elems[int64](t)[i]
	}
}

// TestChooseTiling checks which programs run in tiles: a transposed
// operand or store over a wide enough space, not a contiguous, reversed,
// stepped or broadcast one, nor a space whose last axis has one point,
// nor a batch of transposes whose rows span a few lines; a skinny space
// (last axis of 3 or 8) runs in tiles too.
func TestChooseTiling(t *testing.T) {
	F := graph.Float32
	tests := []struct {
		shape   []int
		strides []int
		want    int // tile row axis, -1 for none
	}{
		{[]int{64, 64}, []int{1, 64}, 0},
		{[]int{64, 64}, []int{-1, 64}, 0},
		{[]int{64, 64}, []int{64, 1}, -1},
		{[]int{64, 64}, []int{64, -1}, -1},
		{[]int{64, 64}, []int{128, 2}, -1},
		{[]int{64, 64}, []int{0, 1}, -1},
		{[]int{64, 64}, []int{1, 0}, -1},
		{[]int{64, 8}, []int{1, 64}, 0},
		{[]int{64, 3}, []int{1, 64}, 0},
		{[]int{64, 1}, []int{1, 64}, -1},
		{[]int{4, 64}, []int{1, 4}, -1},
		{[]int{8, 16, 32}, []int{512, 1, 16}, -1},
		{[]int{2, 32, 4096}, []int{32 * 4096, 1, 32}, 1},
		{[]int{8, 16, 32}, []int{1, 256, 8}, 0},
	}
	for _, tc := range tests {
		sp := newSpace(tc.shape)
		for _, asStore := range []bool{false, true} {
			opd := []fuse.Operand{{Buffer: 0, DType: F, Strides: tc.strides}}
			body := []fuse.Instr{load(0, F)}
			var stores []fuse.Store
			if asStore {
				opd[0].Strides = graph.Shape(tc.shape).ContiguousStrides()
				stores = []fuse.Store{{Value: 0, Buffer: 1, DType: F, Strides: tc.strides}}
			}
			p, err := compile(sp, opd, body, stores, nil, nil)
			require.NoError(t, err)
			got := -1
			if p.tile != nil {
				got = p.tile.ax
			}
			if got != tc.want {
				t.Errorf("shape %v strides %v store %v: tile axis got:%v want:%v", tc.shape, tc.strides, asStore, got, tc.want)
			}
		}
	}
}

// TestChooseTilingFold checks which tilings fold their rows: a short row
// axis whose access continues along another axis where it ends (the
// transpose of a 3-d or 4-d array), and not a long one or an access
// that does not continue.
func TestChooseTilingFold(t *testing.T) {
	F := graph.Float32
	tests := []struct {
		shape    []int
		strides  []int
		ax, ax2  int
		folds    bool // at the default chunk
		gridRows int
	}{
		{[]int{16, 255, 715}, []int{1, 16, 4080}, 0, 1, true, 128},
		{[]int{8, 3, 1000}, []int{1, 8, 24}, 0, -1, false, 8},
		{[]int{8, 3, 1000}, []int{1, 8, 1024}, 0, 1, true, 24},
		{[]int{20, 30, 40, 50}, []int{1, 20, 600, 24000}, 0, 1, true, 320},
		{[]int{172, 172, 172}, []int{1, 172, 29584}, 0, -1, false, 128},
		{[]int{16, 255, 715}, []int{1, 715 * 16, 16}, 0, -1, false, 16},
		{[]int{16, 2, 715}, []int{1, 16, 1024}, 0, 1, true, 32},
	}
	for _, tc := range tests {
		sp := newSpace(tc.shape)
		opd := []fuse.Operand{{Buffer: 0, DType: F, Strides: tc.strides}}
		p, err := compile(sp, opd, []fuse.Instr{load(0, F)}, nil, nil, nil)
		require.NoError(t, err)
		if p.tile == nil || p.tile.ax != tc.ax || p.tile.ax2 != tc.ax2 {
			t.Errorf("shape %v strides %v: tiling got:%+v want:{ax:%d ax2:%d}", tc.shape, tc.strides, p.tile, tc.ax, tc.ax2)
			continue
		}
		g := newTileGrid(sp, p.tile, 65536)
		if folds := g.ax2 >= 0; folds != tc.folds || g.rows != tc.gridRows {
			t.Errorf("shape %v strides %v: grid folds %v rows %d, want:%v %d", tc.shape, tc.strides, folds, g.rows, tc.folds, tc.gridRows)
		}
	}
}
