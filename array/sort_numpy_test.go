// The NumPy-generated steps of sorting (Sort, ArgSort, their flat forms
// and TopK) and the check that the generated cases use each of them.

package array_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fuseflow/fuseflow/array"
)

// npSortSteps runs the sorting steps of gen_numpy.py's SORT_STEPS.
var npSortSteps = map[string]func(x *array.Array, args []any) (*array.Array, error){
	"Sort":        npAxisStep((*array.Array).Sort),
	"ArgSort":     npAxisStep((*array.Array).ArgSort),
	"SortFlat":    func(x *array.Array, _ []any) (*array.Array, error) { return x.SortFlat(), nil },
	"ArgSortFlat": func(x *array.Array, _ []any) (*array.Array, error) { return x.ArgSortFlat(), nil },
	"TopKValues":  npTopKStep(0),
	"TopKIndices": npTopKStep(1),
}

func npAxisStep(f func(*array.Array, ...int) *array.Array) func(*array.Array, []any) (*array.Array, error) {
	return func(x *array.Array, args []any) (*array.Array, error) {
		if len(args) != 1 {
			return nil, fmt.Errorf("want [axis], got %v", args)
		}
		ax, err := npAsInt(args[0])
		if err != nil {
			return nil, err
		}
		return f(x, ax), nil
	}
}

// npTopKStep returns the step giving TopK's values (which 0) or indices
// (which 1).
func npTopKStep(which int) func(*array.Array, []any) (*array.Array, error) {
	return func(x *array.Array, args []any) (*array.Array, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("want [k, axis], got %v", args)
		}
		k, err1 := npAsInt(args[0])
		ax, err2 := npAsInt(args[1])
		if err := npFirstError(err1, err2); err != nil {
			return nil, err
		}
		v, i := x.TopK(k, ax)
		return [2]*array.Array{v, i}[which], nil
	}
}

// TestNumPyCasesCoverSorting checks that the generated data uses every
// sorting step, with NaN, -0 and ties among the inputs.
func TestNumPyCasesCoverSorting(t *testing.T) {
	file := loadNumPyCases(t)
	seen := map[string]int{}
	special := 0
	for _, c := range file.Cases {
		npEachStep(c.Prog, func(st []any) {
			if name, _ := st[0].(string); npSortSteps[name] != nil {
				seen[name]++
				if strings.HasPrefix(c.Name, "sort-special/") {
					special++
				}
			}
		})
	}
	for name := range npSortSteps {
		if seen[name] == 0 {
			t.Errorf("no NumPy case uses %s", name)
		}
	}
	if special == 0 {
		t.Errorf("got:%d want: cases with NaN, -0 and infinities", special)
	}
}
