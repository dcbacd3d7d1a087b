// Index kernels on the IR interpreter against the reference evaluator
// (every gather and scatter over every dtype, int32 and int64 indices,
// repeated indices), the error word of an index out of range, and the
// PTX of each assembled by ptxas for sm_80 and sm_90.

package codegen_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/codegen"
	"github.com/fuseflow/fuseflow/codegen/ir"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/ptxas"
)

// indexGraph is one indexing expression with its bound inputs.
type indexGraph struct {
	name  string
	out   *graph.Node
	bound bindings
}

// indexGraphs builds a gather and a scatter of every kind per dtype with
// indices cycling through [-n, n) (repeats included); bad shifts one
// index out of range.
func indexGraphs(t testing.TB, bad bool) []indexGraph {
	var out []indexGraph
	for _, d := range graph.DTypes() {
		for _, it := range []graph.DType{graph.Int32, graph.Int64} {
			x := graph.Input(d, graph.Shape{6, 7, 3}, "x")
			xt := tensorOf(t, d, x.Shape(), func(i int) float64 { return float64((i*7)%23) - 9 })
			mkIdx := func(s graph.Shape, n int) (*graph.Node, *exec.Tensor) {
				v := graph.Input(it, s, "idx")
				return v, tensorOf(t, it, s, func(i int) float64 {
					if bad && i == s.Size()-2 {
						return float64(n)
					}
					return float64((i*5)%(2*n) - n)
				})
			}
			i1, i1t := mkIdx(graph.Shape{11}, 7)
			i3, i3t := mkIdx(graph.Shape{6, 4, 3}, 7)
			u := graph.Input(d, graph.Shape{6, 11, 3}, "u")
			ut := tensorOf(t, d, u.Shape(), func(i int) float64 { return float64((i*3)%17) - 5 })
			add := func(name string, n *graph.Node, b bindings) {
				require.NoError(t, n.Err(), name)
				out = append(out, indexGraph{fmt.Sprintf("%s/%v/%v", name, d, it), n, b})
			}
			add("take", graph.Take(x, i1, 1), bindings{x: xt, i1: i1t})
			add("takealong", graph.TakeAlong(x, i3, 1), bindings{x: xt, i3: i3t})
			add("put", graph.Scatter(graph.OpScatter, x, i1, u, 1), bindings{x: xt, i1: i1t, u: ut})
			add("scattermax", graph.Scatter(graph.OpScatterMax, x, i1, u, 1), bindings{x: xt, i1: i1t, u: ut})
			if d != graph.Bool {
				add("scatteradd", graph.Scatter(graph.OpScatterAdd, x, i1, u, 1), bindings{x: xt, i1: i1t, u: ut})
			}
		}
	}
	// NaN and a NaN already there for the float maximum.
	x := graph.Input(graph.Float32, graph.Shape{4}, "x")
	i := graph.Input(graph.Int64, graph.Shape{6}, "i")
	u := graph.Input(graph.Float32, graph.Shape{6}, "u")
	xt := tensorOf(t, graph.Float32, x.Shape(), func(k int) float64 { return []float64{1, 2, 3, 4}[k] })
	copy(xt.Bytes()[4:8], []byte{0, 0, 0xc0, 0x7f}) // x[1] = NaN
	it := tensorOf(t, graph.Int64, i.Shape(), func(k int) float64 { return []float64{0, 0, 1, 2, 3, 3}[k] })
	ut := tensorOf(t, graph.Float32, u.Shape(), func(k int) float64 { return []float64{5, 0, 9, -1, 0, 0}[k] })
	copy(ut.Bytes()[16:20], []byte{0, 0, 0xc0, 0x7f}) // u[4] = NaN
	out = append(out, indexGraph{"scattermax/nan", graph.Scatter(graph.OpScatterMax, x, i, u, 0), bindings{x: xt, i: it, u: ut}})
	return out
}

// interpretIndex runs plan p on the interpreter and returns the outputs
// and the error of the first Index kernel whose check fails.
func interpretIndex(t *testing.T, p *fuse.Plan, slots []*graph.Node, bound bindings, tg codegen.Target) ([]values, error) {
	mems := planMems(p, slots, bound)
	for ki := range p.Kernels {
		k := &p.Kernels[ki]
		fn, sig, err := codegen.Lower(k, tg)
		require.NoError(t, err, "kernel %d (%s)", ki, k.Name)
		scratch := launchAll(t, fn, sig, mems, fmt.Sprintf("kernel %d (%s)", ki, k.Name), p)
		for _, c := range sig.IndexChecks() {
			if pos, bad := c.Position(binary.LittleEndian.Uint64(scratch[c.Scratch].Data)); bad {
				_, v := readElem(mems[c.Buffer].Data, c.DType, c.Element(pos))
				return nil, c.Err(v)
			}
		}
	}
	return planOutputs(p, mems), nil
}

func TestIndexKernelsInterpreted(t *testing.T) {
	interpretIndexGraphs(t, indexGraphs(t, false), false)
}

// interpretIndexGraphs runs each of gs on the interpreter, a subtest
// each. With bad (the graphs' indices are out of range) it requires the
// error the reference gives, naming the same index; else it compares
// the output with the reference's exactly.
func interpretIndexGraphs(t *testing.T, gs []indexGraph, bad bool) {
	tg := codegen.SmallGPU()
	for _, g := range gs {
		t.Run(g.name, func(t *testing.T) {
			outs := []*graph.Node{g.out}
			p, slots := planOf(t, outs, g.bound)
			got, err := interpretIndex(t, p, slots, g.bound, tg)
			if bad {
				_, want := refEval(outs, g.bound)
				require.Error(t, err)
				require.Error(t, want)
				require.Contains(t, want.Error(), err.Error(), "the reference names the same index")
				return
			}
			require.NoError(t, err)
			want := reference(t, outs, g.bound)
			require.NoError(t, compare(got[0], want[0], tolerance{}), fuse.Explain(p))
		})
	}
}

func TestIndexKernelsOutOfRange(t *testing.T) {
	var gs []indexGraph
	for _, g := range indexGraphs(t, true) {
		if g.name != "scattermax/nan" {
			gs = append(gs, g)
		}
	}
	interpretIndexGraphs(t, gs, true)
}

func TestIndexPTXAssembles(t *testing.T) {
	assembleGraphs(t, codegen.SmallGPU(), outputsOf(indexGraphs(t, false)))
}

// outputsOf returns the output of each graph of gs, for assembleGraphs.
func outputsOf(gs []indexGraph) [][]*graph.Node {
	out := make([][]*graph.Node, len(gs))
	for i, g := range gs {
		out[i] = []*graph.Node{g.out}
	}
	return out
}

// nonzeroGraphs are Nonzero of every dtype over sizes that leave
// threads with ragged and empty ranges, zeros of both signs and NaN.
func nonzeroGraphs(t testing.TB) []indexGraph {
	var out []indexGraph
	for _, d := range graph.DTypes() {
		for _, n := range []int{1, 37, 5000, 70001} {
			c := graph.Input(d, graph.Shape{n}, "c")
			vals := func(i int) float64 {
				switch {
				case i%7 == 3:
					return 0
				case i%11 == 5 && d.IsFloat():
					return -0.0 * 1
				case i%3 == 0:
					return float64(i%5) - 2
				}
				return 0
			}
			ct := tensorOf(t, d, c.Shape(), vals)
			count := 0
			for i := range n {
				if vals(i) != 0 {
					count++
				}
			}
			if d.IsFloat() && n > 2 {
				copy(ct.Bytes()[d.Size()*2:], nanBytes(d)) // element 2: NaN counts
				if vals(2) == 0 {
					count++
				}
			}
			out = append(out, indexGraph{fmt.Sprintf("nonzero/%v/%d", d, n), graph.Nonzero(c, count), bindings{c: ct}})
		}
	}
	return out
}

// nanBytes is a quiet NaN of float dtype d, little-endian.
func nanBytes(d graph.DType) []byte {
	if d == graph.Float32 {
		return []byte{0, 0, 0xc0, 0x7f}
	}
	return []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f}
}

// compressGraphs are masks of rows (Compress) of every dtype by
// conditions of every dtype, selecting some, all or none of the rows.
func compressGraphs(t testing.TB) []indexGraph {
	var out []indexGraph
	for _, d := range graph.DTypes() {
		for _, cd := range graph.DTypes() {
			for _, sel := range []int{0, 2, 3} { // none; every other row; a third
				x := graph.Input(d, graph.Shape{700, 3}, "x")
				c := graph.Input(cd, graph.Shape{700}, "c")
				keep := func(i int) bool { return sel != 0 && i%sel == 0 }
				count := 0
				for i := range 700 {
					if keep(i) {
						count++
					}
				}
				out = append(out, indexGraph{fmt.Sprintf("compress/%v/%v/%d", d, cd, sel), graph.Compress(x, c, count), bindings{
					x: tensorOf(t, d, x.Shape(), func(i int) float64 { return float64(i%13) - 6 }),
					c: tensorOf(t, cd, c.Shape(), func(i int) float64 {
						if keep(i) {
							return float64(1 + i%3)
						}
						return 0
					}),
				}})
			}
		}
	}
	return out
}

func TestNonzeroKernelInterpreted(t *testing.T) {
	interpretIndexGraphs(t, append(nonzeroGraphs(t), compressGraphs(t)...), false)
}

func TestNonzeroPTXAssembles(t *testing.T) {
	assembleGraphs(t, codegen.SmallGPU(), outputsOf(append(nonzeroGraphs(t), compressGraphs(t)...)))
}

func TestIndexKernelsConstantUpdates(t *testing.T) {
	tg := codegen.SmallGPU()
	var fns []*ir.Func
	defer func() {
		if _, err := ptxas.Find(); err != nil || t.Failed() {
			return // the interpreter checks ran; TestPTXAssembles' Require reports a missing ptxas
		}
		assembleKernels(t, fns, tg)
	}()
	for _, d := range graph.DTypes() {
		for _, op := range []graph.Op{graph.OpScatter, graph.OpScatterAdd, graph.OpScatterMax} {
			if op == graph.OpScatterAdd && d == graph.Bool {
				continue
			}
			x := graph.Input(d, graph.Shape{5, 9}, "x")
			i := graph.Input(graph.Int64, graph.Shape{30}, "i")
			n := graph.Scatter(op, x, i, graph.Const(graph.ScalarOf(d, 3)), 1)
			require.NoError(t, n.Err())
			bound := bindings{
				x: tensorOf(t, d, x.Shape(), func(k int) float64 { return float64(k%7) - 2 }),
				i: tensorOf(t, graph.Int64, i.Shape(), func(k int) float64 { return float64(k*4%18) - 9 }),
			}
			p, slots := planOf(t, []*graph.Node{n}, bound)
			var spec *fuse.IndexSpec
			for ki := range p.Kernels {
				if s := p.Kernels[ki].Index(); s != nil {
					spec = s
				}
			}
			require.NotNil(t, spec)
			require.NotNil(t, spec.Const, "constant updates are an immediate")
			fns = append(fns, lowerKernels(t, p, tg, fmt.Sprintf("c%d_%d", d, op))...)
			got, err := interpretIndex(t, p, slots, bound, tg)
			require.NoError(t, err)
			want := reference(t, []*graph.Node{n}, bound)
			require.NoError(t, compare(got[0], want[0], tolerance{}), "%v %v", op, d)
		}
	}
}
