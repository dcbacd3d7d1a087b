// Benchmarks of the math functions through the executor: each function
// and float dtype over 2^22 elements (well beyond the caches), in the
// operand ranges of bench/vecmath_peers.py (NumPy's peers: run it with
// `python3 bench/vecmath_peers.py 20 4194304`), with internal/vecmath's
// vector code (/vector) and its portable code (/portable, as under
// FUSEFLOW_NOASM=1).

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

// mathBenchOps are the benchmarked ops by the peer script's names, with
// their operands' ranges (the second for binary ops).
var mathBenchOps = []struct {
	name             string
	op               graph.Op
	lo, hi, ylo, yhi float64
}{
	{"exp", graph.OpExp, -10, 10, 0, 0},
	{"exp2", graph.OpExp2, -10, 10, 0, 0},
	{"expm1", graph.OpExpm1, -10, 10, 0, 0},
	{"log", graph.OpLog, 0.01, 100, 0, 0},
	{"log2", graph.OpLog2, 0.01, 100, 0, 0},
	{"log1p", graph.OpLog1p, -0.9, 100, 0, 0},
	{"sin", graph.OpSin, -100, 100, 0, 0},
	{"cos", graph.OpCos, -100, 100, 0, 0},
	{"tan", graph.OpTan, -100, 100, 0, 0},
	{"tanh", graph.OpTanh, -10, 10, 0, 0},
	{"sigmoid", graph.OpSigmoid, -10, 10, 0, 0},
	{"erf", graph.OpErf, -10, 10, 0, 0},
	{"pow", graph.OpPow, 0.1, 10, -5, 5},
	{"atan2", graph.OpAtan2, -10, 10, -10, 10},
	{"rsqrt", graph.OpRsqrt, 0.01, 100, 0, 0},
	{"sqrt", graph.OpSqrt, 0.01, 100, 0, 0},
	{"floor", graph.OpFloor, -10, 10, 0, 0},
	{"ceil", graph.OpCeil, -10, 10, 0, 0},
	{"roundeven", graph.OpRound, -10, 10, 0, 0},
	{"trunc", graph.OpTrunc, -10, 10, 0, 0},
}

// mathBenchInput returns a bound input of dtype d and n elements in
// [lo, hi) from seed.
func mathBenchInput(b *testing.B, alloc memory.Allocator, d graph.DType, n int, seed uint64, lo, hi float64, name string) (*graph.Node, *exec.Tensor) {
	x, t := newInput(b, alloc, d, graph.Shape{n}, name)
	r := rand.New(rand.NewPCG(seed, 1))
	setFloats(t, func() float64 { return lo + (hi-lo)*r.Float64() })
	return x, t
}

// BenchmarkMathFuncs runs every math function on each float dtype and
// code path: BenchmarkMathFuncs/n=4194304/exp/f32/vector. It reports
// ns/elem beside the peers' figures.
func BenchmarkMathFuncs(b *testing.B) {
	for _, n := range []int{1 << 22} {
		for _, f := range mathBenchOps {
			for _, d := range []graph.DType{graph.Float32, graph.Float64} {
				for _, vec := range []bool{true, false} {
					path := map[bool]string{true: "vector", false: "portable"}[vec]
					dt := map[graph.DType]string{graph.Float32: "f32", graph.Float64: "f64"}[d]
					b.Run(fmt.Sprintf("n=%d/%s/%s/%s", n, f.name, dt, path), func(b *testing.B) {
						was := cpu.SetVector(vec)
						defer cpu.SetVector(was)
						alloc := benchAlloc()
						x, xt := mathBenchInput(b, alloc, d, n, 1, f.lo, f.hi, "x")
						bound := map[*graph.Node]*exec.Tensor{x: xt}
						out := graph.Unary(f.op, x)
						ops := int64(2)
						if f.op.Class() == graph.ClassBinary {
							y, yt := mathBenchInput(b, alloc, d, n, 2, f.ylo, f.yhi, "y")
							bound[y] = yt
							out = graph.Binary(f.op, x, y)
							ops = 3
						}
						defer func() {
							for _, t := range bound {
								t.Release()
							}
						}()
						runBench(b, benchBackend(), alloc, []*graph.Node{out}, bound, ops*int64(n*d.Size()))
						b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
					})
				}
			}
		}
	}
}
