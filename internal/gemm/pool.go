// Scratch memory: pooled, 64-byte aligned buffers for the packed
// blocks (the default Runner is the team, team.go).

package gemm

import (
	"sync"
	"unsafe"
)

// bufPools holds released buffers, one pool per element type.
var bufPools [2]sync.Pool

func poolOf[T Float]() *sync.Pool {
	var z T
	if _, ok := any(z).(float32); ok {
		return &bufPools[0]
	}
	return &bufPools[1]
}

// buffer is a pooled slice; data is its 64-byte aligned part.
type buffer[T Float] struct {
	raw  []T
	data []T
}

// getBuf returns a buffer of at least n elements, its contents
// unspecified. putBuf gives it back.
func getBuf[T Float](n int) *buffer[T] {
	b, _ := poolOf[T]().Get().(*buffer[T])
	if b == nil {
		b = new(buffer[T])
	}
	if len(b.data) < n {
		var z T
		pad := 64 / int(unsafe.Sizeof(z))
		b.raw = make([]T, n+pad)
		skip := 0
		if r := int(uintptr(unsafe.Pointer(&b.raw[0])) % 64); r != 0 {
			skip = (64 - r) / int(unsafe.Sizeof(z))
		}
		b.data = b.raw[skip : skip+n]
	}
	return b
}

func putBuf[T Float](b *buffer[T]) {
	if b != nil {
		poolOf[T]().Put(b)
	}
}
