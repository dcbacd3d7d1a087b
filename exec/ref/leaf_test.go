// Leaves: Const, Iota (Arange and Linspace), Eye, and random arrays
// compared bit for bit with the philox package.

package ref_test

import (
	"math"
	"testing"

	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/philox"
)

func TestConst(t *testing.T) {
	e := newEnv(t)
	check(t, e.one(graph.FloatConst(graph.Float32, 0.1)), graph.Float32, graph.Shape{}, []float64{float64(float32(0.1))})
	check(t, e.one(graph.Const(graph.Scalar{DType: graph.Int64, I: math.MinInt64})), graph.Int64, graph.Shape{}, []int64{math.MinInt64})
	check(t, e.one(graph.FloatConst(graph.Bool, 2)), graph.Bool, graph.Shape{}, []bool{true})
}

func TestIota(t *testing.T) {
	tests := []struct {
		name              string
		d                 graph.DType
		n                 int
		start, step, stop float64
		hasStop           bool
		want              any
	}{
		{name: "f32", d: graph.Float32, n: 4, start: 1, step: 0.5, want: []float64{1, 1.5, 2, 2.5}},
		{name: "f64-tenths", d: graph.Float64, n: 4, start: 0, step: 0.1, want: []float64{0, 0.1, 0.2, 0.30000000000000004}},
		{name: "i32-truncates", d: graph.Int32, n: 4, start: -1.5, step: 1, want: []int64{-1, 0, 0, 1}},
		{name: "i64-negative-step", d: graph.Int64, n: 3, start: 5, step: -2, want: []int64{5, 3, 1}},
		{name: "linspace-exact-stop", d: graph.Float64, n: 4, start: 0, step: 0.1, stop: 0.3, hasStop: true, want: []float64{0, 0.1, 0.2, 0.3}},
		{name: "linspace-one", d: graph.Float64, n: 1, start: 2, step: 3, stop: 5, hasStop: true, want: []float64{2}},
		{name: "empty", d: graph.Float32, n: 0, start: 0, step: 1, want: []float64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			n := graph.Iota(tc.d, tc.n, tc.start, tc.step, tc.hasStop, tc.stop)
			check(t, e.one(n), tc.d, graph.Shape{tc.n}, tc.want)
		})
	}
}

func TestEye(t *testing.T) {
	e := newEnv(t)
	check(t, e.one(graph.Eye(graph.Float32, 2, 3, 0)), graph.Float32, graph.Shape{2, 3}, []float64{1, 0, 0, 0, 1, 0})
	check(t, e.one(graph.Eye(graph.Int32, 3, 2, -1)), graph.Int32, graph.Shape{3, 2}, []int64{0, 0, 1, 0, 0, 1})
	check(t, e.one(graph.Eye(graph.Bool, 2, 2, 1)), graph.Bool, graph.Shape{2, 2}, []bool{false, true, false, false})
	check(t, e.one(graph.Eye(graph.Float64, 0, 3, 0)), graph.Float64, graph.Shape{0, 3}, []float64{})
}

func TestRandomMatchesPhilox(t *testing.T) {
	const seed = 0x1234_5678_9abc_def0
	s := graph.Shape{3, 5}
	tests := []struct {
		op   graph.Op
		d    graph.DType
		elem func(i uint64) float64
	}{
		{graph.OpRandU, graph.Float32, func(i uint64) float64 { return float64(philox.Float32(seed, i)) }},
		{graph.OpRandU, graph.Float64, func(i uint64) float64 { return philox.Float64(seed, i) }},
		{graph.OpRandN, graph.Float32, func(i uint64) float64 { return float64(philox.Normal32(seed, i)) }},
		{graph.OpRandN, graph.Float64, func(i uint64) float64 { return philox.Normal64(seed, i) }},
	}
	for _, tc := range tests {
		t.Run(tc.op.String()+"/"+tc.d.String(), func(t *testing.T) {
			e := newEnv(t)
			want := make([]float64, s.Size())
			for i := range want {
				want[i] = tc.elem(uint64(i))
			}
			check(t, e.one(graph.Random(tc.op, tc.d, s, seed)), tc.d, s, want)
			// Another seed gives another stream.
			other := values(e.one(graph.Random(tc.op, tc.d, s, seed+1)))
			if same(other, want) {
				t.Fatalf("seed %d and %d gave the same stream", seed, seed+1)
			}
		})
	}
}
