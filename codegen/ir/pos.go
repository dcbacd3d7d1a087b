// This file implements source positions: the Go source line an
// instruction was built from, carried by the instruction, printed by the
// text dump, reported by the verifier and the interpreter, and written by
// the PTX emitter as line information.

package ir

import "strconv"

// Pos is a source position: a file (a base name, never a machine path),
// a line and a column, both 1-based. The zero Pos means no position; a Pos
// with a line but no column prints without one.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "file:line" without a column, or "" for
// the zero Pos.
func (p Pos) String() string {
	if !p.IsValid() {
		return ""
	}
	s := p.File + ":" + strconv.Itoa(p.Line)
	if p.Col > 0 {
		s += ":" + strconv.Itoa(p.Col)
	}
	return s
}

// SetPos sets the source position attached to the instructions emitted
// from now on (the zero Pos stops attaching one).
func (b *Builder) SetPos(p Pos) { b.pos = p }

// Pos returns the current source position.
func (b *Builder) Pos() Pos { return b.pos }
