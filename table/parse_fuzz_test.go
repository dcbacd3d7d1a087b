package table

import "testing"

// FuzzParse checks that Parse never panics and that what it accepts
// prints (String) as an expression it reads back to the same text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"sum(price*qty*(1-discount))", "where(x > 0, 1, -2.5)", "variance(x, 1) / count(x)",
		"!b && fill_null(k, 0) >= 2", "sqrt(abs(-x)) % 3", "x // y", "sum(x", "1e400 * x", "-0.0 * x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := Parse(src)
		if err != nil {
			return
		}
		text := e.String()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", src, text, err)
		}
		if back.String() != text {
			t.Fatalf("Parse(%q) printed %q, read back as %q", src, text, back.String())
		}
	})
}
