// Printing: String (NumPy's str) and Repr (NumPy's repr) of evaluated
// arrays, with NumPy's element formats, line wrapping at 75 columns and
// summarization of arrays of more than 1000 elements.

package array

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fuseflow/fuseflow/exec"
)

// NumPy's default print options.
const (
	lineWidth = 75
	threshold = 1000
	edgeItems = 3
)

// String evaluates a (the result then stays on a) and formats it as
// NumPy's str does: nested brackets, elements separated by spaces and
// aligned in columns ("[[0 1 2]\n [3 4 5]]", "[0.  0.5 1. ]", "[ True
// False]"), rows wrapped at 75 columns, and arrays of more than 1000
// elements summarized with "..." keeping 3 items at each edge of every
// long axis. Floats print as NumPy prints them: the shortest digits that
// identify the value (at most 8 after the point), positional unless the
// magnitudes call for scientific notation. A 0-d array prints as its
// scalar. An Array that cannot be evaluated prints as
// "Array(shape dtype, error: message)".
func (a *Array) String() string {
	s, err := a.format(false)
	if err != nil {
		return errString(a, err)
	}
	return s
}

// Repr is String in NumPy's repr form: "array([[0, 1, 2],\n       [3, 4,
// 5]], dtype=int32)", with the dtype named unless it is int64, float64 or
// bool (and always for empty arrays), and the shape named for empty arrays
// that are not of shape (0,). The layout follows NumPy 1.24 (later NumPy
// versions also name the shape of summarized arrays).
func (a *Array) Repr() string {
	s, err := a.format(true)
	if err != nil {
		return errString(a, err)
	}
	return s
}

func errString(a *Array, err error) string {
	n := nodeOf(a)
	return fmt.Sprintf("Array(%v %v, error: %v)", n.Shape(), n.DType(), err)
}

// format renders a as NumPy's str (repr false) or repr.
func (a *Array) format(repr bool) (string, error) {
	if err := evalErr(a); err != nil {
		return "", err
	}
	t, err := a.tensor("String")
	if err != nil {
		return "", err
	}
	defer t.Release()
	d, s := t.DType, t.Shape
	if t.Size() == 0 {
		if !repr {
			return "[]", nil
		}
		shape := ""
		if !(len(s) == 1 && s[0] == 0) {
			shape = fmt.Sprintf("shape=%v, ", s)
		}
		return "array([], " + shape + "dtype=" + d.String() + ")", nil
	}
	c := newCompact(t, t.Size() > threshold)
	if len(s) == 0 {
		if repr {
			return reprLayout(c.words[0], d), nil
		}
		return scalarString(t), nil
	}
	if repr {
		return reprLayout(c.render(strings.Repeat(" ", len("array(")+1), ", ", lineWidth-1), d), nil
	}
	return c.render(" ", " ", lineWidth), nil
}

// reprLayout wraps body in "array(...)", adding the dtype for int32 and
// float32 on the last line or, when it would pass the line width, on a
// line of its own.
func reprLayout(body string, d DType) string {
	s := "array(" + body
	if d != Int32 && d != Float32 {
		return s + ")"
	}
	s += ","
	dt := "dtype=" + d.String() + ")"
	last := len(s) - (strings.LastIndexByte(s, '\n') + 1)
	if last+len(dt)+1 > lineWidth {
		return s + "\n" + strings.Repeat(" ", len("array(")) + dt
	}
	return s + " " + dt
}

// compact holds the elements that will be printed: all of them, or for a
// summarized array the edgeItems leading and trailing indices of every
// long axis, as formatted words of equal width in row-major order.
type compact struct {
	shape []int  // extent of each axis among the printed elements
	summ  []bool // whether "..." stands between the edges of an axis
	words []string
}

func newCompact(t *exec.Tensor, summarize bool) *compact {
	r := len(t.Shape)
	c := &compact{shape: make([]int, r), summ: make([]bool, r)}
	sel := make([][]int, r)
	for k, e := range t.Shape {
		if summarize && e > 2*edgeItems {
			c.summ[k] = true
			for i := range edgeItems {
				sel[k] = append(sel[k], i)
			}
			for i := e - edgeItems; i < e; i++ {
				sel[k] = append(sel[k], i)
			}
		} else {
			for i := range e {
				sel[k] = append(sel[k], i)
			}
		}
		c.shape[k] = len(sel[k])
	}
	n := 1
	for _, e := range c.shape {
		n *= e
	}
	offs := make([]int, 0, n)
	idx := make([]int, r)
	for range n {
		off := t.Offset
		for k, i := range idx {
			off += sel[k][i] * t.Strides[k]
		}
		offs = append(offs, off)
		for k := r - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < c.shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	c.words = elementWords(t, offs)
	return c
}

// render lays the words out as NumPy's array2string does, with hanging
// the indentation of continuation lines, sep between elements and width
// the line width.
func (c *compact) render(hanging, sep string, width int) string {
	return c.rec(0, 0, hanging, sep, width)
}

// rec renders the sub-array at axis whose first word is words[base].
func (c *compact) rec(axis, base int, hanging, sep string, width int) string {
	stride := 1
	for _, e := range c.shape[axis+1:] {
		stride *= e
	}
	n := c.shape[axis]
	left := len(c.shape) - axis
	var b strings.Builder
	if left == 1 {
		elemWidth := width - max(len(strings.TrimRight(sep, " ")), 1)
		line := hanging
		for i := range n {
			if c.summ[axis] && i == edgeItems {
				line = extendLine(&b, line, "...", elemWidth, hanging)
				line += sep
			}
			line = extendLine(&b, line, c.words[base+i], elemWidth, hanging)
			if i < n-1 {
				line += sep
			}
		}
		b.WriteString(line)
	} else {
		lineSep := strings.TrimRight(sep, " ") + strings.Repeat("\n", left-1)
		for i := range n {
			if c.summ[axis] && i == edgeItems {
				b.WriteString(hanging + "..." + lineSep)
			}
			b.WriteString(hanging + c.rec(axis+1, base+i*stride, hanging+" ", sep, width-1))
			if i < n-1 {
				b.WriteString(lineSep)
			}
		}
	}
	return "[" + b.String()[len(hanging):] + "]"
}

// extendLine appends word to line, first moving line into b and starting
// a new one when the word would pass width (unless that cannot help).
func extendLine(b *strings.Builder, line, word string, width int, hanging string) string {
	if len(line)+len(word) > width && len(line) > len(hanging) {
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		line = hanging
	}
	return line + word
}

// elementWords formats the elements of t at offs, padded to one width.
func elementWords(t *exec.Tensor, offs []int) []string {
	words := make([]string, len(offs))
	switch {
	case t.DType == Bool:
		pad := len(t.Shape) > 0
		for i, off := range offs {
			_, _, b := scalarAt(t, off)
			words[i] = "False"
			if b {
				words[i] = "True"
				if pad {
					words[i] = " True"
				}
			}
		}
		return words
	case t.DType.IsInt():
		for i, off := range offs {
			_, v, _ := scalarAt(t, off)
			words[i] = strconv.FormatInt(v, 10)
		}
	default:
		vals := make([]float64, len(offs))
		for i, off := range offs {
			vals[i], _, _ = scalarAt(t, off)
		}
		words = floatWords(vals, 8*t.DType.Size())
	}
	return padLeft(words)
}

// padLeft right-aligns words to the longest.
func padLeft(words []string) []string {
	w := 0
	for _, s := range words {
		w = max(w, len(s))
	}
	for i, s := range words {
		words[i] = strings.Repeat(" ", w-len(s)) + s
	}
	return words
}

// maxFrac is NumPy's default print precision: digits after the point.
const maxFrac = 8

// floatWords formats floats of the given bit size as NumPy does for one
// array: positional, or scientific when the largest magnitude is at least
// 1e8, the smallest nonzero one below 1e-4 or their ratio above 1000.
func floatWords(vals []float64, bits int) []string {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		if av := math.Abs(v); av != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			lo, hi = min(lo, av), max(hi, av)
		}
	}
	ratio := hi / lo
	if bits == 32 {
		ratio = float64(float32(hi) / float32(lo)) // NumPy divides in the array's dtype
	}
	sci := hi > 0 && (hi >= 1e8 || lo < 1e-4 || ratio > 1e3)
	ints := make([]string, len(vals))
	fracs := make([]string, len(vals))
	exps := make([]string, len(vals))
	intW, fracW, expW := 0, 0, 2
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		var s string
		if sci {
			s = shortest(v, 'e', bits)
			m, e, _ := strings.Cut(s, "e")
			s, exps[i] = m, e
			expW = max(expW, len(e)-1)
		} else {
			s = shortest(v, 'f', bits)
		}
		ints[i], fracs[i], _ = strings.Cut(s, ".")
		intW, fracW = max(intW, len(ints[i])), max(fracW, len(fracs[i]))
	}
	words := make([]string, len(vals))
	for i, v := range vals {
		switch {
		case math.IsNaN(v):
			words[i] = "nan"
		case math.IsInf(v, 1):
			words[i] = "inf"
		case math.IsInf(v, -1):
			words[i] = "-inf"
		case sci:
			e := exps[i]
			words[i] = strings.Repeat(" ", intW-len(ints[i])) + ints[i] + "." +
				fracs[i] + strings.Repeat("0", fracW-len(fracs[i])) +
				"e" + e[:1] + strings.Repeat("0", expW-(len(e)-1)) + e[1:]
		default:
			words[i] = strings.Repeat(" ", intW-len(ints[i])) + ints[i] + "." +
				fracs[i] + strings.Repeat(" ", fracW-len(fracs[i]))
		}
	}
	return words
}

// shortest formats v in format 'f' or 'e' with the fewest digits that
// identify it, but at most maxFrac after the point (then rounded and
// trailing zeros trimmed).
func shortest(v float64, format byte, bits int) string {
	s := strconv.FormatFloat(v, format, -1, bits)
	mant, exp, hasExp := strings.Cut(s, "e")
	if _, frac, ok := strings.Cut(mant, "."); ok && len(frac) > maxFrac {
		s = strconv.FormatFloat(v, format, maxFrac, bits)
		mant, exp, hasExp = strings.Cut(s, "e")
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	if hasExp {
		return mant + "e" + exp
	}
	return mant
}

// scalarString formats the one element of a 0-d tensor as NumPy's str of
// a scalar: Python's float repr, True/False, or the integer.
func scalarString(t *exec.Tensor) string {
	f, i, b := scalarAt(t, t.Offset)
	switch {
	case t.DType == Bool:
		if b {
			return "True"
		}
		return "False"
	case t.DType.IsInt():
		return strconv.FormatInt(i, 10)
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	bits := 8 * t.DType.Size()
	if av := math.Abs(f); f == 0 || (av >= 1e-4 && av < 1e16) {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	return strconv.FormatFloat(f, 'e', -1, bits)
}
