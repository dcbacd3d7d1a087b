// Sort keys: each dtype's elements mapped to unsigned integers whose
// order is the sort order (NumPy's: NaN last, -0 and +0 equal), one
// table row per dtype.

package cpu

import (
	"unsafe"

	"github.com/fuseflow/fuseflow/graph"
)

// keyKind says how a dtype's bits map to an order-preserving key.
type keyKind uint8

const (
	keyUnsigned keyKind = iota + 1 // the bits as they are
	keySigned                      // the sign bit flipped
	keyFloat                       // NaN to the largest key, -0 to +0, negatives inverted, the sign bit of positives set
	keyBool                        // a nonzero byte is 1
)

// sortKeyRow describes a dtype's keys: its element size in bytes, its
// kind, and for floats the bits of +Inf (a magnitude above it is NaN).
type sortKeyRow struct {
	size int
	kind keyKind
	inf  uint64
}

// sortKeyTable has a row for every dtype the CPU sorts. A new dtype is
// one row: an integer of its size and signedness, or a float with its
// +Inf bits (float16 0x7c00, bfloat16 0x7f80).
var sortKeyTable = map[graph.DType]sortKeyRow{
	graph.Bool:    {1, keyBool, 0},
	graph.Int32:   {4, keySigned, 0},
	graph.Int64:   {8, keySigned, 0},
	graph.Float32: {4, keyFloat, 0x7f800000},
	graph.Float64: {8, keyFloat, 0x7ff0000000000000},
}

// bits is the width of the row's keys.
func (r sortKeyRow) bits() int {
	if r.kind == keyBool {
		return 1
	}
	return r.size * 8
}

// loadKeys reads n elements of raw type T (the dtype's bits) starting at
// src with a stride of stride elements into dst as keys of the row's
// kind, inverted (largest first) with desc.
func loadKeys[T uint8 | uint16 | uint32 | uint64, K uint32 | uint64](dst []K, src unsafe.Pointer, stride int, r sortKeyRow, desc bool) {
	n := len(dst)
	width := uint(unsafe.Sizeof(T(0))) * 8
	sign := T(1) << (width - 1)
	inf := T(r.inf)
	flip := keyFlip[K](r, desc)
	es := int(unsafe.Sizeof(T(0)))
	step := stride * es
	switch r.kind {
	case keyUnsigned:
		for j := range n {
			dst[j] = K(*(*T)(unsafe.Add(src, j*step))) ^ flip
		}
	case keySigned:
		for j := range n {
			dst[j] = K(*(*T)(unsafe.Add(src, j*step))^sign) ^ flip
		}
	case keyBool:
		for j := range n {
			b := K(0)
			if *(*uint8)(unsafe.Add(src, j*step)) != 0 {
				b = 1
			}
			dst[j] = b ^ flip
		}
	case keyFloat:
		// Without branches (the signs of data are unpredictable): -0
		// becomes +0, a negative is inverted and a positive gets its
		// sign bit set (b ^ (its sign spread over every bit | sign)),
		// NaN becomes the largest key.
		for j := range n {
			b := *(*T)(unsafe.Add(src, j*step))
			abs := b &^ sign
			if abs == 0 {
				b = 0
			}
			k := b ^ (-(b >> (width - 1)) | sign)
			if abs > inf {
				k = ^T(0)
			}
			dst[j] = K(k) ^ flip
		}
	}
}

// keyFlip returns the mask a key is xored with: every key bit for a
// descending sort (the shift in two steps: bits may be 64), else 0.
func keyFlip[K uint32 | uint64](r sortKeyRow, desc bool) K {
	if !desc {
		return 0
	}
	return K(1)<<(r.bits()-1)<<1 - 1
}

// storeKeys writes keys of an integer or bool row back as elements of
// raw type T (the inverse of loadKeys; a bool is 0 or 1) to dst with a
// stride of ds elements.
func storeKeys[T uint8 | uint16 | uint32 | uint64, K uint32 | uint64](dst unsafe.Pointer, ds int, keys []K, r sortKeyRow, desc bool) {
	width := uint(unsafe.Sizeof(T(0))) * 8
	var sign T
	if r.kind == keySigned {
		sign = T(1) << (width - 1)
	}
	flip := keyFlip[K](r, desc)
	step := ds * int(unsafe.Sizeof(T(0)))
	for j, k := range keys {
		*(*T)(unsafe.Add(dst, j*step)) = T(k^flip) ^ sign
	}
}

// loadBits reads the raw bits of n elements of type T into pl.
func loadBits[T uint8 | uint16 | uint32 | uint64, P uint32 | uint64](pl []P, src unsafe.Pointer, stride int) {
	step := stride * int(unsafe.Sizeof(T(0)))
	for j := range pl {
		pl[j] = P(*(*T)(unsafe.Add(src, j*step)))
	}
}

// storeBits writes the bits in pl as elements of type T.
func storeBits[T uint8 | uint16 | uint32 | uint64, P uint32 | uint64](dst unsafe.Pointer, ds int, pl []P) {
	step := ds * int(unsafe.Sizeof(T(0)))
	for j, b := range pl {
		*(*T)(unsafe.Add(dst, j*step)) = T(b)
	}
}

// storeFloatKeys writes keys of a float row back as the bits of type T
// (the inverse of loadKeys for every key but those of -0, whose sign it
// loses, and of NaN, whose payload it loses) to dst with a stride of ds
// elements: a key with its sign bit set was a positive (the bit
// cleared), any other a negative (inverted).
func storeFloatKeys[T uint32 | uint64, K uint32 | uint64](dst unsafe.Pointer, ds int, keys []K, r sortKeyRow, desc bool) {
	width := uint(unsafe.Sizeof(T(0))) * 8
	sign := T(1) << (width - 1)
	flip := keyFlip[K](r, desc)
	step := ds * int(unsafe.Sizeof(T(0)))
	for j, k := range keys {
		b := T(k ^ flip)
		*(*T)(unsafe.Add(dst, j*step)) = b ^ ((b >> (width - 1)) - 1 | sign)
	}
}

// storeFloatKeysOf stores the keys of a float row of elements of size
// bytes as the values (see storeFloatKeys).
func storeFloatKeysOf[K uint32 | uint64, P payload](size int) rowStore[K, P] {
	f := storeFloatKeys[uint32, K]
	if size == 8 {
		f = storeFloatKeys[uint64, K]
	}
	return func(sk *sortKernel, ex *runState, r int, keys []K, _ []P, lo, hi int, _ unsafe.Pointer, _ int) {
		dst, ds := sk.dst(ex, sk.vals, r)
		f(at(dst, lo*ds, size), ds, keys[lo:hi], sk.row, sk.desc)
	}
}

// hasZeroOrNaN reports whether n floats of bits T at src (stride in
// elements) hold a zero of either sign or a NaN: a magnitude whose
// predecessor is at least +Inf's bits (0 wraps around).
func hasZeroOrNaN[T uint32 | uint64](src unsafe.Pointer, stride, n int, inf uint64) bool {
	sign := T(1) << (unsafe.Sizeof(T(0))*8 - 1)
	step := stride * int(unsafe.Sizeof(T(0)))
	bad := false
	for j := range n {
		b := *(*T)(unsafe.Add(src, j*step))
		bad = bad || (b&^sign)-1 >= T(inf)
	}
	return bad
}
