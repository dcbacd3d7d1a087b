// The scan steps of the NumPy-generated cases (gen_numpy.py gen_scans):
// ["CumSum", axis], axis null for the flat form.

package array_test

import (
	"testing"

	"github.com/fuseflow/fuseflow/array"
)

type npScanFns struct {
	axis func(*array.Array, int) *array.Array
	flat func(*array.Array) *array.Array
}

var npScanOps = map[string]npScanFns{
	"CumSum":  {(*array.Array).CumSum, (*array.Array).CumSumFlat},
	"CumProd": {(*array.Array).CumProd, (*array.Array).CumProdFlat},
	"CumMax":  {(*array.Array).CumMax, (*array.Array).CumMaxFlat},
	"CumMin":  {(*array.Array).CumMin, (*array.Array).CumMinFlat},
}

// Scan tolerances: the reference adds float32 running sums in float32,
// one element after another, as NumPy does, and so does the CPU within a
// chunk; a backend that splits a long lane into pieces (the CPU's
// two-pass scan, the GPU's block scan) adds each piece's total to the
// carry in a different order, which moves a running sum by at most about
// n*eps of the sum of magnitudes: for these cases, 1e-5 relative in
// float32 and 1e-12 in float64. CumMax and CumMin are exact.
func init() {
	npOpTol["CumSum"] = [2]npTol{{rel: 1e-5}, {rel: 1e-12}}
	npOpTol["CumProd"] = [2]npTol{{rel: 1e-5}, {rel: 1e-12}}
}

func npScan(x *array.Array, f npScanFns, args []any) (*array.Array, error) {
	if args[0] == nil {
		return f.flat(x), nil
	}
	ax, err := npAsInt(args[0])
	if err != nil {
		return nil, err
	}
	return f.axis(x, ax), nil
}

func TestNumPyCasesCoverScans(t *testing.T) {
	file := loadNumPyCases(t)
	seen := map[string]bool{}
	for _, c := range file.Cases {
		npEachStep(c.Prog, func(st []any) {
			if len(st) > 1 {
				name, _ := st[0].(string)
				seen[name+map[bool]string{true: "/flat", false: ""}[st[1] == nil]] = true
			}
		})
	}
	for n := range npScanOps {
		if !seen[n] || !seen[n+"/flat"] {
			t.Errorf("no NumPy case uses %s along an axis and flat", n)
		}
	}
}
