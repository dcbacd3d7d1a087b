// Test helpers: operand values of every dtype, their bytes, and calling a
// definition's scalar function on them.

package opdef_test

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"

	"github.com/fuseflow/fuseflow/exec"
	"github.com/fuseflow/fuseflow/graph"
	"github.com/fuseflow/fuseflow/internal/half"
	"github.com/fuseflow/fuseflow/internal/opdef"
)

var dtypes = graph.DTypes()

// base are the dtypes encode and decode know by their Go types; the
// others go by their bits.
var base = []graph.DType{graph.Bool, graph.Int32, graph.Int64, graph.Float32, graph.Float64}

// operands returns test values of dtype d as its Go type: zeros of both
// signs, ±1, extremes, NaN (two payloads), infinities, subnormals, values
// near the integer ranges, halves (for rounding) and random ones.
func operands(d graph.DType, r *rand.Rand) []reflect.Value {
	var out []reflect.Value
	add := func(v any) { out = append(out, reflect.ValueOf(v)) }
	switch d {
	case graph.Float16, graph.BFloat16: // every pattern
		for h := range 1 << 16 {
			if d == graph.Float16 {
				add(half.Float16(h))
			} else {
				add(half.BFloat16(h))
			}
		}
	case graph.Int8, graph.Int16, graph.Uint8, graph.Uint16, graph.Uint32, graph.Uint64:
		vs := []int64{0, 1, -1, 2, -2, 3, -7, 31, 62, 63, 64, 127, -128, 255, 32767, -32768, 65535, math.MaxInt32,
			math.MinInt32, math.MaxUint32, math.MaxInt64, math.MinInt64}
		for range 8 {
			vs = append(vs, int64(r.Uint64()), int64(r.IntN(41)-20))
		}
		for _, v := range vs {
			out = append(out, reflect.ValueOf(exec.ScalarFromBytes(binary.LittleEndian.AppendUint64(nil, uint64(v)), d)).
				FieldByName("I").Convert(goType(d)))
		}
	case graph.Bool:
		add(false)
		add(true)
	case graph.Int32, graph.Int64:
		vs := []int64{0, 1, -1, 2, -2, 3, -7, 31, 62, 63, 64, math.MaxInt32, math.MinInt32}
		if d == graph.Int64 {
			vs = append(vs, math.MaxInt64, math.MinInt64, 1<<40+3)
		}
		for range 4 {
			vs = append(vs, int64(r.Uint64()), int64(r.IntN(41)-20))
		}
		for _, v := range vs {
			if d == graph.Int32 {
				add(int32(v))
			} else {
				add(v)
			}
		}
	default:
		vs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 7, -7, 0.1, 3e9, -3e9, 1e19, -1e19,
			math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0xfff8000000000123), 5e-324, 1e-310,
			math.MaxFloat64, 700, -700, 2147483647.5, 9.3e18}
		for range 4 {
			vs = append(vs, r.NormFloat64()*50)
		}
		// Ties and near-ties of float16 and bfloat16 (normal and
		// subnormal), their overflow edges, and random bits.
		vs = append(vs, 1+0x1p-11, 1+3*0x1p-11, 65519, 65520, 65504, 0x1p-25, 0x1.8p-25, 0x1p-24, 0x1.8p-24,
			1+0x1p-8, 1+3*0x1p-8, 0x1.ff8p127, 0x1.fe8p127, 0x1p-134, 0x1.8p-133, -(1 + 0x1p-11))
		for range 200 {
			h := float64(half.Float16(r.IntN(0x7c00)).Float32())
			b := float64(half.BFloat16(r.IntN(0x7f80)).Float32())
			vs = append(vs, h+math.Ldexp(h, -11), h*(1+0x1p-11+0x1p-30), h*(1+0x1p-11-0x1p-30), b*(1+0x1p-8),
				b*(1+0x1p-8+0x1p-40), float64(math.Float32frombits(r.Uint32())), math.Float64frombits(r.Uint64()))
		}
		for _, v := range vs {
			if d == graph.Float32 {
				add(float32(v))
			} else {
				add(v)
			}
		}
	}
	return out
}

// goType returns the Go type of dtype d's values in opdef's functions.
func goType(d graph.DType) reflect.Type {
	return reflect.TypeOf(opdef.Cast(d, d)).In(0)
}

// encode returns the bytes of vals stored as dtype d (bool as one byte).
func encode(d graph.DType, vals []reflect.Value) []byte {
	if !slices.Contains(base, d) {
		b := make([]byte, len(vals)*d.Size())
		for i, v := range vals {
			var bits uint64
			if v.CanInt() {
				bits = uint64(v.Int())
			} else {
				bits = v.Uint()
			}
			var w [8]byte
			binary.LittleEndian.PutUint64(w[:], bits)
			copy(b[i*d.Size():], w[:d.Size()])
		}
		return b
	}
	b := make([]byte, 0, len(vals)*d.Size())
	for _, v := range vals {
		switch d {
		case graph.Bool:
			if v.Bool() {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		case graph.Int32:
			b = binary.LittleEndian.AppendUint32(b, uint32(v.Int()))
		case graph.Int64:
			b = binary.LittleEndian.AppendUint64(b, uint64(v.Int()))
		case graph.Float32:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v.Float())))
		case graph.Float64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float()))
		}
	}
	return b
}

// decode reads the elements of dtype d in b.
func decode(d graph.DType, b []byte) []reflect.Value {
	var out []reflect.Value
	if !slices.Contains(base, d) {
		for ; len(b) >= d.Size(); b = b[d.Size():] {
			var w [8]byte
			copy(w[:], b[:d.Size()])
			bits := binary.LittleEndian.Uint64(w[:])
			out = append(out, reflect.ValueOf(bits).Convert(goType(d)))
		}
		return out
	}
	for len(b) >= d.Size() {
		var v any
		switch d {
		case graph.Bool:
			v = b[0] != 0
		case graph.Int32:
			v = int32(binary.LittleEndian.Uint32(b))
		case graph.Int64:
			v = int64(binary.LittleEndian.Uint64(b))
		case graph.Float32:
			v = math.Float32frombits(binary.LittleEndian.Uint32(b))
		case graph.Float64:
			v = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
		out = append(out, reflect.ValueOf(v))
		b = b[d.Size():]
	}
	return out
}

// call applies a scalar function of opdef to args.
func call(fn any, args ...reflect.Value) reflect.Value {
	in := make([]any, len(args))
	for i, a := range args {
		in[i] = a.Interface()
	}
	return reflect.ValueOf(opdef.Call(fn, in...))
}

// same reports whether got and want are the same value: equal bits, any
// NaN for NaN, and (zeros) either zero for the other.
func same(got, want reflect.Value, zeros bool) bool {
	if got.Type() != want.Type() {
		return false
	}
	switch g := got.Interface().(type) {
	case half.Float16:
		gf, wf := g.Float32(), want.Interface().(half.Float16).Float32()
		return g == want.Interface() || gf != gf && wf != wf || zeros && gf == 0 && wf == 0
	case half.BFloat16:
		gf, wf := g.Float32(), want.Interface().(half.BFloat16).Float32()
		return g == want.Interface() || gf != gf && wf != wf || zeros && gf == 0 && wf == 0
	}
	switch got.Kind() {
	case reflect.Float32, reflect.Float64:
		g, w := got.Float(), want.Float()
		switch {
		case g != g || w != w:
			return g != g && w != w
		case zeros && g == 0 && w == 0:
			return true
		}
		return math.Float64bits(g) == math.Float64bits(w)
	}
	return got.Equal(want)
}

// ulpsApart returns how many representable values of their float type
// lie between got and want (+Inf when either is NaN or the kinds are not
// float).
func ulpsApart(got, want reflect.Value) float64 {
	g, w := got.Float(), want.Float()
	if g != g || w != w {
		return math.Inf(1)
	}
	ord := func(x float64) int64 { // float bits as an ordered integer
		if got.Kind() == reflect.Float32 {
			b := int64(int32(math.Float32bits(float32(x))))
			if b < 0 {
				b = math.MinInt32 - b
			}
			return b
		}
		b := int64(math.Float64bits(x))
		if b < 0 {
			b = math.MinInt64 - b
		}
		return b
	}
	return math.Abs(float64(ord(g)) - float64(ord(w)))
}

// pairs returns every pair of vals as two operand lists.
func pairs(vals []reflect.Value) (a, b []reflect.Value) {
	for _, x := range vals {
		for _, y := range vals {
			a, b = append(a, x), append(b, y)
		}
	}
	return a, b
}

// signedZerosDiffer lists the ops whose fast paths may give a zero of the
// other sign than the reference: the CPU's Maximum and Minimum order +0
// above -0 (Go's max and min), the reference's and the generated code's
// return the first operand when the two compare equal.
var signedZerosDiffer = map[graph.Op]bool{graph.OpMax: true, graph.OpMin: true}
