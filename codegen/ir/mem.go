// This file implements Mem, the interpreter's global-memory buffer: a byte
// slice with little-endian typed views.

package ir

import (
	"encoding/binary"
	"fmt"
)

// Mem is a global-memory buffer for the interpreter: the bytes a pointer
// parameter points to, little-endian as on the GPU. Pass a *Mem for each
// pointer parameter of Run. A Mem may be shared between runs; it is not
// safe for concurrent runs that write it.
type Mem struct {
	Data []byte
	// Lo is the first byte of Data the kernel may touch: accesses below
	// it are out of bounds. It lets a pointer parameter point before the
	// memory it reaches, as the element 0 of a view with an offset does
	// when only the view's range was allocated. Zero for most buffers.
	Lo int
}

// NewMem returns a zeroed buffer of n bytes.
func NewMem(n int) *Mem { return &Mem{Data: make([]byte, n)} }

// Elem is the set of Go element types a Mem can be viewed as.
type Elem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// MemOf returns a new buffer holding a little-endian copy of s.
func MemOf[T Elem](s []T) *Mem {
	m := &Mem{Data: make([]byte, binary.Size(s))}
	if _, err := binary.Encode(m.Data, binary.LittleEndian, s); err != nil {
		panic(fmt.Sprintf("ir: MemOf: %v", err)) // cannot happen: the size is exact
	}
	return m
}

// View returns a copy of the buffer's contents as a slice of T (trailing
// bytes that do not fill an element are ignored).
func View[T Elem](m *Mem) []T {
	var zero T
	n := len(m.Data) / binary.Size(zero)
	out := make([]T, n)
	if _, err := binary.Decode(m.Data[:n*binary.Size(zero)], binary.LittleEndian, out); err != nil {
		panic(fmt.Sprintf("ir: View: %v", err)) // cannot happen: the size is exact
	}
	return out
}

// Len returns the buffer's size in bytes.
func (m *Mem) Len() int { return len(m.Data) }
