// The lowering of reductions whose order is free: a reduction over every
// axis, or over a block of axes, of a permuted input reads the input in
// memory order (its load is contiguous in the executor's space) unless it
// is ArgMax or ArgMin, whose index counts in the logical order; and a
// Sum or Prod of int32 or bool values widened to int64 folds the narrow
// values (the cast is gone from the prologue).

package cpu

import (
	"slices"
	"testing"

	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// lowerOne plans y, which must be one Reduce kernel, and lowers it.
func lowerOne(t *testing.T, y *graph.Node) (*fuse.Kernel, *redKernel) {
	t.Helper()
	if err := y.Err(); err != nil {
		t.Fatal(err)
	}
	p, err := fuse.Build([]*graph.Node{y}, graph.InputLayouts(y))
	if err != nil {
		t.Fatal(err)
	}
	var k *fuse.Kernel
	for i := range p.Kernels {
		if p.Kernels[i].Reduce() != nil {
			if k != nil {
				t.Fatalf("%v: more than one reduce kernel", y.Op())
			}
			k = &p.Kernels[i]
		}
	}
	if k == nil {
		t.Fatalf("%v: no reduce kernel", y.Op())
	}
	rk, err := lowerReduce(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, rk
}

func TestReduceMemoryOrder(t *testing.T) {
	x2 := graph.Input(graph.Float32, graph.Shape{40, 30}, "x")
	x3 := graph.Input(graph.Int32, graph.Shape{6, 5, 40}, "y")
	b := graph.Input(graph.Bool, graph.Shape{70, 9}, "b")
	cases := []struct {
		name   string
		y      *graph.Node
		contig bool // the prologue's loads read runs of consecutive elements in the executor's order
	}{
		{"sum T all", graph.Reduce(graph.OpSum, graph.Permute(x2, []int{1, 0}), nil, false), true},
		{"max T all", graph.Reduce(graph.OpReduceMax, graph.Permute(x2, []int{1, 0}), nil, false), true},
		{"any T all", graph.Reduce(graph.OpAny, graph.Permute(b, []int{1, 0}), nil, false), true},
		{"prod T all keepdims", graph.Reduce(graph.OpProd, graph.Permute(x2, []int{1, 0}), nil, true), true},
		{"min 3-D perm all", graph.Reduce(graph.OpReduceMin, graph.Permute(x3, []int{2, 0, 1}), nil, false), true},
		{"sum 3-D perm axes 1,2", graph.Reduce(graph.OpSum, graph.Permute(x3, []int{0, 2, 1}), []int{1, 2}, false), true},
		{"all 3-D perm axes 0,1", graph.Reduce(graph.OpAll, graph.Permute(graph.Binary(graph.OpGt, x3, graph.Const(graph.ScalarInt(graph.Int32, 0))), []int{1, 0, 2}), []int{0, 1}, false), true},
		{"sum contiguous", graph.Reduce(graph.OpSum, x2, nil, false), true},
		// A reduced axis read backwards is turned around, except for ArgMax.
		{"all rev1 ax1", graph.Reduce(graph.OpAll, graph.Slice(b, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}}), []int{1}, false), true},
		{"sum rev0 all", graph.Reduce(graph.OpSum, graph.Slice(x2, []graph.Range{{Step: -1, NoStart: true, NoStop: true}}), nil, false), true},
		{"argmax rev1 ax1", graph.Reduce(graph.OpArgMax, graph.Slice(x2, []graph.Range{graph.All, {Step: -1, NoStart: true, NoStop: true}}), []int{1}, false), false},
		// A kept axis with unit stride goes inside though it is not last.
		{"argmax T 3-D last axis", graph.Reduce(graph.OpArgMax, graph.Permute(x3, []int{2, 1, 0}), []int{2}, false), true},
		{"sum T 3-D middle axis", graph.Reduce(graph.OpSum, graph.Permute(x3, []int{2, 1, 0}), []int{1}, false), true},
	}
	for _, c := range cases {
		k, rk := lowerOne(t, c.y)
		contig := true // every load reads runs of consecutive elements
		for _, st := range rk.pro.steps {
			if st.kind == fuse.InstrLoad {
				lay := rk.pro.opds[st.opd].lay
				contig = contig && (rk.pro.opds[st.opd].contig || lay.Strides[len(lay.Strides)-1] == 1)
			}
		}
		if contig != c.contig {
			t.Errorf("%s: kernel %s space %v: contiguous load got:%v want:%v", c.name, k.Name, k.Space, contig, c.contig)
		}
	}
	// A load read at every point outweighs one broadcast over the
	// reduced axis (a shift subtracted, as Var's): the transposed input's
	// unit-stride axis goes inside, not the shift's.
	xf := graph.Input(graph.Float64, graph.Shape{6, 5, 40}, "xf")
	shift := graph.Input(graph.Float64, graph.Shape{40, 1, 6}, "c")
	y := graph.Reduce(graph.OpSum, graph.Binary(graph.OpSub, graph.Permute(xf, []int{2, 1, 0}), shift), []int{1}, false)
	k, rk := lowerOne(t, y)
	for _, st := range rk.pro.steps {
		if st.kind != fuse.InstrLoad || slices.ContainsFunc(k.Reduce().Axes, func(a int) bool { return k.Operands[st.opd].Strides[a] == 0 }) {
			continue // the shift
		}
		if lay := rk.pro.opds[st.opd].lay; lay.Strides[len(lay.Strides)-1] != 1 {
			t.Errorf("x - shift: the input's innermost stride got:%d want:1 (space %v strides %v)", lay.Strides[len(lay.Strides)-1], k.Space, k.Operands[st.opd].Strides)
		}
	}
	// The graph reduces ArgMax over one axis (a flattened input is a
	// copy), so a kernel that folds an arg reduction with others over two
	// axes of a transposed operand is written here: it keeps the logical
	// order.
	for _, ops := range [][]graph.Op{{graph.OpReduceMax}, {graph.OpArgMax}, {graph.OpSum, graph.OpArgMin}} {
		rk, err := lowerReduce(handReduce(ops))
		if err != nil {
			t.Fatal(err)
		}
		want := len(ops) == 1 && ops[0] == graph.OpReduceMax
		if got := rk.pro.opds[0].contig; got != want {
			t.Errorf("%v over a transposed operand: contiguous load got:%v want:%v", ops, got, want)
		}
	}
}

// handReduce is a Reduce kernel of ops over both axes of a (40, 30)
// float32 space whose operand is a transposed (30, 40) array.
func handReduce(ops []graph.Op) *fuse.Kernel {
	rs := &fuse.ReduceSpec{Axes: []int{0, 1}, Body: []fuse.Instr{{Kind: fuse.InstrLoad, DType: graph.Float32}}}
	k := &fuse.Kernel{Name: "hand", Space: []int{40, 30}, Spec: rs,
		Operands: []fuse.Operand{{Buffer: 0, DType: graph.Float32, Strides: []int{1, 40}}}}
	for j, op := range ops {
		d := graph.Float32
		if op == graph.OpArgMax || op == graph.OpArgMin {
			d = graph.Int64
		}
		rs.Reductions = append(rs.Reductions, fuse.Reduction{Op: op, Value: 0, DType: d})
		rs.Epilogue = append(rs.Epilogue, fuse.Instr{Kind: fuse.InstrAcc, DType: d, Acc: j})
		k.Stores = append(k.Stores, fuse.Store{Value: j, Buffer: 1 + j, DType: d, Strides: []int{0, 0}})
	}
	return k
}

func TestReduceFoldNarrow(t *testing.T) {
	xi := graph.Input(graph.Int32, graph.Shape{50, 30}, "x")
	xb := graph.Input(graph.Bool, graph.Shape{50, 30}, "b")
	xf := graph.Input(graph.Float32, graph.Shape{50, 30}, "f")
	cases := []struct {
		name   string
		y      *graph.Node
		narrow graph.DType // dtype the first reduction folds
	}{
		{"sum i32 all", graph.Reduce(graph.OpSum, xi, nil, false), graph.Int32},
		{"sum i32 rows", graph.Reduce(graph.OpSum, xi, []int{1}, false), graph.Int32},
		{"prod i32 cols", graph.Reduce(graph.OpProd, xi, []int{0}, false), graph.Int32},
		{"sum bool", graph.Reduce(graph.OpSum, xb, []int{1}, false), graph.Bool},
		{"max i32", graph.Reduce(graph.OpReduceMax, xi, nil, false), graph.Int32},
		{"sum f32", graph.Reduce(graph.OpSum, xf, nil, false), graph.Float32},
		// The widened value is read by the multiply too: it stays.
		{"sum i32*i64", graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, xi, graph.Const(graph.ScalarInt(graph.Int64, 3))), nil, false), graph.Int64},
	}
	for _, c := range cases {
		k, rk := lowerOne(t, c.y)
		if rk.vdt[0] != c.narrow {
			t.Errorf("%s: kernel %s folds got:%v want:%v", c.name, k.Name, rk.vdt[0], c.narrow)
		}
		for i, st := range rk.pro.steps {
			if st.kind == fuse.InstrOp && st.op == graph.OpCast && c.narrow != graph.Int64 {
				t.Errorf("%s: kernel %s: step %d is a cast to %v", c.name, k.Name, i, st.dt)
			}
		}
	}
}

// TestScanFoldNarrow checks that a running sum or product of int32 or
// bool values scans them narrow (no cast left in the prologue), and
// that one whose widened value feeds something else keeps the cast.
func TestScanFoldNarrow(t *testing.T) {
	xi := graph.Input(graph.Int32, graph.Shape{50, 30}, "x")
	xb := graph.Input(graph.Bool, graph.Shape{50, 30}, "b")
	cases := []struct {
		name string
		y    *graph.Node
		ses  int // bytes of a scanned value
	}{
		{"cumsum i32", graph.Scan(graph.OpCumSum, xi, 1), 4},
		{"cumsum i32 ax0", graph.Scan(graph.OpCumSum, xi, 0), 4},
		{"cumprod i32", graph.Scan(graph.OpCumProd, xi, 1), 4},
		{"cumsum bool", graph.Scan(graph.OpCumSum, xb, 0), 1},
		{"cummax i32", graph.Scan(graph.OpCumMax, xi, 1), 4},
		{"cumsum i32*i64", graph.Scan(graph.OpCumSum, graph.Binary(graph.OpMul, xi, graph.Const(graph.ScalarInt(graph.Int64, 3))), 1), 8},
	}
	for _, c := range cases {
		p, err := fuse.Build([]*graph.Node{c.y}, graph.InputLayouts(c.y))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i := range p.Kernels {
			k := &p.Kernels[i]
			if k.Scan() == nil {
				continue
			}
			found = true
			sk, err := lowerScan(k)
			if err != nil {
				t.Fatal(err)
			}
			if sk.ses != c.ses {
				t.Errorf("%s: scanned value bytes got:%d want:%d", c.name, sk.ses, c.ses)
			}
			for i, st := range sk.pro.steps {
				if st.kind == fuse.InstrOp && st.op == graph.OpCast && c.ses < 8 {
					t.Errorf("%s: step %d is a cast to %v", c.name, i, st.dt)
				}
			}
		}
		if !found {
			t.Fatalf("%s: no scan kernel", c.name)
		}
	}
}

// TestReduceSpread checks which reductions run spread around their kept
// axes (reduce_spread.go): order-free ones over axes outside and inside
// the kept ones in memory, with enough inner points; not ArgMax, not a
// block of trailing axes, not short inner runs.
func TestReduceSpread(t *testing.T) {
	x := graph.Input(graph.Float64, graph.Shape{7, 9, 70}, "x")
	short := graph.Input(graph.Float64, graph.Shape{7, 9, 50}, "s")
	cases := []struct {
		name   string
		y      *graph.Node
		spread bool
	}{
		{"max ax02", graph.Reduce(graph.OpReduceMax, x, []int{0, 2}, false), true},
		{"sum ax02 keepdims", graph.Reduce(graph.OpSum, x, []int{0, 2}, true), true},
		{"any ax02", graph.Reduce(graph.OpAny, graph.Binary(graph.OpGt, x, graph.FloatConst(graph.Float64, 0)), []int{0, 2}, false), true},
		{"sum ax12", graph.Reduce(graph.OpSum, x, []int{1, 2}, false), false},
		{"sum ax02 short runs", graph.Reduce(graph.OpSum, short, []int{0, 2}, false), false},
		{"argmax ax2", graph.Reduce(graph.OpArgMax, x, []int{2}, false), false},
	}
	for _, c := range cases {
		k, rk := lowerOne(t, c.y)
		if got := rk.spread != nil; got != c.spread {
			t.Errorf("%s: kernel space %v axes %v: spread got:%v want:%v", c.name, k.Space, k.Reduce().Axes, got, c.spread)
		}
	}
}
