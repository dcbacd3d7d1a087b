// Package indexcases holds the indexing cases every backend's tests run
// over every dtype pairing: each integer index dtype for the gathers and
// scatters, each array dtype for the scatters, Nonzero and masks.
package indexcases

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
)

// Cases builds, in c, one result per op and dtype pairing. It returns
// them by name, and every Array it made (inputs, intermediates and
// results) for the caller to release.
func Cases(c *array.Context) (map[string]*array.Array, []*array.Array) {
	out := map[string]*array.Array{}
	var all []*array.Array
	h := func(a *array.Array) *array.Array {
		all = append(all, a)
		return a
	}
	set := func(name string, d graph.DType, a *array.Array) { out[name+"/"+d.String()] = h(a) }
	x := h(array.FromSlice(c, []float64{0, 1, 2, 3, 4, 5}, 2, 3))
	for _, d := range graph.DTypes() {
		if !d.IsInt() {
			continue
		}
		idx := h(h(array.FromSlice(c, []int64{2, 0, 1, 2})).AsType(d))
		bad := h(h(array.FromSlice(c, []int64{1, 3})).AsType(d))
		set("take", d, x.Take(idx, 1))
		set("takealong", d, x.TakeAlongAxis(h(idx.Reshape(2, 2)), 1))
		set("put", d, x.Put(idx, 7.0))
		set("set", d, x.Set(idx, 9.0, 1))
		set("scatteradd", d, x.ScatterAdd(idx, 1.0, 1))
		set("scattermax", d, x.ScatterMax(idx, 4.5, 1))
		set("bincount", d, array.Bincount(idx, nil, 0))
		set("take-bad", d, x.Take(bad, 1))
		set("scatteradd-bad", d, x.ScatterAdd(bad, 1.0, 1))
	}
	for _, d := range graph.DTypes() {
		v := h(h(array.FromSlice(c, []float64{0, 1, 0, 3, -2, 0})).AsType(d))
		i := h(array.FromSlice(c, []int32{0, 2, 2}))
		taken := h(v.Take(i, 0))
		set("nonzero", d, v.FlatNonzero())
		set("mask", d, v.Mask(h(v.AsType(array.Bool))))
		if d != graph.Bool {
			set("scatteradd-into", d, v.ScatterAdd(i, 1, 0))
		}
		set("scattermax-into", d, v.ScatterMax(i, taken, 0))
		set("put-into", d, v.Put(i, taken))
	}
	return out, all
}

// Check evaluates Cases on dev and on oracle and requires the same values,
// and the same index error message where oracle fails.
func Check(t testing.TB, oracle, dev exec.Backend) {
	t.Helper()
	type result struct {
		v   []float64
		err error
	}
	var results []map[string]result
	for _, be := range []exec.Backend{oracle, dev} {
		c, err := array.NewContext(array.WithBackend(be))
		require.NoError(t, err)
		got := map[string]result{}
		cases, all := Cases(c)
		for name, a := range cases {
			f := a.AsType(array.Float64)
			v, err := array.ToSlice[float64](f)
			got[name] = result{v, err}
			f.Release()
		}
		for _, a := range all {
			a.Release()
		}
		results = append(results, got)
	}
	for name, want := range results[0] {
		got := results[1][name]
		if want.err != nil {
			// The backends prefix the error differently; the index
			// message itself is the same.
			if !assert.Error(t, got.err, name) {
				continue
			}
			msg := want.err.Error()
			if k := strings.Index(msg, "index "); k >= 0 {
				msg = msg[k:]
			}
			assert.Contains(t, got.err.Error(), msg, name)
			continue
		}
		if !assert.NoError(t, got.err, name) {
			continue
		}
		assert.Equal(t, want.v, got.v, "%s: got:%v want:%v", name, got.v, want.v)
	}
}
