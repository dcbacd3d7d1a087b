// Every indexing, scan and rearranging op on each of the new dtypes
// evaluates on the reference and the CPU backend, with the same values.

package array_test

import (
	"fmt"
	"testing"

	"github.com/fuseflow/fuseflow/array"
)

func TestNewDTypesEveryOp(t *testing.T) {
	got := map[string][]float64{}
	backends := testBackends()
	for _, b := range []string{"ref", "cpu"} { // ref first: cpu is compared with it
		c := array.MustContext(array.WithBackend(backends[b]))
		for _, d := range []array.DType{array.Int8, array.Int16, array.Uint8, array.Uint16, array.Uint32, array.Uint64, array.Float16, array.BFloat16} {
			x := array.FromSlice(c, []float64{3, 1, 2, 5, 4, 0}, 2, 3).AsType(d)
			idx := array.FromSlice(c, []int64{1, 0})
			ops := map[string]func() *array.Array{
				"CumSum": func() *array.Array { return x.CumSum(1) }, "CumProd": func() *array.Array { return x.CumProd(1) },
				"CumMax": func() *array.Array { return x.CumMax(1) }, "CumMin": func() *array.Array { return x.CumMin(0) },
				"Take":       func() *array.Array { return x.Take(idx, 1) },
				"Mask":       func() *array.Array { return x.Mask(x.Gt(1)) },
				"Put":        func() *array.Array { return x.Put(idx, 7) },
				"ScatterAdd": func() *array.Array { return x.ScatterAdd(idx, 1, 0) },
				"ScatterMax": func() *array.Array { return x.ScatterMax(idx, 1, 0) },
				"Flip":       func() *array.Array { return x.Flip(1) }, "Roll": func() *array.Array { return x.Roll(1, 1) },
				"Pad":    func() *array.Array { return x.Pad([][2]int{{1, 0}, {0, 1}}, 0) },
				"Triu":   func() *array.Array { return x.Triu(0) },
				"Einsum": func() *array.Array { return array.Einsum("ij,kj->ik", x, x) },
				"Bincount": func() *array.Array {
					return array.Bincount(array.FromSlice(c, []int64{0, 1, 1}), array.FromSlice(c, []float64{1, 2, 3}).AsType(d), 0)
				},
			}
			for name, f := range ops {
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s %s %v: PANIC %v", b, name, d, r)
						}
					}()
					y := f()
					v, err := array.ToSlice[float64](y.AsType(array.Float64))
					if err != nil {
						t.Errorf("%s %s %v: %v", b, name, d, err)
						return
					}
					key := fmt.Sprintf("%s %v", name, d)
					if w, ok := got[key]; ok && fmt.Sprint(w) != fmt.Sprint(v) {
						t.Errorf("%s on cpu got:%v want:%v (ref)", key, v, w)
					}
					got[key] = v
				}()
			}
		}
	}
}
