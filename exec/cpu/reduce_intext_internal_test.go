// The integer Max and Min folds (foldTab, vector where registered)
// against extremeInt's scalar chains: int32 and int64 chunks of every
// length from 0 to 300 and some long ones, unaligned, from states at
// the dtype's limits and inside, with the extreme first, last, in a
// tail, repeated, and at the dtype's limits.

package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

func testIntExtreme[T int32 | int64](t *testing.T, d graph.DType, lo, hi int64) {
	r := rand.New(rand.NewPCG(7, uint64(d)))
	lengths := []int{}
	for n := range 301 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000, 4099, 65536+17)
	for _, n := range lengths {
		for _, where := range []int{-1, 0, 1, 15, 16, 31, n / 2, n - 1} {
			buf := make([]T, n+1)
			v := buf[1:] // starts one element past the allocation's alignment
			for j := range v {
				v[j] = T(r.Int64N(2001) - 1000)
			}
			if where >= 0 && where < n {
				v[where] = T([]int64{lo, hi, 5000, -5000}[r.IntN(4)])
			}
			for _, op := range []graph.Op{graph.OpReduceMax, graph.OpReduceMin} {
				isMax := op == graph.OpReduceMax
				for _, a := range []int64{math.MinInt64, math.MaxInt64, lo, hi, 0, 999} {
					s := accum{i: a}
					var p unsafe.Pointer
					if n > 0 {
						p = unsafe.Pointer(&v[0])
					}
					foldTab[op][d](&s, p, n, 0)
					if want := extremeInt(isMax, a, v); s.i != want {
						t.Fatalf("%v %v n=%d at=%d from %d: got:%d want:%d", op, d, n, where, a, s.i, want)
					}
				}
			}
		}
	}
}

func TestIntExtremeFolds(t *testing.T) {
	for _, vec := range []bool{false, true} {
		was := setVector(vec)
		testIntExtreme[int64](t, graph.Int64, math.MinInt64, math.MaxInt64)
		testIntExtreme[int32](t, graph.Int32, math.MinInt32, math.MaxInt32)
		setVector(was)
	}
}
