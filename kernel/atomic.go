// This file implements the atomic operations on an element of a slice
// (global memory, or shared memory from Shared and DynShared), each
// returning the element's old value, with the types CUDA supports: add,
// sub and exchange on 32- and 64-bit integers and floats; min, max,
// compare-and-swap, and, or and xor on 32- and 64-bit integers; inc and
// dec on uint32 with CUDA's wrap-around. On the CPU they are sync/atomic
// operations (compare-and-swap loops where Go has no instruction), so
// they order memory as Go's atomics do.

package kernel

import (
	"sync/atomic"
	"unsafe"
)

// as reinterprets the bits of u as a T of the same size.
func as[T, U any](u U) T { return *(*T)(unsafe.Pointer(&u)) }

// word returns the address of s[i] as a pointer to its 32- or 64-bit
// word (Go's bounds check applies).
func word32[T any](s []T, i int) *uint32 { return (*uint32)(unsafe.Pointer(&s[i])) }
func word64[T any](s []T, i int) *uint64 { return (*uint64)(unsafe.Pointer(&s[i])) }

// update applies f to s[i] atomically with a compare-and-swap loop and
// returns the old value.
func update[T Number](s []T, i int, f func(old T) T) T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		p := word32(s, i)
		for {
			o := atomic.LoadUint32(p)
			old := as[T](o)
			if atomic.CompareAndSwapUint32(p, o, as[uint32](f(old))) {
				return old
			}
		}
	}
	p := word64(s, i)
	for {
		o := atomic.LoadUint64(p)
		old := as[T](o)
		if atomic.CompareAndSwapUint64(p, o, as[uint64](f(old))) {
			return old
		}
	}
}

// isFloat reports whether T is float32 or float64.
func isFloat[T Number]() bool {
	var z T
	switch any(z).(type) {
	case float32, float64:
		return true
	}
	return false
}

// AtomicAdd adds v to s[i] and returns the old value (CUDA's atomicAdd,
// Numba's cuda.atomic.add). An index out of range panics on the CPU and
// fails the launch.
func AtomicAdd[T Number](s []T, i int, v T) T {
	if isFloat[T]() {
		return update(s, i, func(old T) T { return old + v })
	}
	var z T
	if unsafe.Sizeof(z) == 4 {
		d := as[uint32](v)
		return as[T](atomic.AddUint32(word32(s, i), d) - d)
	}
	d := as[uint64](v)
	return as[T](atomic.AddUint64(word64(s, i), d) - d)
}

// AtomicSub subtracts v from s[i] and returns the old value (atomicSub).
func AtomicSub[T Number](s []T, i int, v T) T { return AtomicAdd(s, i, -v) }

// AtomicExch stores v in s[i] and returns the old value (atomicExch).
func AtomicExch[T Number](s []T, i int, v T) T {
	return bitwise(s, i, v, atomic.SwapUint32, atomic.SwapUint64)
}

// AtomicMax stores max(s[i], v) in s[i] and returns the old value
// (atomicMax).
func AtomicMax[T Integer](s []T, i int, v T) T {
	return update(s, i, func(old T) T { return max(old, v) })
}

// AtomicMin stores min(s[i], v) in s[i] and returns the old value
// (atomicMin).
func AtomicMin[T Integer](s []T, i int, v T) T {
	return update(s, i, func(old T) T { return min(old, v) })
}

// AtomicCAS stores nw in s[i] if s[i] equals cmp, and returns the old
// value either way (atomicCAS).
func AtomicCAS[T Integer](s []T, i int, cmp, nw T) T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		p := word32(s, i)
		for {
			o := atomic.LoadUint32(p)
			if as[T](o) != cmp || atomic.CompareAndSwapUint32(p, o, as[uint32](nw)) {
				return as[T](o)
			}
		}
	}
	p := word64(s, i)
	for {
		o := atomic.LoadUint64(p)
		if as[T](o) != cmp || atomic.CompareAndSwapUint64(p, o, as[uint64](nw)) {
			return as[T](o)
		}
	}
}

// AtomicAnd stores s[i] & v in s[i] and returns the old value (atomicAnd).
func AtomicAnd[T Integer](s []T, i int, v T) T {
	return bitwise(s, i, v, atomic.AndUint32, atomic.AndUint64)
}

// AtomicOr stores s[i] | v in s[i] and returns the old value (atomicOr).
func AtomicOr[T Integer](s []T, i int, v T) T {
	return bitwise(s, i, v, atomic.OrUint32, atomic.OrUint64)
}

// bitwise applies a word-sized atomic of sync/atomic to s[i] (4 or 8
// bytes wide) and returns the old value.
func bitwise[T any](s []T, i int, v T, op32 func(*uint32, uint32) uint32, op64 func(*uint64, uint64) uint64) T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return as[T](op32(word32(s, i), as[uint32](v)))
	}
	return as[T](op64(word64(s, i), as[uint64](v)))
}

// AtomicXor stores s[i] ^ v in s[i] and returns the old value (atomicXor).
func AtomicXor[T Integer](s []T, i int, v T) T {
	return update(s, i, func(old T) T { return old ^ v })
}

// AtomicInc stores 0 in s[i] when s[i] >= limit and s[i]+1 otherwise,
// and returns the old value (CUDA's atomicInc: a counter that wraps
// after limit).
func AtomicInc(s []uint32, i int, limit uint32) uint32 {
	return update(s, i, func(old uint32) uint32 {
		if old >= limit {
			return 0
		}
		return old + 1
	})
}

// AtomicDec stores limit in s[i] when s[i] is 0 or above limit and
// s[i]-1 otherwise, and returns the old value (CUDA's atomicDec).
func AtomicDec(s []uint32, i int, limit uint32) uint32 {
	return update(s, i, func(old uint32) uint32 {
		if old == 0 || old > limit {
			return limit
		}
		return old - 1
	})
}
