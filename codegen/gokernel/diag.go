// This file implements the compiler's diagnostics: every unsupported
// construct is recorded with its source position, in the TinyGo style
// "file:line:col: what is unsupported, and what to write instead", and
// all of them are reported at once, sorted by position, each once.

package gokernel

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// Diagnostic is one problem found in a kernel's source.
type Diagnostic struct {
	Pos token.Position // file (as loaded), line and column
	Msg string
}

// String returns "file:line:col: msg".
func (d Diagnostic) String() string {
	if !d.Pos.IsValid() {
		return d.Msg
	}
	return d.Pos.String() + ": " + d.Msg
}

// Error is the error of a package whose kernels use constructs outside
// the kernel subset: every diagnostic, sorted by position.
type Error struct {
	Diags []Diagnostic
}

// Error lists the diagnostics, one per line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Diags))
	for i, d := range e.Diags {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// diagSet collects diagnostics, each (position, message) once.
type diagSet struct {
	fset  *token.FileSet
	seen  map[string]bool
	diags []Diagnostic
}

func newDiagSet(fset *token.FileSet) *diagSet {
	return &diagSet{fset: fset, seen: map[string]bool{}}
}

// add records a diagnostic at pos.
func (s *diagSet) add(pos token.Pos, format string, args ...any) {
	var p token.Position
	if pos.IsValid() && s.fset != nil {
		p = s.fset.Position(pos)
	}
	s.addAt(p, fmt.Sprintf(format, args...))
}

// addAt records a diagnostic at a resolved position.
func (s *diagSet) addAt(p token.Position, msg string) {
	key := p.String() + "\x00" + msg
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	s.diags = append(s.diags, Diagnostic{Pos: p, Msg: msg})
}

// err returns the collected diagnostics as an *Error, or nil.
func (s *diagSet) err() error {
	if len(s.diags) == 0 {
		return nil
	}
	ds := append([]Diagnostic(nil), s.diags...)
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return &Error{Diags: ds}
}
