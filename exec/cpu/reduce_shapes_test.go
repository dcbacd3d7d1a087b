// Reductions of every shape against the reference evaluator: each
// reduction op and dtype over leading, trailing, middle and all axes of
// shapes with empty, unit, odd and wide extents, of plain and transposed
// operands, with NaN, ties and signed zeros placed first, last and in
// the middle, in chunk sizes that exercise every split of rows and
// columns (pieces, column blocks, super-rows), with the vector loops on
// and off; and many short rows of 1 to 33 values, an odd number of them,
// reduced by the row-block loops, with random values, ties and signed
// zeros, infinities, and one NaN at each position of a row.

package cpu_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// fillReduceInput fills t with values of mode: "rand" random values,
// "ties" a few distinct values (ties everywhere, signed zeros for
// floats), "nan" ties with NaNs at the first, a middle and the last
// element of every run of 7, "inf" infinities among the ties.
func fillReduceInput(t *exec.Tensor, mode string, r *rand.Rand) {
	n := t.Size()
	float := func(k int) float64 {
		switch mode {
		case "rand":
			return 2*r.Float64() - 1
		case "nan":
			if k%7 == 0 || k%7 == 3 || k == n-1 {
				return math.NaN()
			}
		case "inf":
			switch k % 5 {
			case 1:
				return math.Inf(1)
			case 3:
				return math.Inf(-1)
			}
		}
		v := float64(r.IntN(3)) - 1
		if v == 0 && r.IntN(2) == 0 {
			v = math.Copysign(0, -1)
		}
		return v
	}
	for k := range n {
		switch t.DType {
		case graph.Float32:
			exec.Elems[float32](t)[k] = float32(float(k))
		case graph.Float64:
			exec.Elems[float64](t)[k] = float(k)
		case graph.Int32:
			exec.Elems[int32](t)[k] = int32(r.IntN(5) - 2)
		case graph.Int64:
			exec.Elems[int64](t)[k] = int64(r.IntN(5)-2) << 33
		case graph.Bool:
			exec.Elems[uint8](t)[k] = uint8(r.IntN(2))
		}
	}
}

var reduceOps = []graph.Op{graph.OpSum, graph.OpProd, graph.OpReduceMax, graph.OpReduceMin,
	graph.OpArgMax, graph.OpArgMin, graph.OpAny, graph.OpAll}

// TestReduceShapes compares every reduction op, dtype and axis set of the
// shapes below with the reference evaluator.
func TestReduceShapes(t *testing.T) {
	shapes := []struct {
		shape graph.Shape
		axes  [][]int
		perm  []int // the operand is the input permuted so
	}{
		{graph.Shape{0, 5}, [][]int{{0}, {1}, nil}, nil},
		{graph.Shape{5, 0}, [][]int{{0}, {1}}, nil},
		{graph.Shape{1, 1}, [][]int{{0}, {1}, nil}, nil},
		{graph.Shape{1, 9}, [][]int{{0}, {1}}, nil},
		{graph.Shape{9, 1}, [][]int{{0}, {1}}, nil},
		{graph.Shape{3, 7}, [][]int{{0}, {1}, nil}, nil},
		{graph.Shape{37, 13}, [][]int{{0}, {1}, nil}, nil},
		{graph.Shape{301, 3}, [][]int{{0}, {1}}, nil},
		{graph.Shape{11, 2100}, [][]int{{0}, {1}}, nil},
		{graph.Shape{3, 8200}, [][]int{{0}}, nil},
		{graph.Shape{2100, 5}, [][]int{{0}}, nil},
		{graph.Shape{1100, 40}, [][]int{{0}}, nil},
		{graph.Shape{3, 5, 7}, [][]int{{1}, {0, 2}, {0, 1}, {1, 2}}, nil},
		{graph.Shape{4, 33, 17}, [][]int{{1}, {0, 2}}, nil},
		{graph.Shape{5, 60, 9}, [][]int{{1}}, nil},
		{graph.Shape{13, 29}, [][]int{{0}, {1}}, []int{1, 0}},
		{graph.Shape{6, 5, 40}, [][]int{{1}, {2}}, []int{2, 0, 1}},
	}
	dtypes := []graph.DType{graph.Float32, graph.Float64, graph.Int32, graph.Int64, graph.Bool}
	modes := map[graph.DType][]string{graph.Float32: {"rand", "ties", "nan", "inf"}, graph.Float64: {"rand", "nan"},
		graph.Int32: {"ties"}, graph.Int64: {"ties"}, graph.Bool: {"ties"}}
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{Chunk: 64}),
		cpu.New(cpu.Options{Chunk: 512, Workers: 3}), cpu.New(cpu.Options{})}
	r := rand.New(rand.NewPCG(13, 14))
	for _, vec := range []bool{true, false} {
		was := cpu.SetVector(vec)
		for _, s := range shapes {
			for _, d := range dtypes {
				for _, mode := range modes[d] {
					alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
					ishape := s.shape
					if s.perm != nil {
						ishape = make(graph.Shape, len(s.perm))
						for i, p := range s.perm {
							ishape[p] = s.shape[i]
						}
					}
					in, tn := newInput(t, alloc, d, ishape, "x")
					fillReduceInput(tn, mode, r)
					x := in
					if s.perm != nil {
						inv := make([]int, len(s.perm))
						for i, p := range s.perm {
							inv[p] = i
						}
						x = graph.Permute(in, inv)
					}
					var outs []*graph.Node
					for _, axes := range s.axes {
						for _, op := range reduceOps {
							if (op == graph.OpArgMax || op == graph.OpArgMin) && len(axes) != 1 {
								continue
							}
							if (op == graph.OpArgMax || op == graph.OpArgMin || op == graph.OpReduceMax || op == graph.OpReduceMin) && s.shape.Size() == 0 {
								continue
							}
							outs = append(outs, graph.Reduce(op, x, axes, false))
						}
					}
					bound := map[*graph.Node]*exec.Tensor{in: tn}
					name := fmt.Sprintf("vec=%v %v %v %s", vec, s.shape, d, mode)
					checkWithinRef(t, name, backends, outs, bound, alloc)
					tn.Release()
					alloc.AssertSize(t, 0)
				}
			}
		}
		cpu.SetVector(was)
	}
}

// TestAnyAllDecided checks Any and All whose rows are decided by one
// element at the start, at chunk and step boundaries and at the end,
// so that rows stop early in some tasks and not in others, in rows
// shorter and longer than a chunk.
func TestAnyAllDecided(t *testing.T) {
	for _, cols := range []int{3000, 5000} {
		anyAllDecided(t, 3, cols)
	}
}

func anyAllDecided(t *testing.T, rows, cols int) {
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 64, Workers: 3}), cpu.New(cpu.Options{Chunk: 1000}),
		cpu.New(cpu.Options{}), cpu.New(cpu.Options{Workers: 1})}
	for _, pos := range []int{0, 1, 255, 256, 767, 768, 1023, 1024, 2047, 4095, 4096, cols - 1, -1} {
		if pos >= cols {
			continue
		}
		alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
		in, tn := newInput(t, alloc, graph.Float32, graph.Shape{rows, cols}, "x")
		v := exec.Elems[float32](tn)
		for i := range v {
			v[i] = 1
		}
		if pos >= 0 {
			for r := range rows - 1 { // the last row stays undecided
				v[r*cols+pos] = 0
			}
		}
		nz := graph.Binary(graph.OpEq, in, graph.FloatConst(graph.Float32, 0))
		outs := []*graph.Node{
			graph.Reduce(graph.OpAny, nz, []int{1}, false),
			graph.Reduce(graph.OpAll, in, []int{1}, false),
			graph.Reduce(graph.OpAny, nz, nil, false),
			graph.Reduce(graph.OpAll, in, nil, false),
		}
		checkWithinRef(t, fmt.Sprintf("zero at %d", pos), backends, outs, map[*graph.Node]*exec.Tensor{in: tn}, alloc)
		tn.Release()
		alloc.AssertSize(t, 0)
	}
}

// TestReduceShortRows compares every reduction of rows of r values, 37
// rows (and 1001 for r = 8), with the reference. Mode "nanpos" puts one
// NaN in row i at position i mod r (none in every fourth row).
func TestReduceShortRows(t *testing.T) {
	type tc struct{ rows, r int }
	var cases []tc
	for r := 1; r <= 17; r++ {
		cases = append(cases, tc{37, r})
	}
	cases = append(cases, tc{1001, 8}, tc{37, 31}, tc{37, 32}, tc{37, 33})
	modes := map[graph.DType][]string{graph.Float32: {"rand", "ties", "inf", "nanpos"},
		graph.Float64: {"rand", "ties", "nanpos"}, graph.Bool: {"ties"}}
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		cpu.New(cpu.Options{})}
	r := rand.New(rand.NewPCG(21, 22))
	for _, c := range cases {
		for _, d := range []graph.DType{graph.Float32, graph.Float64, graph.Bool} {
			for _, mode := range modes[d] {
				alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
				shape := graph.Shape{c.rows, c.r}
				in, tn := newInput(t, alloc, d, shape, "x")
				if mode == "nanpos" {
					fillReduceInput(tn, "ties", r)
					for i := range c.rows {
						if i%4 == 3 {
							continue
						}
						k := i*c.r + i%c.r
						if d == graph.Float32 {
							exec.Elems[float32](tn)[k] = float32(math.NaN())
						} else {
							exec.Elems[float64](tn)[k] = math.NaN()
						}
					}
				} else {
					fillReduceInput(tn, mode, r)
				}
				var outs []*graph.Node
				for _, op := range reduceOps {
					outs = append(outs, graph.Reduce(op, in, []int{1}, false))
				}
				name := fmt.Sprintf("%v %v %s", shape, d, mode)
				checkWithinRef(t, name, backends, outs, map[*graph.Node]*exec.Tensor{in: tn}, alloc)
				tn.Release()
				alloc.AssertSize(t, 0)
			}
		}
	}
}
