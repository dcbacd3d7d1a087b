// The NumPy cases of the rearranging views (Flip, Roll, Tile, Repeat,
// RepeatCounts, Pad, PadEdge, Diagonal, Triu, Tril): how the generator's
// steps map to the array API.

package array_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fuseflow/fuseflow/array"
)

// npRearrangeSteps runs the steps of gen_rearrange in gen_numpy.py.
var npRearrangeSteps = map[string]func(r *npRunner, x *array.Array, args []any) (*array.Array, error){
	"Flip": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		axes, err := npAxesArg(args[0])
		return x.Flip(axes...), err
	},
	"Roll": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		shift, err1 := npAsInt(args[0])
		axes, err2 := npAxesArg(args[1])
		return x.Roll(shift, axes...), npFirstError(err1, err2)
	},
	"Tile": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		reps, err := npAsInts(args[0])
		return x.Tile(reps...), err
	},
	"Repeat": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		n, err1 := npAsInt(args[0])
		axis, err2 := npOptAxis(args[1])
		return x.Repeat(n, axis...), npFirstError(err1, err2)
	},
	"RepeatCounts": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		counts, err1 := npAsInts(args[0])
		axis, err2 := npOptAxis(args[1])
		return x.RepeatCounts(counts, axis...), npFirstError(err1, err2)
	},
	"Pad": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		w, err1 := npPairs(args[0])
		v, err2 := npNumber(args[1])
		return x.Pad(w, v), npFirstError(err1, err2)
	},
	"PadEdge": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		w, err := npPairs(args[0])
		return x.PadEdge(w), err
	},
	"Diagonal": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		k, err1 := npAsInt(args[0])
		a1, err2 := npAsInt(args[1])
		a2, err3 := npAsInt(args[2])
		return x.Diagonal(k, a1, a2), npFirstError(err1, err2, err3)
	},
	"Triu": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		k, err := npAsInt(args[0])
		return x.Triu(k), err
	},
	"Tril": func(_ *npRunner, x *array.Array, args []any) (*array.Array, error) {
		k, err := npAsInt(args[0])
		return x.Tril(k), err
	},
}

// npOptAxis returns no axis for JSON null, else the one axis.
func npOptAxis(v any) ([]int, error) {
	if v == nil {
		return nil, nil
	}
	ax, err := npAsInt(v)
	return []int{ax}, err
}

// npPairs returns a list of [before, after] pairs.
func npPairs(v any) ([][2]int, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("not a list of pairs: %v", v)
	}
	out := make([][2]int, len(l))
	for i, e := range l {
		p, err := npAsInts(e)
		if err != nil || len(p) != 2 {
			return nil, fmt.Errorf("bad pair %v", e)
		}
		out[i] = [2]int{p[0], p[1]}
	}
	return out, nil
}

// npNumber returns a JSON number as int64 when it is written as an
// integer, as float64 otherwise (a string is a float such as "nan"); a
// bool as itself.
func npNumber(v any) (any, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			return npAsInt64(x)
		}
	}
	return npAsFloat(v)
}

func init() {
	npRearrangeSteps["Einsum"] = func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
		sub, ok := args[0].(string)
		if !ok {
			return nil, fmt.Errorf("bad subscripts %v", args[0])
		}
		rest, err := r.arrayOperands(args[1])
		return array.Einsum(sub, append([]*array.Array{x}, rest...)...), err
	}
}
