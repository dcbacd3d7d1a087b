// Tests of the scalar-operand loops against the binary loops over a
// register of copies, and of the executor's use of them.

package cpu

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/fuse"
	"github.com/fuseflow/fuseflow/graph"
)

// TestScalarLoops runs every scalar-operand loop, with the constant
// first and second, over random values and special constants at every
// length of vecLengths, apart and in place, and compares its bytes with
// the op's binary loop given a filled operand.
func TestScalarLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	consts := append([]float64{2.5, -0.5, 3}, specials...)
	eachVector(func(vec bool) {
		for _, d := range loopDTypes {
			es := d.Size()
			for op := range 256 {
				for k := range 2 {
					sl := scalarTab[d][op][k]
					if sl == nil {
						continue
					}
					for _, n := range vecLengths {
						c := consts[r.IntN(len(consts))]
						bits := scalarBits(graph.Scalar{DType: d, F: c}, d)
						a := aliasValues(r, d, n)
						fillBuf := aliasBuf(n, es, 1)
						fill(unsafe.Pointer(&fillBuf[0]), es, bits, n)
						pa, pc := unsafe.Pointer(&a[0:1][0]), unsafe.Pointer(&fillBuf[0])
						ins := [2]unsafe.Pointer{pa, pa}
						ins[k] = pc
						want := aliasBuf(n, es, 1)
						binaryTab[d][op](unsafe.Pointer(&want[0]), ins[0], ins[1], n)
						got := aliasBuf(n, es, 1)
						sl(unsafe.Pointer(&got[0]), pa, bits, n)
						if !bytes.Equal(got[:n*es], want[:n*es]) {
							t.Errorf("%v %v constant %v at %d (vector loops %v) n=%d got:%x want:%x",
								graph.Op(op), d, c, k, vec, n, got[:n*es], want[:n*es])
							continue
						}
						sl(pa, pa, bits, n)
						if !bytes.Equal(a[:n*es], want[:n*es]) {
							t.Errorf("%v %v constant %v at %d (vector loops %v) n=%d in place got:%x want:%x",
								graph.Op(op), d, c, k, vec, n, a[:n*es], want[:n*es])
						}
					}
				}
			}
		}
	})
}

// TestScalarOperandKernel evaluates a chain of Add, Sub, Mul and Div
// with a constant first and second through the executor, with the
// vector loops and the scalar ones, against float32 arithmetic.
func TestScalarOperandKernel(t *testing.T) {
	alloc := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer alloc.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(29, 30))
	const n, c = 10007, float32(2.5)
	av := randF32(r, n)
	eachVector(func(vec bool) {
		var pt planT
		s := graph.Shape{n}
		F := graph.Float32
		a := pt.input(f32Tensor(t, alloc, av, s))
		out := pt.result(F, s, 0)
		st := []int{1}
		pt.p.Kernels = []fuse.Kernel{{Space: []int{n},
			Operands: []fuse.Operand{{Buffer: a, DType: F, Strides: st}},
			Spec: &fuse.MapSpec{Body: []fuse.Instr{load(0, F), {Kind: fuse.InstrConst, DType: F, Value: graph.ScalarOf(F, float64(c))},
				op(graph.OpSub, F, 1, 0), op(graph.OpDiv, F, 2, 1), op(graph.OpAdd, F, 1, 3), op(graph.OpMul, F, 4, 1),
				op(graph.OpDiv, F, 1, 5), op(graph.OpSub, F, 6, 1), op(graph.OpAdd, F, 7, 1), op(graph.OpMul, F, 1, 8)}},
			Stores: []fuse.Store{{Value: 9, Buffer: out, DType: F, Strides: st}}}}
		res, err := pt.run(context.Background(), New(Options{Chunk: 1000}), alloc)
		require.NoError(t, err)
		got := exec.Elems[float32](res[0])
		for i, x := range av {
			v := (c - x) / c
			v = (c + v) * c
			v = c/v - c
			want := c * (v + c)
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Errorf("vector loops %v element %d of %v: got:%v want:%v", vec, i, x, got[i], want)
				break
			}
		}
		for _, x := range append(res, pt.inputs...) {
			x.Release()
		}
	})
}
