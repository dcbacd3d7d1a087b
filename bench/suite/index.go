// Indexing workloads: gathers (random elements, whole rows, along an
// axis, fused with an epilogue or a sum), a boolean mask, Bincount and
// Histogram, each as NumPy writes it
// (np.take, x[c], np.take_along_axis, np.bincount, np.histogram).

package suite

import (
	"fmt"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/graph"
)

// indexFuncs take an array and an index array (or mask), then integer
// arguments: take(x, i, axis), takealong(x, i, axis), mask(x, c).
var indexFuncs = map[string]func(x, i *arr, rest ...int) *arr{
	"take": func(x, i *arr, rest ...int) *arr {
		if len(rest) != 1 {
			return x.Take(nil, -1)
		}
		return x.Take(i, rest[0])
	},
	"takealong": func(x, i *arr, rest ...int) *arr {
		if len(rest) != 1 {
			return x.TakeAlongAxis(nil, -1)
		}
		return x.TakeAlongAxis(i, rest[0])
	},
	"mask": func(x, c *arr, rest ...int) *arr {
		if len(rest) != 0 {
			return x.Mask(nil)
		}
		return x.Mask(c)
	},
}

// countFunc runs bincount(i[, minlength]) or hist(x, bins) (over x's
// range: NumPy's default).
func countFunc(f string, x *arr, rest []int) (*arr, error) {
	if f == "bincount" {
		if len(rest) > 1 {
			return nil, fmt.Errorf("suite: bincount takes at most 1 integer argument, got %d", len(rest))
		}
		return array.Bincount(x, nil, append(rest, 0)[0]), nil
	}
	if len(rest) != 1 {
		return nil, fmt.Errorf("suite: hist takes 1 integer argument, got %d", len(rest))
	}
	h, e := x.Histogram(rest[0])
	e.Release()
	return h, nil
}

// IndexN is the length of the index workloads' arrays (2^24).
const IndexN = 1 << 24

// indexWorkloads adds the indexing workloads.
func indexWorkloads(add func(name, expr string, ins ...Input)) {
	for _, d := range floats {
		n := dtypeNames[d]
		add("take."+n, "take(x, i, 0)", shaped("x", d, -1, 1, IndexN), shaped("i", graph.Int64, 0, IndexN, IndexN))
		add("take_neg."+n, "take(x, i, 0)", shaped("x", d, -1, 1, IndexN), shaped("i", graph.Int64, -IndexN, 0, IndexN))
		add("take_rows."+n, "take(x, i, 0)", shaped("x", d, -1, 1, MatN, MatN), shaped("i", graph.Int64, 0, MatN, MatN))
		add("takealong."+n, "takealong(x, i, 1)", shaped("x", d, -1, 1, MatN, MatN), shaped("i", graph.Int64, 0, MatN, MatN, MatN))
		add("mask."+n, "mask(x, gt(x, 0))", shaped("x", d, -1, 1, IndexN))
		add("mask_fused."+n, "mul(mask(exp(x), gt(x, 0.5)), 2)", shaped("x", d, -1, 1, IndexN))
		add("hist."+n, "hist(x, 100)", shaped("x", d, -1, 1, IndexN))
	}
	add("take.i32idx.f32", "take(x, i, 0)", shaped("x", graph.Float32, -1, 1, IndexN), shaped("i", graph.Int32, 0, IndexN, IndexN))
	// Gathers fused with their consumers: NumPy's x[i]*2 + y and
	// np.take_along_axis(x, i, 1).sum(1) store the gathered array first.
	add("take_mul_add.f32", "add(mul(take(x, i, 0), 2), y)", shaped("x", graph.Float32, -1, 1, IndexN),
		shaped("i", graph.Int64, 0, IndexN, IndexN), shaped("y", graph.Float32, -1, 1, IndexN))
	add("takealong_sum.f32", "sum(takealong(x, i, 1), 1)", shaped("x", graph.Float32, -1, 1, MatN, MatN),
		shaped("i", graph.Int64, 0, MatN, MatN, MatN))
	add("bincount.i64", "bincount(i)", shaped("i", graph.Int64, 0, 1000, IndexN))
	add("bincount_wide.i64", "bincount(i)", shaped("i", graph.Int64, 0, 1<<20, IndexN))
	add("bincount.i32", "bincount(i)", shaped("i", graph.Int32, 0, 1000, IndexN))
}
