// Package goexpr holds what the parsers of Go-syntax expressions share:
// the command line's array expressions (cmd/fuseflow) and package
// table's column expressions. Both read an expression with go/parser,
// which drops comments silently, so that 'a // b' would evaluate a
// alone; FirstComment finds the comment each of them rejects.
package goexpr

import (
	"go/scanner"
	"go/token"
)

// FirstComment returns the position (offset, line and column, from 1)
// and the text of the first Go comment in src, and false when src has
// none. A slash inside an operator sequence (a /= b, a / /b) is not a
// comment; characters Go does not accept are passed over, for the
// parser to report. It is safe for concurrent use.
func FirstComment(src string) (token.Position, string, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return token.Position{}, "", false
		case token.COMMENT:
			return fset.Position(pos), lit, true
		}
	}
}
