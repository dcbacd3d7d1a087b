// Scan kernels: kernel counts with fused prologues and epilogues, the
// scanned axis through collapsing, and the test interpreter's and naive
// evaluator's scans.

package fuse

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/graph"
)

// scanStep combines a running value with the next one as the scan op
// does in dtype d (NaN propagates through CumMax and CumMin; ties keep
// the running value).
func scanStep(op graph.Op, d graph.DType, acc, x float64) float64 {
	switch op {
	case graph.OpCumSum:
		return castTo(d, acc+x)
	case graph.OpCumProd:
		return castTo(d, acc*x)
	case graph.OpCumMax:
		if x > acc || math.IsNaN(x) && !math.IsNaN(acc) {
			return x
		}
	case graph.OpCumMin:
		if x < acc || math.IsNaN(x) && !math.IsNaN(acc) {
			return x
		}
	}
	return acc
}

// scan runs a Scan kernel: the body at every point, the running values
// along the scanned axis front to back, the epilogue at every point.
func (r *interp) scan(k *Kernel) {
	s := k.Scan()
	lane := append([]int(nil), k.Space...)
	lane[s.Axis] = 1
	forEach(lane, func(p0 []int) {
		pt := append([]int(nil), p0...)
		acc := 0.0
		for i := range k.Space[s.Axis] {
			pt[s.Axis] = i
			v := r.evalBody(s.Body, k, pt, nil)[s.Value]
			if i == 0 {
				acc = v
			} else {
				acc = scanStep(s.Op, s.DType, acc, v)
			}
			r.stores(k, r.evalBody(s.Epilogue, k, pt, []float64{acc}), pt)
		}
	})
}

// naiveScan scans x (dense row-major over n's shape) into out.
func naiveScan(n *graph.Node, x, out []float64) {
	s := n.Shape()
	ax := n.Attr().Axis
	inner := 1
	for _, e := range s[ax+1:] {
		inner *= e
	}
	length := s[ax]
	for i := range x {
		if (i/inner)%length == 0 {
			out[i] = x[i]
		} else {
			out[i] = scanStep(n.Op(), n.DType(), out[i-inner], x[i])
		}
	}
}

// validScan checks a Scan kernel's spec.
func validScan(k *Kernel) error {
	s := k.Scan()
	if s == nil || s.Axis < 0 || s.Axis >= len(k.Space) || s.Value < 0 || s.Value >= len(s.Body) ||
		s.Op.Class() != graph.ClassScan || s.Body[s.Value].DType != s.DType {
		return fmt.Errorf("scan spec %+v for space %v", s, k.Space)
	}
	return nil
}

func TestScanKernelCounts(t *testing.T) {
	tests := []struct {
		name    string
		out     func() []*graph.Node
		kernels int
		space   []int // of the scan kernel
		axis    int
	}{
		{"exp(x).CumSum(1) * 2", func() []*graph.Node {
			x := input(8, 16)
			return []*graph.Node{mul(graph.Scan(graph.OpCumSum, exp(x), 1), f32(2))}
		}, 1, []int{8, 16}, 1},
		{"CumMax over a middle axis, merged outer and inner axes", func() []*graph.Node {
			x := input(2, 3, 5, 4, 6)
			return []*graph.Node{graph.Scan(graph.OpCumMax, x, 2)}
		}, 1, []int{6, 5, 24}, 1},
		{"x.T.CumSum(0) + y", func() []*graph.Node {
			x, y := input(6, 9), input(9, 6)
			return []*graph.Node{add(graph.Scan(graph.OpCumSum, graph.Permute(x, []int{1, 0}), 0), y)}
		}, 1, []int{9, 6}, 0},
		{"scan and its epilogue both outputs", func() []*graph.Node {
			x := input(4, 10)
			s := graph.Scan(graph.OpCumProd, x, -1)
			return []*graph.Node{s, exp(s)}
		}, 1, []int{4, 10}, 1},
		{"softmax-like: the scan of a reduction's epilogue", func() []*graph.Node {
			x := input(4, 10)
			m := graph.Reduce(graph.OpReduceMax, x, []int{1}, true)
			return []*graph.Node{graph.Scan(graph.OpCumSum, exp(sub(x, m)), 1)}
		}, 2, []int{4, 10}, 1},
		{"scan of a scan", func() []*graph.Node {
			x := input(5, 7)
			return []*graph.Node{graph.Scan(graph.OpCumMin, graph.Scan(graph.OpCumSum, x, 0), 1)}
		}, 2, []int{5, 7}, 1},
		{"flat scan", func() []*graph.Node {
			x := input(3, 4, 5)
			return []*graph.Node{graph.Scan(graph.OpCumSum, graph.Reshape(mul(x, x), graph.Shape{60}), 0)}
		}, 1, []int{60}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := check(t, nil, tt.out()...)
			require.Len(t, p.Kernels, tt.kernels, "kernels got:%d want:%d\n%s", len(p.Kernels), tt.kernels, Explain(p))
			last := p.Kernels[len(p.Kernels)-1]
			require.Equal(t, KindScan, last.Kind(), Explain(p))
			require.Equal(t, tt.space, last.Space, "space got:%v want:%v\n%s", last.Space, tt.space, Explain(p))
			require.Equal(t, tt.axis, last.Scan().Axis, "axis got:%v want:%v", last.Scan().Axis, tt.axis)
		})
	}
}

func TestScanErrors(t *testing.T) {
	x := input(3, 4)
	for _, tc := range []struct {
		name string
		n    *graph.Node
		want string
	}{
		{"axis 2", graph.Scan(graph.OpCumSum, x, 2), "CumSum((3, 4) float32): axis 2 is out of bounds for array of dimension 2"},
		{"axis -3", graph.Scan(graph.OpCumMax, x, -3), "axis -3 is out of bounds"},
		{"0-d", graph.Scan(graph.OpCumProd, f32(1), 0), "axis 0 is out of bounds for array of dimension 0"},
		{"not a scan", graph.Scan(graph.OpSum, x, 0), "not a scan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.n.Err())
			require.Contains(t, tc.n.Err().Error(), tc.want)
			_, err := Build([]*graph.Node{tc.n}, nil)
			require.Error(t, err)
		})
	}
}
