// NumPy cases on the dtypes beyond the first five: inputs built from the
// JSON values and results compared with them (integers exactly, uint64 by
// its decimal value; float16 and bfloat16 within the case's tolerance in
// ulps of the 16-bit type, or its relative error).

package array_test

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fuseflow/fuseflow/array"
	"github.com/fuseflow/fuseflow/graph"
)

// npUint64 reads a JSON integer as uint64 bits (values above MaxInt64
// included).
func npUint64(v any) (uint64, error) {
	if n, ok := v.(json.Number); ok {
		if u, err := strconv.ParseUint(string(n), 10, 64); err == nil {
			return u, nil
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		return uint64(i), err
	}
	i, err := npAsInt64(v)
	return uint64(i), err
}

// npInputNew builds an input of one of the new dtypes.
func npInputNew(r *npRunner, d array.DType, in npArray) (*array.Array, error) {
	n := len(in.Data)
	ints := make([]uint64, n)
	floats := make([]float32, n)
	for i, e := range in.Data {
		var err error
		if d.IsFloat() {
			var f float64
			f, err = npAsFloat(e)
			floats[i] = float32(f) // the 16-bit values are exact in float32
		} else {
			ints[i], err = npUint64(e)
		}
		if err != nil {
			return nil, err
		}
	}
	switch d {
	case array.Int8:
		return npInputFrom(r, npMap(ints, func(u uint64) int8 { return int8(u) }), in.Shape), nil
	case array.Int16:
		return npInputFrom(r, npMap(ints, func(u uint64) int16 { return int16(u) }), in.Shape), nil
	case array.Uint8:
		return npInputFrom(r, npMap(ints, func(u uint64) uint8 { return uint8(u) }), in.Shape), nil
	case array.Uint16:
		return npInputFrom(r, npMap(ints, func(u uint64) uint16 { return uint16(u) }), in.Shape), nil
	case array.Uint32:
		return npInputFrom(r, npMap(ints, func(u uint64) uint32 { return uint32(u) }), in.Shape), nil
	case array.Uint64:
		return npInputFrom(r, ints, in.Shape), nil
	case array.Float16, array.BFloat16:
		x := array.FromFloat32s(r.ctx, d, floats)
		r.keep(x)
		if len(in.Shape) == 1 && in.Shape[0] == n {
			return x, x.Err()
		}
		y := x.Reshape(in.Shape...)
		return y, y.Err()
	}
	return nil, fmt.Errorf("unsupported input dtype %v", d)
}

func npMap[T any](u []uint64, f func(uint64) T) []T {
	out := make([]T, len(u))
	for i, x := range u {
		out[i] = f(x)
	}
	return out
}

// npCompareNew compares a result of one of the new dtypes (see
// npCompareValues).
func npCompareNew(t *testing.T, name string, got *array.Array, want npArray, tl npTol, report func(i int, g, w any)) {
	t.Helper()
	d := got.DType()
	if d.IsFloat() {
		g, err := array.ToFloat32s(got)
		require.NoError(t, err)
		require.Len(t, g, len(want.Data))
		ulp := math.Ldexp(1, -10)
		if d == array.BFloat16 {
			ulp = math.Ldexp(1, -7)
		}
		for i, wv := range want.Data {
			w := npMustFloat(t, wv)
			gi := float64(g[i])
			ulps := math.Abs(gi-w) / (ulp * max(math.Abs(w), 0x1p-14))
			if !npCloseFloat(gi, w, ulps, tl) {
				report(i, gi, w)
			}
		}
		return
	}
	u := got.AsType(array.Uint64) // wraps: the bits of negatives
	defer u.Release()
	g := array.MustToSlice[uint64](u)
	require.Len(t, g, len(want.Data))
	for i, wv := range want.Data {
		w, err := npUint64(wv)
		require.NoError(t, err)
		if d != array.Uint64 {
			w = uint64(graph.WrapInt(d, int64(w))) // sign-extended as AsType gives it
		}
		if g[i] != w {
			report(i, g[i], w)
		}
	}
}
