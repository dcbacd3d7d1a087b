// MatMul with NumPy's matmul semantics: vectors are promoted to matrices
// and the added axis removed from the result; batch axes broadcast.

package array

import (
	"github.com/fuseflow/fuseflow/graph"
)

// MatMul returns the matrix product a @ b as NumPy's matmul: for 2-d
// operands the matrix product; a 1-d a is a row vector (1, K) and a 1-d b
// a column vector (K, 1), the added axis removed from the result (two 1-d
// operands give a 0-d dot product); operands of rank > 2 are stacks of
// matrices whose batch axes broadcast. 0-d operands, contracted extents
// that differ, unbroadcastable batch axes and bool operands give an Array
// carrying an error. Both must belong to the same Context.
func MatMul(a, b *Array) *Array {
	x, y := nodeFor(a, "MatMul"), nodeFor(b, "MatMul")
	if x.Err() != nil {
		return a.derive(x)
	}
	if y.Err() != nil {
		return a.derive(y)
	}
	if err := sameContext("MatMul", a, b); err != nil {
		return a.derive(graph.ErrorNode(graph.OpMatMul, err))
	}
	in := []*graph.Node{x, y}
	for i, n := range in {
		if n.Shape().Rank() == 0 {
			return a.derive(graph.ErrorNode(graph.OpMatMul, opErr("MatMul", in,
				"operand %d is 0-d; matmul needs at least 1 dimension", i)))
		}
	}
	xs, ys := x.Shape(), y.Shape()
	vecA, vecB := xs.Rank() == 1, ys.Rank() == 1
	if vecA {
		x = graph.Reshape(x, Shape{1, xs[0]})
	}
	if vecB {
		y = graph.Reshape(y, Shape{ys[0], 1})
	}
	r := graph.MatMul(x, y)
	if r.Err() != nil {
		return a.derive(graph.ErrorNode(graph.OpMatMul, opErr("MatMul", in, "%v", unwrapMsg(r.Err()))))
	}
	s := r.Shape().Clone()
	switch {
	case vecA && vecB:
		s = s[:len(s)-2]
	case vecA:
		s = append(s[:len(s)-2], s[len(s)-1])
	case vecB:
		s = s[:len(s)-1]
	}
	return a.derive(graph.Reshape(r, s)).keep(b)
}

// MatMul is the method form of MatMul(a, b).
func (a *Array) MatMul(b *Array) *Array { return MatMul(a, b) }

// unwrapMsg returns the message of a graph.OpError (without its operand
// list, which for promoted vectors shows the internal shapes), or err's
// text.
func unwrapMsg(err error) string {
	if oe, ok := err.(*graph.OpError); ok {
		return oe.Msg
	}
	return err.Error()
}
