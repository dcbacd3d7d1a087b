// Scan workloads: CumSum of 2^24 float32 and int32 values (flat), along
// the rows and down the columns of a matrix, over short rows, CumMax,
// and a scan with a fused prologue and epilogue.

package suite

import (
	"fmt"

	"github.com/fuseflow/fuseflow/graph"
)

// ScanN is the length of the flat scans.
const ScanN = 1 << 24

func init() {
	scan := func(flat func(*arr) *arr, axis func(*arr, int) *arr) func(*arr, ...int) *arr {
		return func(a *arr, axes ...int) *arr {
			if len(axes) == 0 {
				return flat(a)
			}
			return axis(a, axes[0])
		}
	}
	reduceFuncs["cumsum"] = scan((*arr).CumSumFlat, (*arr).CumSum)
	reduceFuncs["cumprod"] = scan((*arr).CumProdFlat, (*arr).CumProd)
	reduceFuncs["cummax"] = scan((*arr).CumMaxFlat, (*arr).CumMax)
	reduceFuncs["cummin"] = scan((*arr).CumMinFlat, (*arr).CumMin)
}

func scanWorkloads() []Workload {
	var ws []Workload
	add := func(name, expr string, ins ...Input) {
		ws = append(ws, Workload{Name: name, Inputs: ins, Expr: expr})
	}
	for _, d := range []graph.DType{graph.Float32, graph.Int32, graph.Float64} {
		add("cumsum.flat."+dtypeNames[d], "cumsum(x)", shaped("x", d, -1000, 1000, ScanN))
	}
	add("cummax.flat.f32", "cummax(x)", shaped("x", graph.Float32, -1000, 1000, ScanN))
	for _, l := range []struct {
		name  string
		shape []int
		axis  int
	}{{"ax1", []int{MatN, MatN}, 1}, {"ax0", []int{MatN, MatN}, 0}, {"rows8", []int{Rows, RowW}, 1}} {
		add(fmt.Sprintf("cumsum.%s.f32", l.name), fmt.Sprintf("cumsum(x, %d)", l.axis), shaped("x", graph.Float32, -1, 1, l.shape...))
	}
	add("cumsum_fused.ax1.f32", "mul(cumsum(exp(x), 1), 2)", shaped("x", graph.Float32, -1, 1, MatN, MatN))
	return ws
}
