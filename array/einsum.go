// Einsum: Einstein summation over a subscripts string, lowered to views
// (Permute, Reshape, BroadcastTo, diagonals as strided slices),
// elementwise products with fused reductions, and batched MatMul, with
// several operands contracted pairwise in a greedy order.

package array

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fuseflow/fuseflow/graph"
)

// esEllipsis is the label of the ellipsis axis i counted from the right
// (esEllipsis+0 is the last axis the ellipsis covers): ellipsis axes of
// operands of different ranks line up from the right, as NumPy's
// broadcasting does. Letters are labelled by their byte value.
const esEllipsis = 256

// esTerm is an operand during the lowering: a node and one label per axis.
type esTerm struct {
	n      *graph.Node
	labels []int
}

// esLabelName spells a label for error messages.
func esLabelName(l int) string {
	if l >= esEllipsis {
		return "..."
	}
	return string(rune(l))
}

// Einsum returns the Einstein summation of operands over subscripts, as
// NumPy's einsum: "ij,jk->ik" is a matrix product, "bij,bjk->bik" a batched
// one, "ii->i" a diagonal, "ii" a trace, "ij->ji" a transpose, "ij->" a
// sum, "...ij,...jk" a product broadcast over leading axes. Without "->"
// the output is the ellipsis axes then the letters that appear once, in
// alphabetical (byte) order. Axes of extent 1 broadcast against the same
// letter's extent in other operands. The result has the operands'
// promoted dtype (bool operands give the OR of ANDs, as NumPy).
//
// Lowering: repeated letters within an operand become strided diagonal
// views; letters that no other operand nor the output needs are summed
// first; then the operands are contracted two at a time, each time the
// pair whose result is smallest relative to its operands: a pair with
// free axes on both sides and a contracted extent above 1 is a batched
// MatMul over permuted and reshaped views, any other pair an elementwise
// product of broadcast views whose contracted axes a Sum reduces (one
// fused kernel). A malformed subscripts string, a count of terms other
// than the number of operands, a term that does not match its operand's
// rank, extents that differ for one letter, an output letter that is
// repeated or absent from the inputs, arrays of two Contexts, or no
// operands give an Array carrying an error naming the subscripts and the
// shapes.
func Einsum(subscripts string, operands ...*Array) *Array {
	ns, c, bad := joinNodes("Einsum", operands)
	if bad != nil {
		return newArray(c, bad)
	}
	for _, n := range ns {
		if n.Err() != nil {
			return newArray(c, n)
		}
	}
	fail := func(format string, args ...any) *Array {
		shapes := make([]string, len(ns))
		for i, n := range ns {
			shapes[i] = fmt.Sprintf("%v %v", n.Shape(), n.DType())
		}
		msg := fmt.Sprintf(format, args...)
		return newArray(c, graph.ErrorNode(graph.OpMatMul, fmt.Errorf("Einsum(%q, %s): %s", subscripts, strings.Join(shapes, ", "), msg)))
	}
	ranks := make([]int, len(ns))
	for i, n := range ns {
		ranks[i] = n.Shape().Rank()
	}
	ins, out, err := parseEinsum(subscripts, ranks)
	if err != nil {
		return fail("%v", err)
	}
	d := ns[0].DType()
	for _, n := range ns[1:] {
		d = graph.Promote(d, n.DType())
	}
	work := d
	if d == Bool {
		work = Int64 // sums of products of 0 and 1; nonzero is true
	}
	terms := make([]esTerm, len(ns))
	for i, n := range ns {
		t, err := esDiagonals(esTerm{n: graph.Cast(n, work), labels: ins[i]}, i)
		if err == nil {
			err = t.n.Err()
		}
		if err != nil {
			return fail("%v", unwrapMsg(err))
		}
		terms[i] = t
	}
	ext := map[int]int{}
	for i, t := range terms {
		for ax, l := range t.labels {
			e := t.n.Shape()[ax]
			switch old, ok := ext[l]; {
			case !ok || old == 1:
				ext[l] = e
			case e != 1 && e != old:
				return fail("subscript %s has extent %d in operand %d where an earlier operand has %d", esLabelName(l), e, i, old)
			}
		}
	}
	for len(terms) > 1 {
		i, j := esPickPair(terms, out, ext)
		keep := esKeep(terms, out, i, j)
		t := esContract(terms[i], terms[j], keep, ext)
		if err := t.n.Err(); err != nil {
			// A product too large to hold, say: later steps read the
			// shapes of valid nodes only.
			return fail("%v", unwrapMsg(err))
		}
		next := make([]esTerm, 0, len(terms)-1)
		for k, x := range terms {
			switch k {
			case i:
				next = append(next, t)
			case j:
			default:
				next = append(next, x)
			}
		}
		terms = next
	}
	t := terms[0]
	outSet := map[int]bool{}
	for _, l := range out {
		outSet[l] = true
	}
	t = esAlign(esSum(t, func(l int) bool { return !outSet[l] }), out)
	r := t.n
	if d == Bool {
		r = graph.Binary(graph.OpNe, r, graph.Const(graph.ScalarOf(work, 0)))
	} else {
		r = graph.Cast(r, d)
	}
	if err := r.Err(); err != nil {
		return fail("%v", unwrapMsg(err))
	}
	return keepAll(newArray(c, r), operands)
}

// parseEinsum returns the labels of each input term and of the output.
func parseEinsum(sub string, ranks []int) ([][]int, []int, error) {
	s := strings.Join(strings.Fields(sub), "")
	lhs, rhs, explicit := strings.Cut(s, "->")
	if strings.Contains(rhs, "->") {
		return nil, nil, fmt.Errorf("more than one \"->\"")
	}
	termStrs := strings.Split(lhs, ",")
	if len(termStrs) != len(ranks) {
		return nil, nil, fmt.Errorf("%d terms for %d operands", len(termStrs), len(ranks))
	}
	ell := 0 // the widest ellipsis
	raw := make([][]int, len(ranks))
	for i, ts := range termStrs {
		letters, hasEll, err := esScan(ts)
		if err != nil {
			return nil, nil, fmt.Errorf("term %d %q: %v", i, ts, err)
		}
		n := len(letters)
		if hasEll {
			n-- // the ellipsis marker
		}
		switch {
		case !hasEll && n != ranks[i]:
			return nil, nil, fmt.Errorf("term %d %q names %d axes but operand %d has %d", i, ts, n, i, ranks[i])
		case hasEll && n > ranks[i]:
			return nil, nil, fmt.Errorf("term %d %q names %d axes besides \"...\" but operand %d has %d", i, ts, n, i, ranks[i])
		}
		e := ranks[i] - n
		labels := make([]int, 0, ranks[i])
		for _, l := range letters {
			if l == -1 {
				for k := e - 1; k >= 0; k-- {
					labels = append(labels, esEllipsis+k)
				}
				continue
			}
			labels = append(labels, l)
		}
		if hasEll {
			ell = max(ell, e)
		}
		raw[i] = labels
	}
	count := map[int]int{}
	for _, ls := range raw {
		for _, l := range ls {
			count[l]++
		}
	}
	var out []int
	if !explicit {
		for k := ell - 1; k >= 0; k-- {
			out = append(out, esEllipsis+k)
		}
		var once []int
		for l, n := range count {
			if n == 1 && l < esEllipsis {
				once = append(once, l)
			}
		}
		slices.Sort(once)
		return raw, append(out, once...), nil
	}
	letters, hasEll, err := esScan(rhs)
	if err != nil {
		return nil, nil, fmt.Errorf("output %q: %v", rhs, err)
	}
	if !hasEll && ell > 0 {
		return nil, nil, fmt.Errorf("output %q has no \"...\" for the %d axes the inputs' \"...\" cover", rhs, ell)
	}
	seen := map[int]bool{}
	for _, l := range letters {
		if l == -1 {
			for k := ell - 1; k >= 0; k-- {
				out = append(out, esEllipsis+k)
			}
			continue
		}
		if seen[l] {
			return nil, nil, fmt.Errorf("output subscript %s appears more than once", esLabelName(l))
		}
		if count[l] == 0 {
			return nil, nil, fmt.Errorf("output subscript %s does not appear in the inputs", esLabelName(l))
		}
		seen[l] = true
		out = append(out, l)
	}
	return raw, out, nil
}

// esScan returns the letters of one term in order, -1 standing for an
// ellipsis, and whether there was one.
func esScan(ts string) ([]int, bool, error) {
	var out []int
	hasEll := false
	for i := 0; i < len(ts); i++ {
		ch := ts[i]
		switch {
		case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			out = append(out, int(ch))
		case strings.HasPrefix(ts[i:], "..."):
			if hasEll {
				return nil, false, fmt.Errorf("more than one \"...\"")
			}
			hasEll = true
			out = append(out, -1)
			i += 2
		default:
			return nil, false, fmt.Errorf("invalid character %q (subscripts are letters a-z, A-Z and \"...\")", ch)
		}
	}
	return out, hasEll, nil
}

// esDiagonals replaces each letter repeated within operand i by the
// diagonal over its axes (the letter then labels the diagonal axis).
func esDiagonals(t esTerm, i int) (esTerm, error) {
	for {
		p, q := -1, -1
		for a := range t.labels {
			for b := a + 1; b < len(t.labels); b++ {
				if t.labels[a] == t.labels[b] {
					p, q = a, b
					break
				}
			}
			if p >= 0 {
				break
			}
		}
		if p < 0 {
			return t, nil
		}
		s := t.n.Shape()
		if s[p] != s[q] {
			return t, fmt.Errorf("subscript %s repeated in operand %d over axes of extents %d and %d", esLabelName(t.labels[p]), i, s[p], s[q])
		}
		l := t.labels[p]
		var labels []int
		for a, x := range t.labels {
			if a != p && a != q {
				labels = append(labels, x)
			}
		}
		t = esTerm{n: diagonalOf(t.n, 0, p, q), labels: append(labels, l)}
	}
}

// esKeep returns the labels that must survive contracting terms i and j:
// the output's and those of every other term.
func esKeep(terms []esTerm, out []int, i, j int) map[int]bool {
	keep := map[int]bool{}
	for _, l := range out {
		keep[l] = true
	}
	for k, t := range terms {
		if k != i && k != j {
			for _, l := range t.labels {
				keep[l] = true
			}
		}
	}
	return keep
}

// esPickPair returns the pair whose contraction gives the smallest
// result relative to the sizes of the two operands (opt_einsum's greedy
// rule), the first such pair on ties.
func esPickPair(terms []esTerm, out []int, ext map[int]int) (int, int) {
	size := func(ls []int) float64 {
		p := 1.0
		for _, l := range ls {
			p *= float64(ext[l])
		}
		return p
	}
	bi, bj, best := 0, 1, 0.0
	for i := range terms {
		for j := i + 1; j < len(terms); j++ {
			keep := esKeep(terms, out, i, j)
			var res []int
			for _, l := range append(slices.Clone(terms[i].labels), terms[j].labels...) {
				if keep[l] && !slices.Contains(res, l) {
					res = append(res, l)
				}
			}
			cost := size(res) - size(terms[i].labels) - size(terms[j].labels)
			if i == 0 && j == 1 || cost < best {
				bi, bj, best = i, j, cost
			}
		}
	}
	return bi, bj
}

// esSum sums t over the axes whose labels drop reports.
func esSum(t esTerm, drop func(int) bool) esTerm {
	var axes, labels []int
	for ax, l := range t.labels {
		if drop(l) {
			axes = append(axes, ax)
		} else {
			labels = append(labels, l)
		}
	}
	if len(axes) == 0 {
		return t
	}
	return esTerm{n: graph.Reduce(graph.OpSum, t.n, axes, false), labels: labels}
}

// esAlign returns t's node with its axes in the order of the labels of
// order, an axis of extent 1 standing for each label t lacks.
func esAlign(t esTerm, order []int) esTerm {
	if t.n.Err() != nil {
		return t
	}
	var perm []int
	for _, l := range order {
		if ax := slices.Index(t.labels, l); ax >= 0 {
			perm = append(perm, ax)
		}
	}
	n := graph.Permute(t.n, perm)
	s := n.Shape()
	shape := make(Shape, 0, len(order))
	k := 0
	for _, l := range order {
		if slices.Contains(t.labels, l) {
			shape = append(shape, s[k])
			k++
		} else {
			shape = append(shape, 1)
		}
	}
	if len(shape) != s.Rank() {
		n = graph.Reshape(n, shape)
	}
	return esTerm{n: n, labels: slices.Clone(order)}
}

// esContract contracts a and b, keeping the labels of keep.
func esContract(a, b esTerm, keep map[int]bool, ext map[int]int) esTerm {
	a = esSum(a, func(l int) bool { return !keep[l] && !slices.Contains(b.labels, l) })
	b = esSum(b, func(l int) bool { return !keep[l] && !slices.Contains(a.labels, l) })
	var batch, con, am, bn []int
	for _, l := range a.labels {
		switch {
		case !slices.Contains(b.labels, l):
			am = append(am, l)
		case keep[l]:
			batch = append(batch, l)
		default:
			con = append(con, l)
		}
	}
	for _, l := range b.labels {
		if !slices.Contains(a.labels, l) {
			bn = append(bn, l)
		}
	}
	extOf := func(t esTerm, l int) int { return t.n.Shape()[slices.Index(t.labels, l)] }
	prod := func(t esTerm, ls []int) int {
		p := 1
		for _, l := range ls {
			p *= extOf(t, l)
		}
		return p
	}
	m, n, k := prod(a, am), prod(b, bn), 1
	for _, l := range con {
		k *= ext[l]
	}
	if len(con) == 0 || m == 1 || n == 1 || k == 1 {
		// An elementwise product of broadcast views, the contracted axes
		// (last) summed: one fused kernel.
		order := slices.Concat(batch, am, bn, con)
		pa, pb := esAlign(a, order), esAlign(b, order)
		t := esTerm{n: graph.Binary(graph.OpMul, pa.n, pb.n), labels: order}
		return esSum(t, func(l int) bool { return slices.Contains(con, l) })
	}
	// A batched MatMul: a as (batch..., m, k), b as (batch..., k, n).
	side := func(t esTerm, order []int, rows, cols []int) *graph.Node {
		al := esAlign(t, order)
		s := al.n.Shape().Clone()
		for i, l := range order {
			if slices.Contains(con, l) {
				s[i] = ext[l] // broadcast an extent-1 contracted axis
			}
		}
		x := graph.BroadcastTo(al.n, s)
		shape := s[:len(batch)].Clone()
		r, c := 1, 1
		for i := range rows {
			r *= s[len(batch)+i]
		}
		for i := range cols {
			c *= s[len(batch)+len(rows)+i]
		}
		return graph.Reshape(x, append(shape, r, c))
	}
	x := side(a, slices.Concat(batch, am, con), am, con)
	y := side(b, slices.Concat(batch, con, bn), con, bn)
	r := graph.MatMul(x, y)
	if r.Err() != nil {
		return esTerm{n: r, labels: slices.Concat(batch, am, bn)}
	}
	shape := r.Shape()[:len(batch)].Clone()
	for _, l := range am {
		shape = append(shape, extOf(a, l))
	}
	for _, l := range bn {
		shape = append(shape, extOf(b, l))
	}
	return esTerm{n: graph.Reshape(r, shape), labels: slices.Concat(batch, am, bn)}
}
