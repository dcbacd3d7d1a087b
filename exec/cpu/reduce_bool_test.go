// Bool Any and All over bytes against the reference evaluator: extents
// at the 8- and 64-byte word boundaries, bytes other than 0 and 1 (a
// bound bool tensor's nonzero byte reads as true), and the one deciding
// byte first, in the middle and last, along rows, columns, a middle axis
// and the whole array.

package cpu_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/exec/cpu"
	"github.com/fuseflow/fuseflow/graph"
)

// TestAnyAllBytes checks Any and All of bool inputs whose extents cross
// the byte scans' word boundaries. "any" data is zero but for one
// nonzero byte, "all" data nonzero (bytes 1 to 255) but for one zero;
// the input also feeds a Sum in a second graph, so its loads are
// normalized there and read raw in the first. With the vector loops on
// and off.
func TestAnyAllBytes(t *testing.T) {
	var lens []int
	for n := 1; n <= 17; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 31, 32, 33, 63, 64, 65, 129)
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 7}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}),
		cpu.New(cpu.Options{})}
	r := rand.New(rand.NewPCG(5, 6))
	for _, vec := range []bool{true, false} {
		was := cpu.SetVector(vec)
		anyAllBytes(t, fmt.Sprintf("vec=%v", vec), lens, backends, r)
		cpu.SetVector(was)
	}
}

func anyAllBytes(t *testing.T, vec string, lens []int, backends []*cpu.Backend, r *rand.Rand) {
	for _, n := range lens {
		shapes := []struct {
			shape graph.Shape
			axes  [][]int
		}{
			{graph.Shape{3, n}, [][]int{{1}, {0}, nil}},
			{graph.Shape{n, 3}, [][]int{{0}}},
			{graph.Shape{2, n, 5}, [][]int{{1}}},
			{graph.Shape{n, 2 * n}, [][]int{{0}, {1}, nil}},
		}
		for _, s := range shapes {
			size := s.shape.Size()
			for _, fill := range []string{"any", "all"} {
				for _, pos := range []int{0, size / 2, size - 1, -1} {
					alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
					in, tn := newInput(t, alloc, graph.Bool, s.shape, "x")
					v := exec.Elems[uint8](tn)
					for k := range v {
						if fill == "all" {
							v[k] = uint8(1 + r.IntN(255))
						}
					}
					if pos >= 0 {
						v[pos] = 0
						if fill == "any" {
							v[pos] = []uint8{1, 2, 0x80, 0xff}[r.IntN(4)]
						}
					}
					var raw, mixed []*graph.Node
					for _, axes := range s.axes {
						for _, op := range []graph.Op{graph.OpAny, graph.OpAll} {
							raw = append(raw, graph.Reduce(op, in, axes, false))
							mixed = append(mixed, graph.Reduce(op, in, axes, false))
						}
						mixed = append(mixed, graph.Reduce(graph.OpSum, in, axes, false))
					}
					bound := map[*graph.Node]*exec.Tensor{in: tn}
					name := fmt.Sprintf("%s %v %s byte at %d", vec, s.shape, fill, pos)
					checkWithinRef(t, name, backends, raw, bound, alloc)
					checkWithinRef(t, name+" with sum", backends, mixed, bound, alloc)
					tn.Release()
					alloc.AssertSize(t, 0)
				}
			}
		}
	}
}

// TestAnyAllBytesDecided checks bool Any and All decided by one byte at
// positions about the 64-byte blocks and chunk boundaries of long rows
// and of the whole array.
func TestAnyAllBytesDecided(t *testing.T) {
	const rows, cols = 4, 70000
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 1000, Workers: 3}), cpu.New(cpu.Options{}),
		cpu.New(cpu.Options{Workers: 1})}
	for _, pos := range []int{0, 7, 8, 63, 64, 65, 999, 1000, 4095, 65535, 65536, cols - 1, -1} {
		for _, fill := range []uint8{0, 1} {
			alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
			in, tn := newInput(t, alloc, graph.Bool, graph.Shape{rows, cols}, "x")
			v := exec.Elems[uint8](tn)
			for k := range v {
				v[k] = fill
			}
			if pos >= 0 {
				for r := range rows - 1 { // the last row stays undecided
					v[r*cols+pos] = 3 - 3*fill
				}
			}
			outs := []*graph.Node{
				graph.Reduce(graph.OpAny, in, []int{1}, false),
				graph.Reduce(graph.OpAll, in, []int{1}, false),
				graph.Reduce(graph.OpAny, in, nil, false),
				graph.Reduce(graph.OpAll, in, nil, false),
			}
			checkWithinRef(t, fmt.Sprintf("fill %d, other byte at %d", fill, pos), backends, outs,
				map[*graph.Node]*exec.Tensor{in: tn}, alloc)
			tn.Release()
			alloc.AssertSize(t, 0)
		}
	}
}

// TestAnyAllColumnsDecided checks Any and All over leading axes whose
// columns are all decided at row d (Any: a row of nonzero bytes in zero
// data; All: a row of zeros in nonzero data) but for column 1, decided
// only at row e or never, so that column tasks stop early in some pieces
// and not in others; over bool input (byte states) and over floats
// (through a comparison).
func TestAnyAllColumnsDecided(t *testing.T) {
	backends := []*cpu.Backend{cpu.New(cpu.Options{Chunk: 1000, Workers: 3}), cpu.New(cpu.Options{}),
		cpu.New(cpu.Options{Workers: 1})}
	for _, cols := range []int{3, 100, 9000} {
		rows := 3000
		if cols == 9000 {
			rows = 300
		}
		for _, c := range []struct{ d, e int }{{0, 1}, {5, rows - 1}, {100, -1}, {rows - 1, -1}} {
			for _, fill := range []uint8{0, 1} {
				alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
				shape := graph.Shape{rows, cols}
				in, tn := newInput(t, alloc, graph.Bool, shape, "x")
				v := exec.Elems[uint8](tn)
				for k := range v {
					v[k] = fill
				}
				for k := range cols {
					if k != 1 {
						v[c.d*cols+k] = 1 - fill
					}
				}
				if c.e >= 0 {
					v[c.e*cols+1] = 1 - fill
				}
				f := graph.Cast(in, graph.Float32)
				nz := graph.Binary(graph.OpNe, f, graph.FloatConst(graph.Float32, 0))
				outs := []*graph.Node{
					graph.Reduce(graph.OpAny, in, []int{0}, false),
					graph.Reduce(graph.OpAll, in, []int{0}, false),
					graph.Reduce(graph.OpAny, nz, []int{0}, false),
					graph.Reduce(graph.OpAll, f, []int{0}, false),
				}
				name := fmt.Sprintf("%v fill %d, decided at %d, column 1 at %d", shape, fill, c.d, c.e)
				checkWithinRef(t, name, backends, outs, map[*graph.Node]*exec.Tensor{in: tn}, alloc)
				tn.Release()
				alloc.AssertSize(t, 0)
			}
		}
	}
}
