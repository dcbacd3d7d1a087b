package goexpr

import "testing"

func TestFirstComment(t *testing.T) {
	for _, tc := range []struct {
		src       string
		found     bool
		off, line int
		col       int
		text      string
	}{
		{src: "a + b"},
		{src: "a / b / c"},
		{src: "a / /b"},
		{src: "'\x00' + a"},
		{src: "a // b", found: true, off: 2, line: 1, col: 3, text: "// b"},
		{src: "a /* b */ + c // d", found: true, off: 2, line: 1, col: 3, text: "/* b */"},
		{src: "sum(a,\n  1) // x", found: true, off: 12, line: 2, col: 6, text: "// x"},
	} {
		pos, text, found := FirstComment(tc.src)
		if found != tc.found || pos.Offset != tc.off || text != tc.text || found && (pos.Line != tc.line || pos.Column != tc.col) {
			t.Errorf("FirstComment(%q) got:%v %d:%d@%d %q want:%v %d:%d@%d %q",
				tc.src, found, pos.Line, pos.Column, pos.Offset, text, tc.found, tc.line, tc.col, tc.off, tc.text)
		}
	}
}
