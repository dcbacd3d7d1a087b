// Benchmarks of single inner loops over one chunk held in cache: the
// cost per element of each op, without memory traffic or scheduling.

package cpu

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

const loopN = 2048

func loopData(lo, hi float32) []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]float32, loopN)
	for i := range v {
		v[i] = lo + (hi-lo)*r.Float32()
	}
	return v
}

func BenchmarkLoops(b *testing.B) {
	x, y := loopData(-10, 10), loopData(0, 4)
	d := make([]float32, loopN)
	px, py, pd := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0]), unsafe.Pointer(&d[0])
	for _, u := range []struct {
		name string
		op   graph.Op
	}{{"exp", graph.OpExp}, {"sqrt", graph.OpSqrt}, {"neg", graph.OpNeg}, {"log", graph.OpLog}, {"tanh", graph.OpTanh}, {"sigmoid", graph.OpSigmoid}} {
		f := unaryTab[graph.Float32][u.op]
		src := px
		if u.op == graph.OpSqrt || u.op == graph.OpLog {
			src = py
		}
		b.Run(u.name, func(b *testing.B) {
			for range b.N {
				f(pd, src, loopN)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*loopN), "ns/elem")
		})
	}
	for _, o := range []struct {
		name string
		op   graph.Op
	}{{"add", graph.OpAdd}, {"mul", graph.OpMul}, {"div", graph.OpDiv}} {
		f := binaryTab[graph.Float32][o.op]
		b.Run(o.name, func(b *testing.B) {
			for range b.N {
				f(pd, px, py, loopN)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*loopN), "ns/elem")
		})
	}
}
