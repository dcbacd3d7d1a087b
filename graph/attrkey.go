// The canonical encoding of a node's attributes, from which both its
// structural hash and the equality of interned nodes derive, so that the
// two cannot disagree.

package graph

import (
	"encoding/binary"
	"math"
)

// appendKey appends the canonical encoding of a to b and returns it: for
// each field that is not zero, in field order, a tag and the value
// (integers as varints, floats by their bits, so -0 and +0 differ and a
// NaN equals itself; strings and lists with their length first). Zero
// fields write nothing, so the attributes of most nodes (elementwise ops)
// encode to nothing. Every value delimits itself, so two Attrs encode
// alike exactly when they are the same: hashing and interning compare
// encodings, and no comparer is written by hand.
//
// A new attribute field takes one line here with a tag of its own; a
// field of a new type takes a key function below (a call appends its
// kernel's identity, see CallAttr.AppendKey). TestAttrKeyCoversEveryField
// fails until both are there.
func (a *Attr) appendKey(b []byte) []byte {
	b = keyScalar(b, 1, a.Value)
	b = keyString(b, 2, a.Label)
	b = keyFloat(b, 3, a.Start)
	b = keyFloat(b, 4, a.Step)
	b = keyFloat(b, 5, a.Stop)
	b = keyBool(b, 6, a.HasStop)
	b = keyInt(b, 7, int64(a.K))
	b = keyUint(b, 8, a.Seed)
	b = keyInts(b, 9, a.Axes)
	b = keyBool(b, 10, a.KeepDims)
	b = keyBool(b, 11, a.Flat)
	b = keyInts(b, 12, a.Perm)
	b = keySlices(b, 13, a.Slices)
	b = keyInt(b, 14, int64(a.Axis))
	b = keyCall(b, 15, a.Call)
	b = keyInt(b, 16, int64(a.Output))
	b = keyBool(b, 17, a.Desc)
	return b
}

func keyInt(b []byte, tag byte, v int64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendVarint(append(b, tag), v)
}

func keyUint(b []byte, tag byte, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendUvarint(append(b, tag), v)
}

func keyBool(b []byte, tag byte, v bool) []byte {
	if !v {
		return b
	}
	return append(b, tag)
}

func keyFloat(b []byte, tag byte, v float64) []byte {
	return keyUint(b, tag, math.Float64bits(v))
}

func keyString(b []byte, tag byte, s string) []byte {
	if s == "" {
		return b
	}
	b = binary.AppendUvarint(append(b, tag), uint64(len(s)))
	return append(b, s...)
}

// keyList appends v's length and each element as each writes it.
func keyList[T any](b []byte, tag byte, v []T, each func([]byte, T) []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = binary.AppendUvarint(append(b, tag), uint64(len(v)))
	for _, x := range v {
		b = each(b, x)
	}
	return b
}

func keyInts(b []byte, tag byte, v []int) []byte {
	return keyList(b, tag, v, func(b []byte, x int) []byte { return binary.AppendVarint(b, int64(x)) })
}

func keyScalar(b []byte, tag byte, s Scalar) []byte {
	f := math.Float64bits(s.F)
	if s.DType == Invalid && s.I == 0 && f == 0 {
		return b
	}
	b = binary.AppendUvarint(append(b, tag), uint64(s.DType))
	b = binary.AppendVarint(b, s.I)
	return binary.AppendUvarint(b, f)
}

func keySlices(b []byte, tag byte, v []SliceSpec) []byte {
	return keyList(b, tag, v, func(b []byte, s SliceSpec) []byte {
		b = binary.AppendVarint(b, int64(s.Start))
		b = binary.AppendVarint(b, int64(s.Step))
		return binary.AppendVarint(b, int64(s.Len))
	})
}

// keyCall appends a call's canonical encoding (CallAttr.AppendKey),
// length first.
func keyCall(b []byte, tag byte, c *CallAttr) []byte {
	if c == nil {
		return b
	}
	k := c.AppendKey(nil)
	b = binary.AppendUvarint(append(b, tag), uint64(len(k)))
	return append(b, k...)
}
