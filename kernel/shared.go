// This file implements shared memory: static arrays of one call site per
// block (Shared) and the block's dynamic shared memory sized at launch
// (DynShared).

package kernel

import (
	"fmt"
	"unsafe"
)

// Shared returns the block's shared array of n elements of type T for
// this call site (Numba's cuda.shared.array): every thread of a block that
// calls it at this place gets the same array; each block has its own. n
// must be a constant for kernelgen. On the CPU a new array is zero; on a
// GPU its contents are undefined until written, so write before reading.
//
//go:noinline
func Shared[T Elem](t Thread, n int) []T {
	return sharedAt[T](t.s.blk, callerPC(), n)
}

// sharedAt returns the array of call site pc of block b.
func sharedAt[T Elem](b *block, pc uintptr, n int) []T {
	if n <= 0 {
		panic(fmt.Sprintf("kernel.Shared: %d elements; the size must be positive", n))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, a := range b.shared {
		if a.pc != pc {
			continue
		}
		if a.n != n {
			panic(fmt.Sprintf("kernel.Shared: this call site made an array of %d elements, this call asks for %d (the size must be a constant)", a.n, n))
		}
		return a.v.([]T)
	}
	v := make([]T, n)
	b.shared = append(b.shared, sharedAlloc{pc: pc, n: n, v: v})
	return v
}

// DynShared returns the block's dynamic shared memory as a slice of T:
// the Config's SharedBytes divided by the size of T (CUDA's extern
// __shared__ array; Numba's cuda.shared.array(0, dtype)). Every call, of
// any T, views the same memory from its start. Zero on the CPU, undefined
// on a GPU until written.
func DynShared[T Elem](t Thread) []T {
	b := t.s.blk
	if len(b.dyn) == 0 {
		return nil
	}
	var z T
	n := b.run.dynBytes / int(unsafe.Sizeof(z))
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b.dyn))), n)
}
