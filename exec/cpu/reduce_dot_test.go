// The fused product and row sum (reduce_dot.go): sum(a*b), sum(x*x) and
// sum(square(x)) along rows and over whole arrays, rows of ragged
// lengths around the vector and block widths, short rows and rows
// longer than a chunk, with NaN, infinities and signed zeros, against
// the reference evaluator and bit for bit (any NaN for a NaN) against
// the unfused evaluation of the same products (p*1, which the dot path
// does not take), with the vector loops on and off.

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

func TestReduceDot(t *testing.T) {
	shapes := []graph.Shape{{3, 16}, {5, 17}, {4, 127}, {4, 128}, {3, 129}, {2, 300}, {2, 1031}, {1, 5000}}
	backends := []*cpu.Backend{cpu.New(cpu.Options{}), cpu.New(cpu.Options{Chunk: 64, Workers: 3}), cpu.New(cpu.Options{Chunk: 7})}
	r := rand.New(rand.NewPCG(21, 22))
	for _, vec := range []bool{true, false} {
		was := cpu.SetVector(vec)
		for _, s := range shapes {
			for _, d := range []graph.DType{graph.Float32, graph.Float64} {
				for _, mode := range []string{"rand", "ties", "nan", "inf"} {
					alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
					a, ta := newInput(t, alloc, d, s, "a")
					b, tb := newInput(t, alloc, d, s, "b")
					fillReduceInput(ta, mode, r)
					fillReduceInput(tb, "rand", r)
					one := graph.FloatConst(d, 1)
					ab, xx := graph.Binary(graph.OpMul, a, b), graph.Binary(graph.OpMul, a, a)
					var outs, plain []*graph.Node
					for _, axes := range [][]int{{1}, nil} {
						for _, p := range []*graph.Node{ab, xx, graph.Unary(graph.OpSquare, a)} {
							outs = append(outs, graph.Reduce(graph.OpSum, p, axes, false))
							plain = append(plain, graph.Reduce(graph.OpSum, graph.Binary(graph.OpMul, p, one), axes, false))
						}
					}
					bound := map[*graph.Node]*exec.Tensor{a: ta, b: tb}
					name := fmt.Sprintf("vec=%v %v %v %s", vec, s, d, mode)
					// One output at a time: a kernel of one Sum takes the dot path.
					for i := range outs {
						checkWithinRef(t, name, backends, outs[i:i+1], bound, alloc)
						for bi, be := range backends {
							got := evalOn(t, be, outs[i:i+1], bound, alloc, name)
							want := evalOn(t, be, plain[i:i+1], bound, alloc, name)
							sameElems(t, got[0], want[0], fmt.Sprintf("%s: backend %d: output %d against the unfused products", name, bi, i))
							release(got)
							release(want)
						}
					}
					ta.Release()
					tb.Release()
					alloc.AssertSize(t, 0)
				}
			}
		}
		cpu.SetVector(was)
	}
}
