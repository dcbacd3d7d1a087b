// The indexing steps of the NumPy cases (array/testdata/gen_numpy.py,
// gen_index) and a check that the cases use every one of them.

package array_test

import (
	"fmt"
	"testing"

	"github.com/fuseflow/fuseflow/array"
)

// npIndexSteps run the indexing steps of a NumPy case on x (filled in
// init: the steps run nested programs, which run steps).
var npIndexSteps map[string]func(r *npRunner, x *array.Array, args []any) (*array.Array, error)

func init() { npIndexSteps = npIndexStepTable() }

func npIndexStepTable() map[string]func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
	return map[string]func(r *npRunner, x *array.Array, args []any) (*array.Array, error){
		"Take": func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
			idx, ax, err := npIndexAxis(r, args[0], args[1])
			if err != nil {
				return nil, err
			}
			return x.Take(idx, ax), nil
		},
		"TakeAlongAxis": func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
			idx, ax, err := npIndexAxis(r, args[0], args[1])
			if err != nil {
				return nil, err
			}
			return x.TakeAlongAxis(idx, ax), nil
		},
		"Mask": func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
			m, err := npArrayOperand(r, args[0])
			if err != nil {
				return nil, err
			}
			return r.keep(x.Mask(m)), nil
		},
		"Nonzero": func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
			k, err := npAsInt(args[0])
			if err != nil {
				return nil, err
			}
			nz := x.Nonzero()
			for _, a := range nz {
				r.keep(a)
			}
			return nz[k], nil
		},
		"FlatNonzero": func(r *npRunner, x *array.Array, _ []any) (*array.Array, error) {
			return x.FlatNonzero(), nil
		},
		"Put": func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
			idx, err1 := npArrayOperand(r, args[0])
			v, err2 := r.operand(args[1])
			if err := npFirstError(err1, err2); err != nil {
				return nil, err
			}
			return x.Put(idx, v), nil
		},
		"Set":        npUpdateStep((*array.Array).Set),
		"ScatterAdd": npUpdateStep((*array.Array).ScatterAdd),
		"ScatterMax": npUpdateStep((*array.Array).ScatterMax),
		"Bincount": func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
			var w *array.Array
			if args[0] != nil {
				var err error
				if w, err = npArrayOperand(r, args[0]); err != nil {
					return nil, err
				}
			}
			n, err := npAsInt(args[1])
			if err != nil {
				return nil, err
			}
			return array.Bincount(x, w, n), nil
		},
		"Histogram":      npHistogramStep(0),
		"HistogramEdges": npHistogramStep(1),
		"HistogramWith":  npHistogramWithStep,
	}
}

// npArrayOperand is an operand that must be an array.
func npArrayOperand(r *npRunner, v any) (*array.Array, error) {
	o, err := r.operand(v)
	if err != nil {
		return nil, err
	}
	a, ok := o.(*array.Array)
	if !ok {
		return nil, fmt.Errorf("operand %v is not an array", v)
	}
	return a, nil
}

// npIndexAxis reads an index array operand and an axis.
func npIndexAxis(r *npRunner, idx, axis any) (*array.Array, int, error) {
	a, err1 := npArrayOperand(r, idx)
	ax, err2 := npAsInt(axis)
	return a, ax, npFirstError(err1, err2)
}

// npUpdateStep runs Set, ScatterAdd or ScatterMax: [indices, values, axis].
func npUpdateStep(f func(*array.Array, *array.Array, any, int) *array.Array) func(*npRunner, *array.Array, []any) (*array.Array, error) {
	return func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
		idx, ax, err := npIndexAxis(r, args[0], args[2])
		if err != nil {
			return nil, err
		}
		v, err := r.operand(args[1])
		if err != nil {
			return nil, err
		}
		return f(x, idx, v, ax), nil
	}
}

// npHistogramStep returns the counts (k 0) or the edges (k 1) of
// Histogram: [bins, range or null].
func npHistogramStep(k int) func(*npRunner, *array.Array, []any) (*array.Array, error) {
	return func(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
		bins, err := npAsInt(args[0])
		if err != nil {
			return nil, err
		}
		var rng []float64
		if l, ok := args[1].([]any); ok {
			for _, e := range l {
				f, err := npAsFloat(e)
				if err != nil {
					return nil, err
				}
				rng = append(rng, f)
			}
		}
		c, e := x.Histogram(bins, rng...)
		r.keep(c)
		r.keep(e)
		if k == 0 {
			return c, nil
		}
		return e, nil
	}
}

// npHistogramWithStep runs HistogramWith: [options, 0 for the counts or
// 1 for the edges]; the options are numpy.histogram's keywords, bins an
// int or an array operand (the edges).
func npHistogramWithStep(r *npRunner, x *array.Array, args []any) (*array.Array, error) {
	m, ok := args[0].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("bad histogram options %v", args[0])
	}
	k, err := npAsInt(args[1])
	if err != nil {
		return nil, err
	}
	var o array.HistogramOpts
	if b, ok := m["bins"]; ok {
		if _, isArr := b.(map[string]any); isArr {
			o.Edges, err = npArrayOperand(r, b)
		} else {
			o.Bins, err = npAsInt(b)
		}
		if err != nil {
			return nil, err
		}
	}
	if l, ok := m["range"].([]any); ok {
		for _, e := range l {
			f, err := npAsFloat(e)
			if err != nil {
				return nil, err
			}
			o.Range = append(o.Range, f)
		}
	}
	if w, ok := m["weights"]; ok && w != nil {
		if o.Weights, err = npArrayOperand(r, w); err != nil {
			return nil, err
		}
	}
	o.Density, _ = m["density"].(bool)
	c, e := x.HistogramWith(o)
	r.keep(c)
	r.keep(e)
	if k == 0 {
		return c, nil
	}
	return e, nil
}

// TestNumPyCasesCoverIndexing checks that the generated data uses every
// indexing step.
func TestNumPyCasesCoverIndexing(t *testing.T) {
	seen := npStepsUsed(t)
	for n := range npIndexSteps {
		if !seen[n] {
			t.Errorf("no NumPy case uses %s", n)
		}
	}
}
